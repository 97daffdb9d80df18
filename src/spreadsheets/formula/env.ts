// What the formula compiler asks of the workbook: sheets by name and in order (3-D references),
// defined names in their scopes, and tables (structured references).
import type { TableRef } from "./structured.ts";

/** A defined name: a workbook-scoped one (sid 0) or one local to a sheet. */
export interface NameDef {
  /** As written: "TaxRate", "_xlnm.Print_Area". */
  name: string;
  /** 0 for the workbook's scope, else the sheet id the name is local to. */
  sid: number;
  /** What it refers to, without "=": "Sheet1!$B$1", "0.05", "SUM(Sheet1!$A:$A)", "LAMBDA(x,x*2)". */
  formula: string;
  hidden?: boolean;
  comment?: string;
}

/** The workbook's scope for names. */
export const WORKBOOK_SCOPE = 0;

/** Excel's built-in names (Print_Area, _FilterDatabase …): kept and written back, never computed. */
export const isBuiltInName = (name: string): boolean => /^_xlnm\./i.test(name);

export interface CompileEnv {
  /** Sheet id of a sheet name (case-insensitive), or -1. */
  sheetId(name: string): number;
  /** The sheet ids from `first` to `last` in the workbook's order (a 3-D reference), or null when either is missing. */
  sheetSpan(first: string, last: string): number[] | null;
  /** The name as a formula on sheet `sid` sees it: the sheet's own first, then the workbook's; null when none. */
  name(name: string, sid: number): NameDef | null;
  /** A table by name (case-insensitive), or null. */
  table(name: string): TableRef | null;
  /** The table holding a cell, or null. */
  tableAt(sid: number, row: number, col: number): TableRef | null;
}
