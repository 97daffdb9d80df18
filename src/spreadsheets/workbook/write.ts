// Writing values into a range and appending rows under a sheet's data.
import { formatRange, parseRange, type Box } from "../cells/a1.ts";
import type { Book } from "./book.ts";
import { SheetsError } from "../cells/errors.ts";
import { K_STRING, slotOf } from "../cells/grid.ts";
import type { Sheet } from "../cells/sheet.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";
import { parseInput, type InputMode, type JsonCellInput } from "./values.ts";

export interface Written {
  /** "Sheet1!A1:C3": the cells the values covered. */
  updatedRange: string;
  updatedCells: number;
}

function checkValues(values: unknown): asserts values is JsonCellInput[][] {
  if (!Array.isArray(values) || values.length === 0 || !values.every(Array.isArray))
    throw new SheetsError("BAD_INPUT", "values must be a non-empty array of rows, each an array of cells: [[1, 2], [3, 4]].");
}

/** Writes rows of cells from the top-left of `box` on `sheet`; returns the range they covered. */
export function writeBlock(
  book: Book,
  sheet: Sheet,
  top: number,
  left: number,
  values: JsonCellInput[][],
  input: InputMode,
  strict = true,
): Written {
  const width = Math.max(0, ...values.map((row) => row.length));
  if (top + values.length > MAX_ROWS || left + width > MAX_COLUMNS)
    throw new SheetsError("LIMIT", `The values run past the last row (1048576) or column (XFD) of the sheet.`, {
      limit: top + values.length > MAX_ROWS ? "MAX_ROWS" : "MAX_COLUMNS",
    });
  let cells = 0;
  values.forEach((row, r) =>
    row.forEach((value, c) => {
      book.setCell(sheet, top + r, left + c, parseInput(value, input), strict);
      cells++;
    }),
  );
  const box: Box = { top, left, bottom: top + values.length - 1, right: left + Math.max(width, 1) - 1 };
  return { updatedRange: formatRange(sheet.name, box), updatedCells: cells };
}

/** PUT values: the range may be larger than the values (written from its top-left), never smaller. */
export function writeRange(book: Book, range: string, values: JsonCellInput[][], input: InputMode): Written {
  checkValues(values);
  const parsed = parseRange(range);
  const sheet = book.sheet(parsed.sheet);
  const width = Math.max(...values.map((row) => row.length));
  const rows = parsed.bottom - parsed.top + 1;
  const columns = parsed.right - parsed.left + 1;
  if (values.length > rows || width > columns)
    throw new SheetsError(
      "BAD_INPUT",
      `The values (${values.length} row${values.length === 1 ? "" : "s"} × ${width} column${width === 1 ? "" : "s"}) do not fit in ${range} (${rows} × ${columns}): give a range at least as large as the values.`,
      { subject: range },
    );
  return writeBlock(book, sheet, parsed.top, parsed.left, values, input);
}

export interface AppendInput {
  sheet?: string | null;
  values?: JsonCellInput[][];
  records?: Record<string, JsonCellInput>[];
  input?: InputMode;
}

/** The header row's texts by column, for records. */
function headerColumns(sheet: Sheet, used: Box): Map<string, number> {
  const columns = new Map<string, number>();
  for (let c = used.left; c <= used.right; c++) {
    const tile = sheet.grid.tile(used.top, c);
    const slot = slotOf(used.top, c);
    if (tile?.kinds[slot] === K_STRING) {
      const name = tile.strs?.[slot] ?? "";
      if (!columns.has(name)) columns.set(name, c);
    }
  }
  return columns;
}

function recordRows(
  records: Record<string, JsonCellInput>[],
  header: Map<string, number>,
  left: number,
  sheetName: string,
): JsonCellInput[][] {
  const lower = new Map([...header].map(([name, c]) => [name.toLowerCase(), c]));
  return records.map((record) => {
    if (typeof record !== "object" || record === null || Array.isArray(record))
      throw new SheetsError("BAD_INPUT", "Each record must be an object of header: value.");
    const row: JsonCellInput[] = [];
    for (const [key, value] of Object.entries(record)) {
      const c = header.get(key) ?? lower.get(key.toLowerCase());
      if (c === undefined)
        throw new SheetsError(
          "BAD_INPUT",
          `"${key}" is not a column of the header row of "${sheetName}" (${[...header.keys()].map((k) => `"${k}"`).join(", ")}).`,
          { subject: key },
        );
      row[c - left] = value;
    }
    return Array.from(row, (v) => (v === undefined ? null : v));
  });
}

/** Appends rows under the last non-empty row (records matched to the header row by name). */
export function appendRows(book: Book, request: AppendInput): Written {
  const sheet = book.sheet(request.sheet ?? null);
  const used = sheet.grid.used();
  const input = request.input ?? "parse";
  if (request.records !== undefined) {
    if (!Array.isArray(request.records) || request.records.length === 0)
      throw new SheetsError("BAD_INPUT", "records must be a non-empty array of objects.");
    if (!used) {
      const names = [...new Set(request.records.flatMap((r) => Object.keys(r ?? {})))];
      writeBlock(book, sheet, 0, 0, [names], "raw");
      const written = writeBlock(
        book,
        sheet,
        1,
        0,
        recordRows(request.records, new Map(names.map((n, i) => [n, i])), 0, sheet.name),
        input,
      );
      return {
        updatedRange: formatRange(sheet.name, { top: 0, left: 0, bottom: request.records.length, right: names.length - 1 }),
        updatedCells: written.updatedCells + names.length,
      };
    }
    const rows = recordRows(request.records, headerColumns(sheet, used), used.left, sheet.name);
    return writeBlock(book, sheet, used.bottom + 1, used.left, rows, input);
  }
  checkValues(request.values);
  return writeBlock(book, sheet, used ? used.bottom + 1 : 0, used ? used.left : 0, request.values, input);
}
