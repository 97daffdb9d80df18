// RFC 4180 fields, read from text: a field is quoted when it starts with a double quote (doubled
// quotes inside, delimiters and line breaks kept), rows end at CRLF, LF or CR outside quotes. A
// quote inside an unquoted field is kept as text, as spreadsheets read it. The last line may end
// without a line break; a line break at the very end adds no row.

export const QUOTE = 34;
const CR = 13;
const LF = 10;

/** The rows of `text` as arrays of fields, one at a time. */
export function* csvRows(text: string, delimiter: number): Generator<string[]> {
  const length = text.length;
  let at = 0;
  while (at < length) {
    const row: string[] = [];
    for (;;) {
      let field: string;
      if (text.charCodeAt(at) === QUOTE) {
        // Quoted: up to the quote not followed by another; doubled quotes are one.
        let out = "";
        let from = at + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) {
            out += text.slice(from);
            at = length;
            break;
          }
          out += text.slice(from, quote);
          if (text.charCodeAt(quote + 1) === QUOTE) {
            out += '"';
            from = quote + 2;
            continue;
          }
          at = quote + 1;
          break;
        }
        // Anything between the closing quote and the delimiter is kept, as a spreadsheet does.
        let end = at;
        while (end < length && !isEnd(text.charCodeAt(end), delimiter)) end++;
        field = end > at ? out + text.slice(at, end) : out;
        at = end;
      } else {
        let end = at;
        while (end < length && !isEnd(text.charCodeAt(end), delimiter)) end++;
        field = text.slice(at, end);
        at = end;
      }
      row.push(field);
      const code = text.charCodeAt(at);
      if (code === delimiter) {
        at++;
        continue;
      }
      if (code === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
      else if (code === LF) at++;
      break;
    }
    yield row;
  }
}

const isEnd = (code: number, delimiter: number): boolean => code === delimiter || code === LF || code === CR;
