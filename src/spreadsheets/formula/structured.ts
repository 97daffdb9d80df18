// Structured references to a table (an Excel ListObject): Sales[Amount], Sales[[#Headers],[Amount]],
// Sales[#Data], Sales[#All], Sales[#Totals], Sales[@Amount] (this row), Sales[[Q1]:[Q3]], and
// unqualified [@Amount] / [Amount] inside the table itself. Each resolves, for the formula's cell,
// to a rectangle of the table's sheet; "this row" is the row of the formula's cell, which must lie
// among the table's data rows (#VALUE! otherwise, as in Excel).
import { parseStructRef } from "@borgar/fx";
import type { Box } from "../cells/a1.ts";
import type { RefSpec } from "./program.ts";
import { ERR, type FormulaError } from "./values.ts";

/** A table as formulas see it. */
export interface TableRef {
  name: string;
  sid: number;
  /** The whole table: header row, data rows and totals row. */
  box: Box;
  /** 1 when the table's first row holds its column names. */
  header: number;
  /** 1 when its last row is a totals row. */
  totals: number;
  /** Column names, left to right. */
  columns: string[];
}

export interface StructuredRef {
  spec: RefSpec;
  /** For "this row": the data rows the formula's row must lie among. */
  rows: { top: number; bottom: number } | null;
}

/** The data rows of a table (between its header and its totals row). */
export const dataRows = (t: TableRef): { top: number; bottom: number } => ({
  top: t.box.top + t.header,
  bottom: t.box.bottom - t.totals,
});

const absolute = (sid: number, box: Box): RefSpec => ({
  sid,
  ...box,
  topAbs: true,
  leftAbs: true,
  bottomAbs: true,
  rightAbs: true,
});

function columnSpan(table: TableRef, columns: string[]): [number, number] | null {
  if (columns.length === 0) return [table.box.left, table.box.right];
  const index = (name: string) => table.columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
  const first = index(columns[0] as string);
  const last = index(columns[columns.length - 1] as string);
  if (first < 0 || last < 0) return null;
  return [table.box.left + Math.min(first, last), table.box.left + Math.max(first, last)];
}

function rowSpan(table: TableRef, sections: string[]): [number, number] | null {
  const data = dataRows(table);
  const has = (s: string) => sections.includes(s);
  if (has("all")) return [table.box.top, table.box.bottom];
  if (has("headers") && table.header === 0) return null;
  if (has("totals") && table.totals === 0) return null;
  const top = has("headers") ? table.box.top : has("data") || !has("totals") ? data.top : table.box.bottom;
  const bottom = has("totals") ? table.box.bottom : has("data") || !has("headers") ? data.bottom : table.box.top;
  return top > bottom ? null : [top, bottom];
}

/**
 * Resolves a structured reference's text. `table` finds a table by name; `at` is the table holding
 * the formula's cell (for unqualified references), or null.
 */
export function resolveStructured(
  text: string,
  table: (name: string) => TableRef | null,
  at: TableRef | null,
): StructuredRef | FormulaError {
  let parsed: ReturnType<typeof parseStructRef>;
  try {
    parsed = parseStructRef(text);
  } catch {
    return ERR.REF;
  }
  if (!parsed) return ERR.REF;
  const t = parsed.table ? table(parsed.table) : at;
  if (!t) return ERR.REF;
  const cols = columnSpan(t, parsed.columns ?? []);
  if (!cols) return ERR.REF;
  const sections = (parsed.sections ?? []).map((s) => s.toLowerCase());
  if (sections.includes("this row")) {
    const spec: RefSpec = {
      sid: t.sid,
      top: 0,
      bottom: 0,
      left: cols[0],
      right: cols[1],
      topAbs: false,
      bottomAbs: false,
      leftAbs: true,
      rightAbs: true,
    };
    return { spec, rows: dataRows(t) };
  }
  const rows = rowSpan(t, sections);
  if (!rows) return ERR.REF;
  return { spec: absolute(t.sid, { top: rows[0], bottom: rows[1], left: cols[0], right: cols[1] }), rows: null };
}
