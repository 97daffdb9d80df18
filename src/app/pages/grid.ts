// A range of a spreadsheet as an ARIA grid (docs/app.md "Spreadsheets"): column headers A, B, C…,
// row numbers as row headers, each cell a gridcell showing its computed value. The owner's page
// makes it editable (its script moves the selection and writes through the formula bar); a share
// link's page shows it read-only.
import { html } from "hono/html";
import { columnName, type CellRect } from "../a1.ts";
import type { Html } from "../layout.ts";

/** A cell as the range read answers it (render "both": formula cells as {value, formula}). */
export type CellOut = string | number | boolean | null | { error: string } | { value: CellOut; formula: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** What a cell shows: its value as a spreadsheet shows it (numbers to 15 significant digits). */
export function displayOf(cell: CellOut): string {
  if (isObject(cell) && "formula" in cell) return displayOf(cell.value);
  if (isObject(cell) && "error" in cell) return String(cell.error);
  if (typeof cell === "number") return String(Number(cell.toPrecision(15)));
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  return cell ?? "";
}

/** What the formula bar shows for a cell: its formula, else its value as typed. */
export const formulaOf = (cell: CellOut): string => (isObject(cell) && "formula" in cell ? String(cell.formula) : displayOf(cell));

const classOf = (cell: CellOut): string => {
  const value = isObject(cell) && "formula" in cell ? cell.value : cell;
  if (isObject(value) && "error" in value) return "error";
  return typeof value === "number" ? "number" : "";
};

export interface GridView {
  /** The cells shown; values[r][c] is the cell at (rect.row + r, rect.column + c), missing ones empty. */
  rect: CellRect;
  values: CellOut[][];
  /** The owner's grid: cells carry their address and formula, and take the selection. */
  editable: boolean;
  label: string;
}

export function gridTable(view: GridView): Html {
  const { rect } = view;
  const columns: number[] = [];
  for (let column = rect.column; column <= rect.lastColumn; column++) columns.push(column);
  const rows: Html[] = [];
  for (let row = rect.row; row <= rect.lastRow; row++) {
    const line = view.values[row - rect.row] ?? [];
    const cells = columns.map((column) => {
      const cell = line[column - rect.column] ?? null;
      const address = `${columnName(column)}${row}`;
      return view.editable
        ? html`<td role="gridcell" class="${classOf(cell)}" data-cell="${address}" data-formula="${formulaOf(cell)}" tabindex="-1">${displayOf(cell)}</td>`
        : html`<td role="gridcell" class="${classOf(cell)}">${displayOf(cell)}</td>`;
    });
    rows.push(html`<tr role="row"><th scope="row" role="rowheader">${row}</th>${cells}</tr>`);
  }
  const headers = columns.map((column) => html`<th scope="col" role="columnheader">${columnName(column)}</th>`);
  return html`<div class="grid-wrap">
    <table role="grid" class="grid" aria-label="${view.label}" ${view.editable ? "" : html` aria-readonly="true"`}>
      <thead>
        <tr role="row">
          <td aria-hidden="true"></td>
          ${headers}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
