// What a share link to a spreadsheet reads (the links themselves are the lifecycle's, ../lifecycle.ts):
// the record and a range of its first sheet (or the range the caller names), or its .xlsx.
import type { RequestContext } from "../../core/context.ts";
import type { z } from "zod";
import type { sharedSpreadsheetSchema } from "../../contract/spreadsheets.ts";
import type { StoredDownload } from "../../contract/files.ts";
import type { RenderMode } from "../../spreadsheets/workbook/values.ts";
import type { WorkbookRecord } from "../../store/types.ts";
import { jobOwner, toSpreadsheet, type SheetsDeps } from "./access.ts";
import { readRecordRange } from "./cells.ts";
import { downloadRecord } from "./workbooks.ts";

/** What a link to a spreadsheet answers: the record, and a range (default: the first sheet's used range). */
export type SharedSpreadsheet = z.output<typeof sharedSpreadsheetSchema>;

export async function readSharedSpreadsheet(
  deps: SheetsDeps,
  ctx: RequestContext,
  record: WorkbookRecord,
  input: { range?: string | undefined; maxCells: number; render?: RenderMode },
): Promise<SharedSpreadsheet> {
  const first = record.sheets[0];
  const range = input.range ?? (first?.usedRange ? `'${first.name.replaceAll("'", "''")}'!${first.usedRange}` : "A1");
  const read = await readRecordRange(deps, ctx, record, {
    id: record.id,
    range,
    render: input.render ?? "value",
    format: "json",
    maxCells: input.maxCells,
  });
  return {
    kind: "spreadsheet",
    spreadsheet: toSpreadsheet(record, deps.publicUrl),
    range: read.range,
    values: read.values,
    truncated: read.truncated,
  };
}

export const downloadSharedSpreadsheet = (deps: SheetsDeps, record: WorkbookRecord): Promise<StoredDownload> =>
  downloadRecord(deps, record.ownerId, record, "xlsx", undefined, jobOwner(undefined, record.ownerId));
