// What each cell of a grid shows (docs/app.md "Spreadsheets"): the text Excel displays (the read's
// render=formatted: the number format applied, General as in a standard-width column), aligned by
// the value's kind as Excel aligns it, with the formula bar's text and, where the shown text is
// less than the value (a rounded number, a formatted date), the full value for a tooltip and for
// assistive technology. Made on the server from two reads of one range, for the page and its script.

/** A cell as the range read answers it with render "both": formula cells as {value, formula}. */
export type CellOut = string | number | boolean | null | { error: string } | { value: CellOut; formula: string };

/** Excel's alignment follows the value: numbers (dates too) right, text left, booleans and errors centred. */
export type CellKind = "number" | "text" | "boolean" | "error" | "empty";

export interface GridCell {
  /** What the cell shows. */
  text: string;
  kind: CellKind;
  /** What the formula bar shows when it is selected: its formula, else its value as typed. */
  formula: string;
  /** The value in full, when `text` shows less of it. */
  full?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** A value in full: numbers to Excel's 15 significant digits, dates as the read gives them (ISO 8601). */
function fullOf(cell: CellOut): string {
  if (isObject(cell) && "formula" in cell) return fullOf(cell.value);
  if (isObject(cell) && "error" in cell) return String(cell.error);
  if (typeof cell === "number") return String(Number(cell.toPrecision(15)));
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  return cell ?? "";
}

function kindOf(cell: CellOut): CellKind {
  const value = isObject(cell) && "formula" in cell ? cell.value : cell;
  if (value === null || value === "") return "empty";
  if (isObject(value)) return "error";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  // A date cell's value is its ISO 8601 text (render=value): a number to Excel, aligned as one.
  return /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$|^\d{2}:\d{2}:\d{2}$/.test(value) ? "number" : "text";
}

/** One cell of the grid from its value (render both) and its shown text (render formatted). */
export function gridCellOf(cell: CellOut, shown: unknown): GridCell {
  const full = fullOf(cell);
  const text = typeof shown === "string" ? shown : full;
  const formula = isObject(cell) && "formula" in cell ? String(cell.formula) : full;
  return { text, kind: kindOf(cell), formula, ...(full !== text && full !== "" ? { full } : {}) };
}

/** Rows of grid cells from the two reads of one range (the same cells, row by row). */
export const gridCellsOf = (values: unknown[][], shown: unknown[][]): GridCell[][] =>
  values.map((row, r) => row.map((cell, c) => gridCellOf(cell as CellOut, shown[r]?.[c])));
