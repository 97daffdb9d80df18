// One worksheet part, xl/worksheets/sheetN.xml, as a stream of strings: the head with the used
// range (<dimension>, found by a first pass over the rows), then one string per row as the rows
// come. The sheet's XML is never one string; the zip writer deflates it in batches.
import { columnName } from "../../cells/cells.ts";
import { isWritten, sheetBounds } from "../sheet-bounds.ts";
import type { Cell, SheetData } from "../../cells/types.ts";
import { MAX_CELL_TEXT } from "../../cells/types.ts";
import type { SharedStrings } from "./write-strings.ts";
import { textElement } from "./write-strings.ts";
import type { NumberFormats } from "./write-styles.ts";
import { numberText } from "../number-text.ts";
import { tableParts } from "./write-tables.ts";
import { xmlText } from "./write-xml.ts";

export interface SheetContext {
  styles: NumberFormats;
  strings: SharedStrings;
  /** Tables on the sheet (its relationships rId1 … name their parts). */
  tables?: number;
}

const HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">';

/** A number's `<v>`, or the #NUM! error Excel gives for a result no cell can hold (NaN, ±Infinity). */
function numberValue(n: number): { t: string; v: string } {
  const text = numberText(n);
  return text === undefined ? { t: ' t="e"', v: "#NUM!" } : { t: "", v: text };
}

/** A formula cell: `<f>` (an array formula's with its range; a dynamic array's cell marked cm="1") and its computed value. */
function formulaCell(cellOpen: string, formula: string, cell: Cell): string {
  const array = cell.array;
  const open = array?.dynamic ? `${cellOpen} cm="1"` : cellOpen;
  const f = array ? `<f t="array" ref="${array.ref}">${xmlText(formula)}</f>` : `<f>${xmlText(formula)}</f>`;
  const value = cell.value;
  switch (typeof value) {
    case "number": {
      const { t, v } = numberValue(value);
      return `${open}${t}>${f}<v>${v}</v></c>`;
    }
    case "string":
      return `${open} t="str">${f}<v>${xmlText(value)}</v></c>`;
    case "boolean":
      return `${open} t="b">${f}<v>${value ? 1 : 0}</v></c>`;
    default:
      return value === null ? `${open}>${f}</c>` : `${open} t="e">${f}<v>${value.error}</v></c>`;
  }
}

/** One cell's XML (`ref` is its A1 address). */
export function cellXml(ref: string, cell: Cell, context: SheetContext): string {
  const style = cell.numFmt === undefined ? 0 : context.styles.style(cell.numFmt);
  const open = style === 0 ? `<c r="${ref}"` : `<c r="${ref}" s="${style}"`;
  const value = cell.value;
  if (typeof value === "string" && value.length > MAX_CELL_TEXT) {
    throw new RangeError(`cell ${ref} holds ${value.length} characters, past ${MAX_CELL_TEXT}`);
  }
  if (cell.formula !== undefined) return formulaCell(open, cell.formula, cell);
  switch (typeof value) {
    case "number": {
      const { t, v } = numberValue(value);
      return `${open}${t}><v>${v}</v></c>`;
    }
    case "string": {
      const index = context.strings ? context.strings.index(value) : -1;
      return index >= 0 ? `${open} t="s"><v>${index}</v></c>` : `${open} t="inlineStr"><is>${textElement(value)}</is></c>`;
    }
    case "boolean":
      return `${open} t="b"><v>${value ? 1 : 0}</v></c>`;
    default:
      return value === null ? `${open}/>` : `${open} t="e"><v>${value.error}</v></c>`;
  }
}

/** The worksheet part of `sheet`; `selected` marks the tab shown when the file opens. */
export function* sheetXml(sheet: SheetData, selected: boolean, context: SheetContext): Generator<string> {
  const bounds = sheetBounds(sheet);
  let dimension = "A1";
  if (bounds) {
    const topLeft = `${columnName(bounds.left)}${bounds.top + 1}`;
    const bottomRight = `${columnName(bounds.right)}${bounds.bottom + 1}`;
    dimension = topLeft === bottomRight ? topLeft : `${topLeft}:${bottomRight}`;
  }
  yield `${HEAD}<dimension ref="${dimension}"/><sheetViews><sheetView${selected ? ' tabSelected="1"' : ""} workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>`;
  if (!bounds) {
    yield `<sheetData/>${tableParts(context.tables ?? 0)}</worksheet>`;
    return;
  }
  yield "<sheetData>";
  const names: string[] = [];
  for (const [row, cells] of sheet.rows()) {
    const r = String(row + 1);
    let xml = "";
    for (let column = 0; column < cells.length; column++) {
      const cell = cells[column];
      if (isWritten(cell)) xml += cellXml((names[column] ??= columnName(column)) + r, cell, context);
    }
    if (xml.length > 0) yield `<row r="${r}">${xml}</row>`;
  }
  yield `</sheetData>${tableParts(context.tables ?? 0)}</worksheet>`;
}
