// An uploaded .csv → WorkbookData (../cells/types.ts): one sheet of raw strings, one per field (the engine
// turns them into numbers, dates or formulas per input=parse|raw; "00123" stays as it came here).
// Decoding: a UTF-8 or UTF-16 byte-order mark decides; otherwise UTF-8, or Windows-1252 when the
// bytes are not UTF-8 (what Excel's "CSV" writes on Western systems). The delimiter is sniffed
// among `,` `;` and tab: the one that splits the first lines into the same number of fields
// (more than one), the most fields winning a tie. The text is held once; rows() parses it again
// on each walk (./csv-parse.ts), so no cell objects wait in memory. Limits (413) are checked up
// front: cells, a field's length, rows and columns.
import { PackageTooLarge, unsupported, type PackageKind } from "../../ooxml/index.ts";
import { csvRows } from "./csv-parse.ts";
import { MAX_CELL_TEXT, MAX_COLUMNS, MAX_ROWS, type Cell, type SheetRow, type WorkbookData } from "../cells/types.ts";

const CSV: PackageKind = { name: ".csv", noun: ".csv file" };
const DELIMITERS = [",", ";", "\t"] as const;
/** Characters of the file the delimiter is sniffed from. */
const SNIFF_CHARS = 64 * 1024;
const SNIFF_ROWS = 20;

export interface ReadCsvOptions {
  /** The sheet's name; default "Sheet1". */
  sheetName?: string;
  /** A delimiter instead of sniffing one. */
  delimiter?: "," | ";" | "\t";
  /** Non-empty cells allowed (SHEETS_MAX_CELLS); default 2,000,000. */
  maxCells?: number;
}

/** Windows-1252's characters for 0x80–0x9F (Node's TextDecoder reads that label as Latin-1 there). */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

const windows1252 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString("latin1")
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);

export function decodeCsv(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return windows1252(body);
  }
}

/** The delimiter that splits the first rows most consistently into more than one field. */
export function sniffDelimiter(text: string): "," | ";" | "\t" {
  const sample = text.slice(0, SNIFF_CHARS);
  let best: { delimiter: "," | ";" | "\t"; consistent: number; fields: number } = { delimiter: ",", consistent: -1, fields: 0 };
  for (const delimiter of DELIMITERS) {
    const counts: number[] = [];
    for (const row of csvRows(sample, delimiter.charCodeAt(0))) {
      if (counts.length === SNIFF_ROWS) break;
      counts.push(row.length);
    }
    // The last sampled row may be cut short by the sample's end.
    if (counts.length > 1 && sample.length < text.length) counts.pop();
    const fields = counts[0] ?? 0;
    const consistent = fields > 1 ? counts.filter((n) => n === fields).length : 0;
    if (consistent > best.consistent || (consistent === best.consistent && fields > best.fields)) best = { delimiter, consistent, fields };
  }
  return best.delimiter;
}

/** The limits (413) a row must keep, counted as the rows come. */
class Limits {
  private cells = 0;
  private rows = 0;
  constructor(private readonly maxCells: number) {}
  row(row: string[]): void {
    if (++this.rows > MAX_ROWS)
      throw new PackageTooLarge("cells", `The .csv has more than ${MAX_ROWS} rows`, { reason: "rows", limit: MAX_ROWS });
    if (row.length > MAX_COLUMNS)
      throw new PackageTooLarge("cells", `The .csv has a row of more than ${MAX_COLUMNS} fields`, {
        reason: "columns",
        limit: MAX_COLUMNS,
      });
    for (const field of row) {
      if (field === "") continue;
      if (field.length > MAX_CELL_TEXT) {
        throw new PackageTooLarge("cell-text", `The .csv has a field over ${MAX_CELL_TEXT} characters (row ${this.rows})`, {
          reason: "cell_text",
          limit: MAX_CELL_TEXT,
        });
      }
      if (++this.cells > this.maxCells)
        throw new PackageTooLarge("cells", `The .csv holds more than ${this.maxCells} non-empty cells`, {
          reason: "cells",
          limit: this.maxCells,
        });
    }
  }
}

function check(text: string, delimiter: number, maxCells: number): void {
  const limits = new Limits(maxCells);
  for (const row of csvRows(text, delimiter)) limits.row(row);
}

function* sheetRows(text: string, delimiter: number): Generator<SheetRow> {
  let index = 0;
  for (const row of csvRows(text, delimiter)) {
    let cells: (Cell | undefined)[] | undefined;
    for (let column = 0; column < row.length; column++) {
      const field = row[column]!;
      if (field === "") continue;
      cells ??= [];
      cells[column] = { value: field };
    }
    if (cells) yield [index, cells];
    index++;
  }
}

/** The text of a .csv and its delimiter, as readCsv and readCsvBlocks start. */
function textOf(bytes: Uint8Array | string, options: ReadCsvOptions): { text: string; delimiter: number } {
  const text = typeof bytes === "string" ? bytes.replace(/^\uFEFF/, "") : decodeCsv(bytes);
  if (text.includes("\u0000")) throw unsupported("not-package", CSV, "it holds NUL characters (a binary file, not text)");
  return { text, delimiter: (options.delimiter ?? sniffDelimiter(text)).charCodeAt(0) };
}

export function readCsv(bytes: Uint8Array | string, options: ReadCsvOptions = {}): WorkbookData {
  const { text, delimiter } = textOf(bytes, options);
  check(text, delimiter, options.maxCells ?? 2_000_000);
  return { sheets: [{ name: options.sheetName ?? "Sheet1", rows: () => sheetRows(text, delimiter) }] };
}

/** Rows of raw field strings from `top`, empty rows inside as [] and empty fields as holes. */
export interface CsvBlock {
  top: number;
  values: string[][];
}

/**
 * A .csv's rows in blocks of up to `size` rows, for an import (Workbook.fromBlocks): the text is
 * parsed once, its limits checked as the rows come (the same 413s, in the same order, as readCsv's
 * pass before), and no Cell objects are made. The blocks are readCsv's rows as the import's block
 * maker (pool/jobs.ts) grouped them: a block starts at a row with a non-empty field. 128 rows, a
 * tile's height: a block is garbage before the next scavenge (blocks of 1,000 rows outlived a
 * worker's small young generation and were promoted).
 */
export function readCsvBlocks(bytes: Uint8Array | string, options: ReadCsvOptions & { size?: number } = {}): Iterable<CsvBlock> {
  const { text, delimiter } = textOf(bytes, options);
  return csvBlocks(text, delimiter, new Limits(options.maxCells ?? 2_000_000), options.size ?? 128);
}

function* csvBlocks(text: string, delimiter: number, limits: Limits, size: number): Generator<CsvBlock> {
  let top = 0;
  let index = -1;
  let values: string[][] = [];
  for (const row of csvRows(text, delimiter)) {
    index++;
    limits.row(row);
    let cells: string[] | undefined;
    for (let column = 0; column < row.length; column++) {
      const field = row[column]!;
      if (field === "") continue;
      cells ??= [];
      cells[column] = field;
    }
    if (!cells) continue;
    if (values.length === 0) top = index;
    while (top + values.length < index) values.push([]);
    values.push(cells);
    if (values.length >= size) {
      yield { top, values };
      values = [];
    }
  }
  if (values.length > 0) yield { top, values };
}
