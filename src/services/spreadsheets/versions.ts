// A spreadsheet's history (the list and the restore are the lifecycle's, ../lifecycle.ts): one
// version as it was (its record, its .xlsx), and the content restoring one writes again (its
// manifest: content-addressed, nothing is copied).
import type { z } from "zod";
import type { RequestContext } from "../../core/context.ts";
import { notFound } from "../../core/errors.ts";
import type { spreadsheetAtVersionSchema, spreadsheetVersionInputSchema } from "../../contract/spreadsheets.ts";
import type { StoredDownload } from "../../contract/files.ts";
import type { WorkbookContent } from "../../store/types.ts";
import { jobOwner, knownId, precheck, sheetsOwner, toSpreadsheet, toVersion, type SheetsDeps } from "./access.ts";
import { downloadRecord } from "./workbooks.ts";

type VersionRef = z.output<typeof spreadsheetVersionInputSchema>;
type AtVersion = z.output<typeof spreadsheetAtVersionSchema>;

async function versionOf(deps: SheetsDeps, ownerId: string, id: string, version: number) {
  const found = await deps.store.workbooks.getVersion(ownerId, knownId(id), version);
  if (!found) throw notFound("Version");
  return found;
}

/** The spreadsheet as it was at a version: its name and sheets then, and the version's own facts. */
export async function readVersion(deps: SheetsDeps, ctx: RequestContext, input: VersionRef): Promise<AtVersion> {
  const ownerId = sheetsOwner(ctx, "read");
  const { record: workbook, version } = await versionOf(deps, ownerId, input.id, input.version);
  // Its name, number and content then; made when the spreadsheet was, changed when the version was.
  const then = { ...workbook, ...version, createdAt: workbook.createdAt, updatedAt: version.createdAt };
  return { ...toSpreadsheet(then, deps.publicUrl), versionInfo: toVersion(version) };
}

export async function downloadVersion(deps: SheetsDeps, ctx: RequestContext, input: VersionRef): Promise<StoredDownload> {
  const ownerId = sheetsOwner(ctx, "read");
  const { version } = await versionOf(deps, ownerId, input.id, input.version);
  const at = { id: input.id, version: version.version, manifestHash: version.manifestHash, name: version.name };
  return downloadRecord(deps, ownerId, at, "xlsx", undefined, jobOwner(ctx, ownerId));
}

/** Version n's manifest to restore (its blobs are still stored), after failing fast when the spreadsheet is missing or past expectedVersion. */
export async function versionContent(deps: SheetsDeps, ownerId: string, id: string, n: number, expectedVersion: number | undefined) {
  precheck(await deps.store.workbooks.get(ownerId, knownId(id)), expectedVersion);
  const { manifestHash, sizeBytes, cells, sheets } = (await versionOf(deps, ownerId, id, n)).version;
  return { manifestHash, blobs: [], refs: [], sizeBytes, cells, sheets } satisfies WorkbookContent;
}
