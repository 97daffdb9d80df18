// A spreadsheet's page (docs/app.md "Spreadsheets"): its sheets as tabs, a formula bar showing the
// selected cell's formula, and a grid of computed values of one range — only that range is read,
// so a sheet of 100,000 rows opens as fast as one of ten; the pager moves the range.
import { html } from "hono/html";
import { columnName, rangeText, type CellRect } from "../a1.ts";
import { csrfField, when, type Html } from "../layout.ts";
import { itemButtons, type ItemVersionView, type ItemView } from "./parts.ts";
import type { GridCell } from "../cells.ts";
import { gridTable } from "./grid.ts";

export interface SheetTab {
  name: string;
  usedRange: string | null;
}

export interface SpreadsheetView extends ItemView {
  sheets: SheetTab[];
  sheet: string;
  /** The range shown, and the sheet's used size (for the pager). */
  rect: CellRect;
  used: { rows: number; columns: number };
  values: GridCell[][];
  /** The range read as the operations name it ("Sheet1!A1:H100"). */
  range: string;
}

function tabs(view: SpreadsheetView): Html {
  const { paths, id } = view;
  const links = view.sheets.map(
    (sheet) =>
      html`<a role="tab" href="${paths.spreadsheet(id)}?sheet=${encodeURIComponent(sheet.name)}" aria-selected="${sheet.name === view.sheet ? "true" : "false"}">${sheet.name}</a>`,
  );
  return html`<div role="tablist" aria-label="Sheets" class="tabs">${links}</div>`;
}

/** Links to the neighbouring ranges: rows by the page, columns by the page. */
function pager(view: SpreadsheetView): Html {
  const { rect, used } = view;
  const rows = rect.lastRow - rect.row + 1;
  const columns = rect.lastColumn - rect.column + 1;
  const at = (moved: CellRect) =>
    `${view.paths.spreadsheet(view.id)}?sheet=${encodeURIComponent(view.sheet)}&range=${encodeURIComponent(rangeText(moved))}`;
  const links: Html[] = [];
  if (rect.row > 1)
    links.push(
      html`<a href="${at({ ...rect, row: Math.max(1, rect.row - rows), lastRow: Math.max(rows, rect.row - 1) })}">Previous rows</a>`,
    );
  if (rect.lastRow < used.rows)
    links.push(html`<a href="${at({ ...rect, row: rect.lastRow + 1, lastRow: rect.lastRow + rows })}">Next rows</a>`);
  if (rect.column > 1)
    links.push(
      html`<a href="${at({ ...rect, column: Math.max(1, rect.column - columns), lastColumn: Math.max(columns, rect.column - 1) })}"
        >Previous columns</a
      >`,
    );
  if (rect.lastColumn < used.columns)
    links.push(html`<a href="${at({ ...rect, column: rect.lastColumn + 1, lastColumn: rect.lastColumn + columns })}">Next columns</a>`);
  const shown = `Rows ${rect.row}–${rect.lastRow}, columns ${columnName(rect.column)}–${columnName(rect.lastColumn)} of ${used.rows} rows`;
  return html`<nav class="pager" aria-label="Cells">${links}<span class="meta">${shown}</span></nav>`;
}

export function spreadsheetPage(view: SpreadsheetView): Html {
  const { paths, id } = view;
  const first = `${columnName(view.rect.column)}${view.rect.row}`;
  return html`<h1>${view.name}</h1>
    <p class="meta">Version <span id="sheet-version">${view.version}</span> · updated ${when(view.updatedAt)}</p>
    <div class="toolbar">
      ${itemButtons((page) => paths.spreadsheet(id, page), view.csrf, view.version)}
    </div>
    ${tabs(view)}
    <form
      method="post"
      action="${paths.spreadsheet(id, "cells")}"
      class="formula-bar"
      id="formula-bar"
      data-sheet="${view.sheet}"
      data-version="${view.version}"
      data-view="${view.range}"
    >
      ${csrfField(view.csrf)}
      <input type="hidden" name="version" value="${view.version}" />
      <input type="hidden" name="sheet" value="${view.sheet}" />
      <input type="hidden" name="view" value="${view.range}" />
      <label for="cell-address" class="visually-hidden">Cell</label>
      <input type="text" id="cell-address" name="cell" value="${first}" size="6" autocomplete="off" />
      <label for="formula" class="visually-hidden">Formula</label>
      <input
        type="text"
        id="formula"
        name="text"
        autocomplete="off"
        spellcheck="false"
        placeholder="Select a cell, type a value or =formula, press Enter"
      />
      <button type="submit" data-no-js>Write</button>
    </form>
    <p class="status" id="grid-status" role="status"></p>
    ${gridTable({ rect: view.rect, values: view.values, editable: true, label: view.sheet })} ${pager(view)}`;
}

export interface SpreadsheetVersionView extends ItemVersionView {
  createdAt: string;
  cells: number;
  sheets: SheetTab[];
}

export function spreadsheetVersionPage(view: SpreadsheetVersionView): Html {
  const { paths, id, version } = view;
  const sheets = view.sheets.map((sheet) => html`<li>${sheet.name}${sheet.usedRange ? ` (${sheet.usedRange})` : " (empty)"}</li>`);
  return html`<h1>${view.name} — version ${version}</h1>
    <p class="meta">Saved ${when(view.createdAt)} · ${view.cells} cells · the current version is ${view.current}.</p>
    <div class="toolbar">
      <a class="button" href="${paths.spreadsheet(id, "history")}">History</a>
      <a class="button" href="${paths.spreadsheetVersion(id, version)}/download" download>Download this version</a>
      <form method="post" action="${paths.spreadsheetVersion(id, version)}/restore">
        ${csrfField(view.csrf)}<input type="hidden" name="current" value="${view.current}" />
        <button type="submit" class="primary">Restore</button>
      </form>
    </div>
    <h2>Sheets</h2>
    <ul>
      ${sheets}
    </ul>`;
}
