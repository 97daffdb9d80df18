// Spreadsheets operations (docs/api.md "Spreadsheets"): the one implementation the operation
// table's rows run, on input the runner has validated with the row's schema (each method's input
// type is that schema's output). The list, the trash, share links and the version list are the one
// service lifecycle (../lifecycle.ts); records, cells, names and versions' content are in their own
// files, composed here.
import type { z } from "zod";
import type { RequestContext } from "../../core/context.ts";
import type * as contract from "../../contract/spreadsheets.ts";
import type { WorkbookRecord } from "../../store/types.ts";
import { fieldsOf, serviceLifecycle, withDeps } from "../lifecycle.ts";
import { jobOwner, spreadsheetItems, toSpreadsheet, toVersion, type SheetsDeps } from "./access.ts";
import { changeCells, evaluateFormula, readCells, readRecordRange } from "./cells.ts";
import { defineName, deleteName, listNames } from "./names.ts";
import { downloadVersion, readVersion, versionContent } from "./versions.ts";
import {
  createSpreadsheet,
  createSpreadsheetFromJson,
  downloadRecord,
  downloadSpreadsheet,
  getSpreadsheet,
  importSpreadsheet,
} from "./workbooks.ts";

export { ManifestCache, RenderedCache } from "./stored.ts";
export { WarningsCache } from "./warnings.ts";

type Ctx = RequestContext;
/** What the row's input schema gives the service once the runner has parsed it. */
type In<K extends keyof typeof contract> = (typeof contract)[K] extends z.ZodType ? z.output<(typeof contract)[K]> : never;

export type SpreadsheetsService = ReturnType<typeof createSpreadsheetsService>;

export function createSpreadsheetsService(deps: SheetsDeps) {
  const shown = (record: WorkbookRecord) => toSpreadsheet(record, deps.publicUrl);
  return {
    ...serviceLifecycle(spreadsheetItems, deps, {
      record: shown,
      version: toVersion,
      key: "spreadsheets",
      versionContent: (...args) => versionContent(deps, ...args),
    }),
    ...withDeps(deps, { create: createSpreadsheet, createFromJson: createSpreadsheetFromJson, import: importSpreadsheet }),
    ...withDeps(deps, { get: getSpreadsheet, read: readCells, evaluate: evaluateFormula, download: downloadSpreadsheet }),
    ...withDeps(deps, { names: listNames, defineName, deleteName }),
    ...withDeps(deps, { readVersion, downloadVersion }),
    write: (ctx: Ctx, { range, values, input, ...target }: In<"writeRangeInputSchema">) =>
      changeCells(deps, ctx, target, { kind: "write", range, values, input: input ?? "parse" }, "write"),
    // A field not given stays undefined: the pool skips it, the idempotency fingerprint's JSON leaves it out.
    append: (ctx: Ctx, { sheet, values, records, input, ...target }: In<"appendRowsInputSchema">) =>
      changeCells(deps, ctx, target, { kind: "append", sheet, values, records, input: input ?? "parse" }, "append"),
    edit: (ctx: Ctx, { operations, ...target }: In<"editSpreadsheetInputSchema">) =>
      changeCells(deps, ctx, target, { kind: "edit", operations }, "edit"),
    /** What a share link reads (../share-links.ts found the spreadsheet): the record, and a range (default: its first sheet's used range). */
    async readShared(
      ctx: Ctx,
      record: WorkbookRecord,
      { range: named, maxCells, render }: Pick<In<"readSharedAnyInputSchema">, "range" | "maxCells" | "render">,
    ): Promise<In<"sharedSpreadsheetSchema">> {
      const first = record.sheets[0];
      const range = named ?? (first?.usedRange ? `'${first.name.replaceAll("'", "''")}'!${first.usedRange}` : "A1");
      const read = await readRecordRange(deps, ctx, record, { id: record.id, range, render, format: "json", maxCells });
      return { kind: "spreadsheet", spreadsheet: shown(record), ...fieldsOf(read, ["range", "values", "truncated"]) };
    },
    downloadShared: (record: WorkbookRecord) =>
      downloadRecord(deps, record.ownerId, record, "xlsx", undefined, jobOwner(undefined, record.ownerId)),
  };
}
