// A spreadsheet's history (the list is the lifecycle's, ../lifecycle.ts): one version as it was
// (its record, a range of it, its .xlsx), and restoring one as the newest (its manifest again:
// content-addressed, nothing is copied).
import type { RequestContext } from "../../core/context.ts";
import { GatewayError } from "../../core/errors.ts";
import type { Spreadsheet, SpreadsheetVersion } from "../../contract/spreadsheets.ts";
import type { StoredDownload } from "../../contract/files.ts";
import { jobOwner, knownId, precheck, sheetsOwner, spreadsheetItems, toSpreadsheet, toVersion, type SheetsDeps } from "./access.ts";
import { downloadRecord } from "./workbooks.ts";

async function versionOf(deps: SheetsDeps, ownerId: string, id: string, version: number) {
  const found = await deps.store.workbooks.getVersion(ownerId, knownId(id), version);
  if (!found) throw new GatewayError("NOT_FOUND", "Version not found");
  return found;
}

/** The spreadsheet as it was at a version: its name and sheets then, and the version's own facts. */
export async function readVersion(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; version: number },
): Promise<Spreadsheet & { versionInfo: SpreadsheetVersion }> {
  const ownerId = sheetsOwner(ctx, "read");
  const { record: workbook, version } = await versionOf(deps, ownerId, input.id, input.version);
  // Its name, number and content then; made when the spreadsheet was, changed when the version was.
  const then = { ...workbook, ...version, createdAt: workbook.createdAt, updatedAt: version.createdAt };
  return { ...toSpreadsheet(then, deps.publicUrl), versionInfo: toVersion(version) };
}

export async function downloadVersion(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; version: number },
): Promise<StoredDownload> {
  const ownerId = sheetsOwner(ctx, "read");
  const { version } = await versionOf(deps, ownerId, input.id, input.version);
  const at = { id: input.id, version: version.version, manifestHash: version.manifestHash, name: version.name };
  return downloadRecord(deps, ownerId, at, "xlsx", undefined, jobOwner(ctx, ownerId));
}

export async function restoreVersion(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; version: number; expectedVersion?: number | undefined },
): Promise<Spreadsheet> {
  const ownerId = sheetsOwner(ctx, "write");
  precheck(await deps.store.workbooks.get(ownerId, knownId(input.id)), input.expectedVersion);
  const { manifestHash, sizeBytes, cells, sheets } = (await versionOf(deps, ownerId, input.id, input.version)).version;
  const restored = await spreadsheetItems.write(deps.store, ctx, {
    ownerId,
    id: input.id,
    expectedVersion: input.expectedVersion,
    // The version's own manifest again: its blobs are still stored, nothing is copied.
    content: { manifestHash, blobs: [], refs: [], sizeBytes, cells, sheets },
    source: "restore",
  });
  return toSpreadsheet(restored, deps.publicUrl);
}
