// RFC 4180 fields, read from text: a field is quoted when it starts with a double quote (doubled
// quotes inside, delimiters and line breaks kept), rows end at CRLF, LF or CR outside quotes. A
// quote inside an unquoted field is kept as text, as spreadsheets read it. The last line may end
// without a line break; a line break at the very end adds no row. Field ends are found with
// indexOf (the next delimiter, LF and CR, each searched again only once passed), not char by char.

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** The next position of each field end at or after a point, searched again only when passed. */
class Ends {
  private delimiter = -1;
  private lf = -1;
  private cr = -1;
  constructor(
    private readonly text: string,
    private readonly delimiterChar: string,
  ) {}
  next(from: number): number {
    const { text } = this;
    if (this.delimiter < from && this.delimiter !== Infinity) this.delimiter = find(text, this.delimiterChar, from);
    if (this.lf < from && this.lf !== Infinity) this.lf = find(text, "\n", from);
    if (this.cr < from && this.cr !== Infinity) this.cr = find(text, "\r", from);
    return Math.min(this.delimiter, this.lf, this.cr, text.length);
  }
}

const find = (text: string, char: string, from: number): number => {
  const at = text.indexOf(char, from);
  return at < 0 ? Infinity : at;
};

/** A quoted field from its opening quote: its text, and where the text after its closing quote starts. */
function quoted(text: string, open: number): [string, number] {
  let out = "";
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return [out + text.slice(from), text.length];
    out += text.slice(from, quote);
    if (text.charCodeAt(quote + 1) !== QUOTE) return [out, quote + 1];
    out += '"';
    from = quote + 2;
  }
}

/** The rows of `text` as arrays of fields, one at a time. */
export function* csvRows(text: string, delimiter: number): Generator<string[]> {
  const length = text.length;
  const ends = new Ends(text, String.fromCharCode(delimiter));
  let at = 0;
  while (at < length) {
    const row: string[] = [];
    for (;;) {
      let field: string;
      if (text.charCodeAt(at) === QUOTE) {
        const [inside, after] = quoted(text, at);
        // Anything between the closing quote and the field's end is kept, as a spreadsheet does.
        const end = ends.next(after);
        field = end > after ? inside + text.slice(after, end) : inside;
        at = end;
      } else {
        const end = ends.next(at);
        field = text.slice(at, end);
        at = end;
      }
      row.push(field);
      const code = text.charCodeAt(at);
      if (code === delimiter) {
        at++;
        // A delimiter at the very end leaves one more, empty, field.
        if (at === length) row.push("");
        else continue;
      } else if (code === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
      else if (code === LF) at++;
      break;
    }
    yield row;
  }
}
