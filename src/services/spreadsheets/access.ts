// What every spreadsheets operation shares: who may read or write, the public shape of a record,
// cursors, and the errors a conditional write ends in.
import { createHash } from "node:crypto";
import type { RequestContext } from "../../core/context.ts";
import { GatewayError } from "../../core/errors.ts";
import { cursorCodec } from "../../core/paging.ts";
import {
  isSpreadsheetId,
  type Spreadsheet,
  type SpreadsheetVersion,
  type SpreadsheetWithWarnings,
  type Worksheet,
  type WriteResult,
} from "../../contract/spreadsheets.ts";
import { isSheetsError } from "../../spreadsheets/cells/errors.ts";
import type { Base, JobOwner, SheetsPool } from "../../spreadsheets/pool/index.ts";
import { sheetsErrorCode } from "../../spreadsheets/pool/errors.ts";
import type { WriteResult as EngineWriteResult } from "../../spreadsheets/workbook/workbook.ts";
import type { Store, WorkbookChange, WorkbookRecord, WorkbookVersionRecord } from "../../store/types.ts";
import { fieldsOf, serviceKind, shownAs } from "../lifecycle.ts";
import type { ManifestCache, RenderedCache } from "./stored.ts";
import type { WarningsCache } from "./warnings.ts";

/** What the spreadsheets operations work with. */
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

/** What a write, an append or an edit answers. */
export const writeResultOf = (record: WorkbookRecord, result: EngineWriteResult, publicUrl: string): WriteResult => ({
  spreadsheet: toSpreadsheet(record, publicUrl),
  updatedRange: result.updatedRange,
  updatedCells: result.updatedCells,
  recalculatedCells: result.recalculatedCells,
  warnings: result.warnings,
});

/** The record with the warnings saved with its version (describe, an import's answer replayed). */
export async function withWarnings(deps: SheetsDeps, record: WorkbookRecord): Promise<SpreadsheetWithWarnings> {
  return { ...toSpreadsheet(record, deps.publicUrl), warnings: await deps.warnings.get(deps.store, record.ownerId, record.manifestHash) };
}

export const toSpreadsheet = (record: WorkbookRecord, base = ""): Spreadsheet =>
  shownAs(
    record as WorkbookRecord & { sheets: Worksheet[] },
    ["id", "name", "version", "createdAt", "updatedAt", "sizeBytes", "cells", "sheets"],
    "spreadsheets",
    base,
  );

const SOURCES = new Set(["create", "import", "write", "append", "edit", "rename", "restore"]);

export const toVersion = (version: WorkbookVersionRecord): SpreadsheetVersion => ({
  ...fieldsOf(version, ["version", "name", "createdAt", "createdBy", "sizeBytes", "cells"]),
  source: (SOURCES.has(version.source) ? version.source : "write") as SpreadsheetVersion["source"],
});

/**
 * A range read that goes on: the cells already given (row by row), and a digest of the spreadsheet and the range
 * as the caller wrote it, so that a cursor sent with another range (or spreadsheet) is refused
 * rather than read as an offset into it. The caller sends the range again with the cursor.
 */
interface RangePosition {
  offset: number;
  of: string;
}
// r3: the offset counts cells (a page may end inside a row); r2's counted rows and is not read.
const rangeCursorCodec = cursorCodec<RangePosition>(
  "r3.",
  (position) => `${position.offset}.${position.of}`,
  (text) => {
    const match = /^(\d{1,11})\.([\w-]{11})$/.exec(text);
    return match ? { offset: Number(match[1]), of: match[2]! } : undefined;
  },
);
const rangeDigest = (id: string, range: string) => createHash("sha256").update(`${id}\n${range}`).digest("base64url").slice(0, 11);
export const rangeCursors = {
  encode: (id: string, range: string, offset: number): string => rangeCursorCodec.encode({ offset, of: rangeDigest(id, range) }),
  /** The cells already given; BAD_USER_INPUT for a cursor of another range or spreadsheet. */
  decode(cursor: string, id: string, range: string): number {
    const position = rangeCursorCodec.decode(cursor);
    if (position.of !== rangeDigest(id, range)) {
      throw new GatewayError(
        "BAD_USER_INPUT",
        `cursor: it continues a read of another range or spreadsheet, not ${range}; send it with the same id and range as the read that gave it`,
        { details: { field: "cursor", range } },
      );
    }
    return position.offset;
  },
};

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
