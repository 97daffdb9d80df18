// A spreadsheet's share links (../share-links.ts), and what a link reads: the record and a range of
// its first sheet (or the range the caller names), or its .xlsx.
import type { RequestContext } from "../../core/context.ts";
import type { DocumentShare } from "../../contract/documents.ts";
import type { CellRange, Spreadsheet } from "../../contract/spreadsheets.ts";
import type { StoredDownload } from "../../contract/files.ts";
import type { RenderMode } from "../../spreadsheets/values.ts";
import type { WorkbookRecord } from "../../store/types.ts";
import { isShareId, linkNotFound, newShare, publicShare } from "../share-links.ts";
import { jobOwner, knownId, precheck, sheetsOwner, spreadsheetNotFound, toSpreadsheet, type SheetsDeps } from "./access.ts";
import { readRecordRange } from "./cells.ts";
import { downloadRecord } from "./workbooks.ts";

export async function shareSpreadsheet(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; expiresInSeconds: number },
): Promise<DocumentShare & { url: string }> {
  const ownerId = sheetsOwner(ctx, "write");
  precheck(await deps.store.getWorkbook(ownerId, knownId(input.id)), undefined);
  const share = await newShare(deps.store, { kind: "workbook", targetId: input.id, ownerId }, input.expiresInSeconds, deps.publicUrl);
  ctx.log.info({ spreadsheetId: input.id, shareId: share.id, expiresAt: share.expiresAt }, "share link created");
  return share;
}

export async function listShares(deps: SheetsDeps, ctx: RequestContext, input: { id: string }): Promise<{ shares: DocumentShare[] }> {
  const ownerId = sheetsOwner(ctx, "read");
  precheck(await deps.store.getWorkbook(ownerId, knownId(input.id)), undefined);
  return { shares: (await deps.store.listShares(ownerId, input.id, new Date().toISOString())).map(publicShare) };
}

export async function revokeShare(deps: SheetsDeps, ctx: RequestContext, input: { id: string; shareId: string }): Promise<void> {
  const ownerId = sheetsOwner(ctx, "write");
  const record = await deps.store.getWorkbook(ownerId, knownId(input.id));
  if (!(record && isShareId(input.shareId) && (await deps.store.deleteShare(ownerId, input.id, input.shareId)))) {
    throw record ? linkNotFound() : spreadsheetNotFound();
  }
  ctx.log.info({ spreadsheetId: input.id, shareId: input.shareId }, "share link revoked");
}

/** What a link to a spreadsheet answers: the record, and a range (default: the first sheet's used range). */
export interface SharedSpreadsheet {
  kind: "spreadsheet";
  spreadsheet: Spreadsheet;
  range: string;
  values: CellRange["values"];
  truncated: boolean;
}

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
