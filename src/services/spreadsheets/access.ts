// What every spreadsheets operation shares: who may read or write, the public shape of a record,
// cursors, the errors a conditional write ends in, and the pool's words for a job and its errors.
import type { RequestContext } from "../../core/context.ts";
import { GatewayError } from "../../core/errors.ts";
import { isSpreadsheetId, spreadsheetSchema, spreadsheetVersionSchema, type SpreadsheetVersion } from "../../contract/spreadsheets.ts";
import { isSheetsError } from "../../spreadsheets/cells/errors.ts";
import type { Base, JobOwner, SheetsPool } from "../../spreadsheets/pool/index.ts";
import { sheetsErrorCode } from "../../spreadsheets/pool/errors.ts";
import type { Store, WorkbookChange, WorkbookRecord, WorkbookVersionRecord } from "../../store/types.ts";
import { fieldsOf, serviceKind, shownAs } from "../lifecycle.ts";
import type { ManifestCache, RenderedCache } from "./stored.ts";
import type { WarningsCache } from "./warnings.ts";

export interface SheetsDeps {
  store: Store;
  pool: SheetsPool;
  manifests: ManifestCache;
  rendered: RenderedCache;
  warnings: WarningsCache;
  /** PUBLIC_URL without its trailing slash, or "". */
  publicUrl: string;
  /** A drive file's bytes with the caller's access token (the drive product), at most `limit` bytes. */
  driveFile(
    ctx: RequestContext,
    fileId: string,
    limit: number,
  ): Promise<{ bytes: Uint8Array; filename?: string | undefined; contentType: string }>;
}

/** The engine's error thrown on this thread (a bad range) in the contract's words. */
export function inContractWords(error: unknown): unknown {
  if (!isSheetsError(error)) return error;
  return new GatewayError(sheetsErrorCode(error.code), error.message, { details: error.details });
}

/** The stored version a pool job works on. */
export const baseOf = (record: WorkbookRecord): Base => ({ workbookId: record.id, version: record.version, rootHash: record.manifestHash });

/**
 * Whose turn a spreadsheet job takes in the pool (docs/spreadsheets-engine.md "Fairness"): the
 * caller, or for a share link's anonymous readers the owner's links together; the caller's signal
 * drops the job if it is still waiting when the caller hangs up.
 */
export const jobOwner = (ctx: RequestContext | undefined, ownerId: string): JobOwner => ({
  principal: ctx && ctx.principal.userId !== null ? ownerId : `share:${ownerId}`,
  ...(ctx ? { signal: ctx.signal } : {}),
});

export const toSpreadsheet = shownAs(spreadsheetSchema, "spreadsheets");

/** A version as the history lists it; a source the contract does not name shows as "write". */
export const toVersion = (version: WorkbookVersionRecord): SpreadsheetVersion => ({
  ...fieldsOf(version, ["version", "name", "createdAt", "createdBy", "sizeBytes", "cells"]),
  source: spreadsheetVersionSchema.shape.source.safeParse(version.source).data ?? "write",
});

/** Spreadsheets as the one service lifecycle (../lifecycle.ts) sees them: who may (sheets:read, sheets:write), which ids, what a failed write answers. */
export const spreadsheetItems = serviceKind<WorkbookRecord, WorkbookVersionRecord, WorkbookChange>({
  noun: "Spreadsheet",
  scope: "sheets",
  share: "workbook",
  store: "workbooks",
  isId: isSpreadsheetId,
  cursors: ["s1.", "sv1."],
});
export const { owner: sheetsOwner, known: knownId, missing: spreadsheetNotFound, changed: changedWorkbook, precheck } = spreadsheetItems;
