// A workbook's report as the store keeps it: one JSON blob per distinct report, named by the
// version's manifest root (stored-manifest.ts `report`), so a version without warnings stores none
// and versions whose report did not change share one. It holds the warnings as they were when the
// version was saved (what describe answers without loading the workbook) and what a model needs to
// go on: the differing cells with the writer's values, and the import's facts.
import { z } from "zod";
import type { Book } from "../workbook/book.ts";
import { SheetsError } from "../cells/errors.ts";
import { slotOf } from "../cells/grid.ts";
import { ERROR_VALUES, type CellValue } from "../cells/types.ts";
import { WARNING_CODES, type WorkbookWarning } from "./types.ts";

const raw = z.union([z.string(), z.number(), z.boolean(), z.null(), z.object({ error: z.enum(ERROR_VALUES) })]);
const warningSchema = z.object({
  code: z.enum(WARNING_CODES),
  message: z.string(),
  count: z.number().int().min(0),
  cells: z.array(z.string()),
  function: z.string().optional(),
  name: z.string().optional(),
  feature: z.string().optional(),
  checked: z.number().int().min(0).optional(),
  differences: z.array(z.object({ cell: z.string(), formula: z.string(), expected: raw, got: raw })).optional(),
  links: z.array(z.string()).optional(),
});
const reportSchema = z.object({
  format: z.literal(1),
  warnings: z.array(warningSchema),
  facts: z.array(warningSchema),
  checked: z.number().int().min(0),
  untracked: z.number().int().min(0),
  /** The cells that differed from the writer's: [sheet index, row, column, the writer's value]. */
  distrusted: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0), z.number().int().min(0), raw])),
});
export type StoredReport = z.infer<typeof reportSchema>;

/** The blob of a book's report with its warnings now, or null when there is nothing to keep. */
export function encodeReport(book: Book, warnings: WorkbookWarning[]): Uint8Array | null {
  const report = book.report;
  if (report.empty && warnings.length === 0) return null;
  const index = new Map(book.sheets.map((sheet, i) => [sheet.sid, i]));
  const distrusted: StoredReport["distrusted"] = [];
  for (const [cell, expected] of report.distrusted) distrusted.push([index.get(cell.sid) ?? 0, cell.row, cell.col, expected]);
  distrusted.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const stored: StoredReport = {
    format: 1,
    warnings,
    facts: report.facts,
    checked: report.checked,
    untracked: report.untracked,
    distrusted,
  };
  return new TextEncoder().encode(JSON.stringify(stored));
}

const CODES: ReadonlySet<string> = new Set(WARNING_CODES);

/** Leaves out warnings of a code this build no longer gives (ARRAY_FORMULA: array formulas are computed now). */
function currentCodes(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = (list: unknown) =>
    Array.isArray(list)
      ? list.filter((w: unknown) => typeof w !== "object" || w === null || CODES.has(String((w as { code?: unknown }).code)))
      : list;
  const stored = value as { warnings?: unknown; facts?: unknown };
  return { ...stored, warnings: known(stored.warnings), facts: known(stored.facts) };
}

export function decodeReport(bytes: Uint8Array): StoredReport {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SheetsError("BAD_TILE", "A stored workbook report is not JSON.");
  }
  const parsed = reportSchema.safeParse(currentCodes(value));
  if (!parsed.success) throw new SheetsError("BAD_TILE", "A stored workbook report is malformed.");
  return parsed.data;
}

/** Gives a model loaded from tiles the report it was saved with (its formula cells are flagged as they load). */
export function restoreReport(book: Book, stored: StoredReport): void {
  const report = book.report;
  report.facts = stored.facts as WorkbookWarning[];
  report.checked = stored.checked;
  report.untracked = stored.untracked;
  for (const [sheetIndex, row, col, expected] of stored.distrusted) {
    const cell = book.sheets[sheetIndex]?.grid.tile(row, col)?.formulas?.get(slotOf(row, col));
    if (cell) report.distrusted.set(cell, expected as CellValue);
  }
}
