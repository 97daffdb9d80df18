// Test helpers for function tables: a workbook with data, and a formula's whole result — its value,
// or, when it spills, the values of every cell it fills.
import { Workbook } from "../../../src/spreadsheets/workbook/workbook.ts";
import type { JsonCellInput, JsonCellValue } from "../../../src/spreadsheets/workbook/values.ts";

export function workbook(values: JsonCellInput[][]): Workbook {
  return Workbook.create([{ name: "S", values }], "raw").workbook;
}

/** The formula's result, written far from the data: one value, or the rows × columns it spills (read back to their end). */
export function result(wb: Workbook, formula: string): JsonCellValue | JsonCellValue[][] {
  wb.write("S!AA1000", [[formula]]);
  const values = wb.read("S!AA1000:AZ1100").values;
  const rows = values.findIndex((row) => row[0] === null);
  const height = rows < 0 ? values.length : rows;
  const width = (values[0] ?? []).findIndex((v) => v === null);
  const grid = values.slice(0, height).map((row) => row.slice(0, width < 0 ? row.length : width));
  wb.write("S!AA1000", [[null]]);
  return grid.length === 1 && grid[0]!.length === 1 ? grid[0]![0]! : grid;
}
