// A range of a spreadsheet as an ARIA grid (docs/app.md "Spreadsheets"): column headers A, B, C…,
// row numbers as row headers, each cell a gridcell showing its value as Excel shows it
// (../cells.ts). The owner's page makes it editable (its script moves the selection and writes
// through the formula bar); a share link's page shows it read-only.
import { html } from "hono/html";
import { columnName, type CellRect } from "../a1.ts";
import type { GridCell } from "../cells.ts";
import type { Html } from "../layout.ts";

const EMPTY: GridCell = { text: "", kind: "empty", formula: "" };

export interface GridView {
  /** The cells shown; values[r][c] is the cell at (rect.row + r, rect.column + c), missing ones empty. */
  rect: CellRect;
  values: GridCell[][];
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
      const cell = line[column - rect.column] ?? EMPTY;
      const address = `${columnName(column)}${row}`;
      const title = cell.full === undefined ? "" : html` title="${cell.full}"`;
      return view.editable
        ? html`<td role="gridcell" class="${cell.kind}"${title} data-cell="${address}" data-formula="${cell.formula}" tabindex="-1">${cell.text}</td>`
        : html`<td role="gridcell" class="${cell.kind}"${title}>${cell.text}</td>`;
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
