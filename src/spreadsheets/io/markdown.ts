// GFM tables in and out. In: `sheets:[{name, markdown}]` on create gives the first table of the
// markdown as rows of strings (which the caller then reads as typed input). Out: a range read with
// `format=markdown` gives its values as a table, the first row as the header.
//
// A cell's text is its markdown source, trimmed, with the table's escapes undone: a backslash
// before ASCII punctuation is that character ("\|" is "|", "\\" is "\"), and <br> is a line break.
// Emphasis and code backticks stay as written. Two liberties with GFM, both so that no data is
// lost: a pipe inside an inline code span does not split the cell (GFM splits it unless escaped,
// and tables written by hand or by models rarely escape it), and a row with more cells than the
// header keeps them (GFM drops them). A row with fewer is padded with empty cells, as in GFM.
// The writer escapes what the reader would otherwise take apart (pipes, backticks, backslashes
// before punctuation, a literal "<br>") and writes line breaks as <br>, so a table read back
// gives the same texts, except leading and trailing white space, which GFM trims, and CR or CRLF
// line breaks, which come back as LF.
import { finish, inSlices } from "../../core/slices.ts";
import { GatewayError } from "../../core/errors.ts";
import { numberText } from "./number-text.ts";
import type { CellValue } from "../cells/types.ts";

export type Alignment = "left" | "center" | "right" | null;

export interface MarkdownTable {
  /** The header row, then the body rows; each at least as wide as the header. */
  rows: string[][];
  /** Each column's alignment, from the delimiter row. */
  align: Alignment[];
}

const DELIMITER_CELL = /^:?-+:?$/;
const UNESCAPE = /\\([!-/:-@[-`{-~])|<br\s*\/?>/gi;

/** The index of the last backtick of the code span opening at `at`, or of the opening run when nothing closes it. */
function codeSpanEnd(text: string, at: number): number {
  const runAt = (i: number) => {
    let n = 0;
    while (text[i + n] === "`") n++;
    return n;
  };
  const open = runAt(at);
  for (let i = text.indexOf("`", at + open); i >= 0; i = text.indexOf("`", i)) {
    const run = runAt(i);
    if (run === open) return i + run - 1;
    i += run;
  }
  return at + open - 1;
}

/** A line's cells, split at pipes that are neither escaped nor inside a code span; outer pipes dropped. */
function splitRow(line: string): string[] {
  const text = line.trim();
  const cells: string[] = [];
  let start = 0;
  let endsWithPipe = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    endsWithPipe = false;
    if (c === "\\") i++;
    else if (c === "`") i = codeSpanEnd(text, i);
    else if (c === "|") {
      cells.push(text.slice(start, i));
      start = i + 1;
      endsWithPipe = true;
    }
  }
  if (!endsWithPipe) cells.push(text.slice(start));
  if (text.startsWith("|")) cells.shift();
  return cells.map((cell) => cell.trim().replace(UNESCAPE, (_, escaped: string | undefined) => escaped ?? "\n"));
}

function delimiterRow(line: string): Alignment[] | null {
  if (!line.includes("|")) return null;
  const cells = splitRow(line);
  if (cells.length === 0 || !cells.every((cell) => DELIMITER_CELL.test(cell))) return null;
  return cells.map((cell) => (cell.startsWith(":") ? (cell.endsWith(":") ? "center" : "left") : cell.endsWith(":") ? "right" : null));
}

/**
 * The first GFM table in `markdown`: a header row, a delimiter row with as many cells, then body
 * rows up to the first blank line. Text before and after the table is ignored. BAD_USER_INPUT when
 * there is no table.
 */
export function parseMarkdownTable(markdown: string): MarkdownTable {
  const lines = markdown.split(/\r\n|\n|\r/);
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || !line.includes("|")) continue;
    const align = delimiterRow(lines[i + 1]!);
    const header = splitRow(line);
    if (!align || align.length !== header.length) continue;
    const rows = [header];
    for (let j = i + 2; j < lines.length && lines[j]!.trim() !== ""; j++) {
      const cells = splitRow(lines[j]!);
      while (cells.length < header.length) cells.push("");
      rows.push(cells);
    }
    return { rows, align };
  }
  throw new GatewayError(
    "BAD_USER_INPUT",
    "the markdown holds no GFM table: a header row, then a delimiter row with a cell for each column (| Name | Price |, then | --- | ---: |)",
  );
}

/** A value as table text: escaped so that parseMarkdownTable reads it back. */
function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return numberText(value) ?? "#NUM!";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "object") return value.error;
  return value.replace(/\\(?=[!-/:-@[-`{-~]|[\r\n]|$)|[|`]|<(?=br\s*\/?>)/gi, (c) => `\\${c}`).replace(/\r\n|\n|\r/g, "<br>");
}

export interface MarkdownWriteOptions {
  /** The most characters to write; rows past it are left out (default 1,000,000). */
  maxChars?: number;
}

export interface MarkdownWritten {
  markdown: string;
  /** Rows written, the header included. */
  rows: number;
  /** Whether rows were left out to keep within maxChars. */
  truncated: boolean;
}

/**
 * `values` (as render=value gives them) as a GFM table, the first row as the header; columns
 * whose body is all numbers are right-aligned. Empty values give an empty string.
 */
export function markdownTable(
  values: readonly (readonly (CellValue | undefined)[])[],
  options: MarkdownWriteOptions = {},
): MarkdownWritten {
  return finish(writingMarkdownTable(values, options));
}

/** markdownTable, a few milliseconds at a time: the event loop turns between the rows of a large table. */
export function markdownTableInSlices(
  values: readonly (readonly (CellValue | undefined)[])[],
  options: MarkdownWriteOptions = {},
): Promise<MarkdownWritten> {
  return inSlices(writingMarkdownTable(values, options));
}

/** The table, pausing (yield) after each column looked at and each row written. */
function* writingMarkdownTable(
  values: readonly (readonly (CellValue | undefined)[])[],
  options: MarkdownWriteOptions,
): Generator<void, MarkdownWritten> {
  const maxChars = options.maxChars ?? 1_000_000;
  const width = values.reduce((most, row) => Math.max(most, row.length), 0);
  if (width === 0) return { markdown: "", rows: 0, truncated: false };
  const line = (row: readonly (CellValue | undefined)[]) =>
    `| ${Array.from({ length: width }, (_, i) => cellText(row[i])).join(" | ")} |\n`;
  const numeric: boolean[] = [];
  for (let column = 0; column < width; column++) {
    let number = false;
    let other = false;
    for (let r = 1; r < values.length && !other; r++) {
      const v = values[r]![column] ?? null;
      if (typeof v === "number") number = true;
      else if (v !== null) other = true;
    }
    numeric.push(number && !other);
    yield;
  }
  let markdown = line(values[0]!) + `| ${numeric.map((right) => (right ? "---:" : "---")).join(" | ")} |\n`;
  let rows = 1;
  for (; rows < values.length; rows++) {
    const next = line(values[rows]!);
    if (markdown.length + next.length > maxChars) return { markdown, rows, truncated: true };
    markdown += next;
    yield;
  }
  return { markdown, rows, truncated: false };
}
