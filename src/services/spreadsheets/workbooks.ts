// Spreadsheets as records: create (from values, CSV, markdown, an upload or a drive file),
// describe and download (the list, the trash, renames and share links are the lifecycle's).
// Building a workbook and writing its .xlsx run in the spreadsheets pool; the store keeps what the
// pool saved.
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { monotonicFactory } from "ulid";
import type { RequestContext } from "../../core/context.ts";
import { markReplayed } from "../../core/context.ts";
import { GatewayError } from "../../core/errors.ts";
import type { JsonBody } from "../../core/json-body.ts";
import type { UploadedFile, StoredDownload } from "../../contract/files.ts";
import type { InputMode, JsonCellInput } from "../../spreadsheets/workbook/values.ts";
import type { Job, JobOwner, Saved } from "../../spreadsheets/pool/index.ts";
import type { SpreadsheetWithWarnings } from "../../contract/spreadsheets.ts";
import type { WorkbookRecord } from "../../store/types.ts";
import {
  inContractWords,
  jobOwner,
  knownId,
  precheck,
  sheetsOwner,
  spreadsheetNotFound,
  toSpreadsheet,
  type SheetsDeps,
} from "./access.ts";
import { actorOf, idempotentSince } from "../lifecycle.ts";
import { contentOf } from "./changes.ts";
import { createFingerprint, sheetSources } from "./create-body.ts";
import { allBlobs } from "./stored.ts";

export const SHEETS_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const newWorkbookId = (() => {
  const ulid = monotonicFactory();
  return () => `wb_${ulid()}`;
})();

/** The record with the warnings saved with its version (describe, an import's answer replayed). */
async function withWarnings(deps: SheetsDeps, record: WorkbookRecord): Promise<SpreadsheetWithWarnings> {
  return { ...toSpreadsheet(record, deps.publicUrl), warnings: await deps.warnings.get(deps.store, record.ownerId, record.manifestHash) };
}

export interface NewSheetInput {
  name: string;
  values?: JsonCellInput[][] | undefined;
  csv?: string | undefined;
  markdown?: string | undefined;
}

/** .xlsx (a zip, or an encrypted Office file the reader refuses by name) or CSV, by the bytes and then the name. */
function formatOf(bytes: Uint8Array, filename: string | undefined, contentType: string | undefined): "xlsx" | "csv" {
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  const ole = bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
  if (zip || ole || /\.xls[xmb]?$/i.test(filename ?? "") || contentType?.includes("spreadsheetml")) return "xlsx";
  return "csv";
}

const baseName = (filename: string | undefined) => filename?.replace(/\.(xlsx|xlsm|xls|csv|txt)$/i, "").trim() || undefined;

async function runBuild(deps: SheetsDeps, ctx: RequestContext, job: Job): Promise<Saved> {
  const output = await deps.pool
    .run(job, undefined, jobOwner(ctx, sheetsOwner(ctx, "write")))
    .catch((error: unknown) => Promise.reject(inContractWords(error)));
  if (output.kind !== "saved") throw new GatewayError("INTERNAL", "A spreadsheet build answered something else");
  return output.saved;
}

/**
 * Creates the workbook from what `build` saves, or answers with what an earlier request with the
 * same key created; either answer carries the workbook's warnings (an import's, a formula's).
 */
async function createOnce(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { name: string; idempotencyKey?: string | undefined },
  fingerprint: () => string,
  source: "create" | "import",
  build: () => Promise<Saved>,
): Promise<SpreadsheetWithWarnings> {
  const ownerId = sheetsOwner(ctx, "write");
  const notBefore = idempotentSince();
  const claim = input.idempotencyKey
    ? { key: input.idempotencyKey, fingerprint: fingerprint(), notBefore, operation: "sheets.create" as const }
    : undefined;
  if (claim) {
    const hit = await deps.store.findIdempotent(ownerId, claim.key, notBefore, "sheets.create");
    if (hit?.response) {
      markReplayed(ctx);
      // The store keeps the record it created as the first answer.
      return withWarnings(deps, hit.response as WorkbookRecord);
    }
  }
  const saved = await build();
  if (ctx.signal.aborted) throw new GatewayError("BAD_USER_INPUT", "The request was cancelled");
  const now = new Date().toISOString();
  const created = await deps.store.workbooks.create(
    { id: newWorkbookId(), ownerId, name: input.name, createdAt: now, createdBy: actorOf(ctx), source, ...contentOf(saved) },
    claim,
  );
  if (created.replayed) {
    markReplayed(ctx);
    return withWarnings(deps, created.record);
  }
  return { ...toSpreadsheet(created.record, deps.publicUrl), warnings: saved.warnings };
}

export async function createSpreadsheet(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: {
    name: string;
    sheets?: NewSheetInput[] | undefined;
    input?: InputMode | undefined;
    driveFileId?: string | undefined;
    idempotencyKey?: string | undefined;
  },
): Promise<SpreadsheetWithWarnings> {
  const mode = input.input ?? "parse";
  const fingerprint = () => createFingerprint(input.name, input.sheets, mode, input.driveFileId);
  if (input.driveFileId !== undefined) {
    const fileId = input.driveFileId;
    return createOnce(deps, ctx, input, fingerprint, "import", async () => {
      const file = await deps.driveFile(ctx, fileId, SHEETS_UPLOAD_LIMIT_BYTES);
      const format = formatOf(file.bytes, file.filename, file.contentType);
      return runBuild(deps, ctx, { kind: "import", bytes: file.bytes, format, sheetName: "Sheet1", input: mode });
    });
  }
  const sheets = sheetSources(input.sheets);
  return createOnce(deps, ctx, input, fingerprint, "create", () => runBuild(deps, ctx, { kind: "create", sheets, input: mode }));
}

/**
 * A create from a large JSON body's bytes: a spreadsheets worker parses, validates and builds it
 * (./create-body.ts), in the caller's turn of the pool. The build comes before the idempotency
 * lookup here: a replayed request answers as before, having paid for one build it throws away.
 */
export async function createSpreadsheetFromJson(deps: SheetsDeps, ctx: RequestContext, body: JsonBody): Promise<SpreadsheetWithWarnings> {
  const output = await deps.pool
    .run({ kind: "createJson", bytes: body.bytes, fixed: body.fixed, moveBytes: true }, undefined, jobOwner(ctx, sheetsOwner(ctx, "write")))
    .catch((error: unknown) => Promise.reject(inContractWords(error)));
  if (output.kind !== "created") throw new GatewayError("INTERNAL", "A spreadsheet build answered something else");
  const { input, fingerprint, saved } = output;
  if (!saved) return createSpreadsheet(deps, ctx, input);
  return createOnce(
    deps,
    ctx,
    input,
    () => fingerprint,
    "create",
    () => Promise.resolve(saved),
  );
}

export async function importSpreadsheet(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: {
    file?: UploadedFile | undefined;
    driveFileId?: string | undefined;
    name?: string | undefined;
    input?: InputMode | undefined;
    idempotencyKey?: string | undefined;
  },
): Promise<SpreadsheetWithWarnings> {
  sheetsOwner(ctx, "write");
  if (input.driveFileId !== undefined) {
    if (!input.name) throw new GatewayError("BAD_USER_INPUT", "name: required with driveFileId");
    return createSpreadsheet(deps, ctx, {
      name: input.name,
      driveFileId: input.driveFileId,
      input: input.input,
      idempotencyKey: input.idempotencyKey,
    });
  }
  const file = input.file as UploadedFile;
  if (file.size > SHEETS_UPLOAD_LIMIT_BYTES) {
    throw new GatewayError("PAYLOAD_TOO_LARGE", `The file is over the ${SHEETS_UPLOAD_LIMIT_BYTES}-byte limit`, {
      details: { limit: SHEETS_UPLOAD_LIMIT_BYTES },
    });
  }
  const name = input.name ?? baseName(file.name);
  if (!name) throw new GatewayError("BAD_USER_INPUT", "name: required when the file has no name");
  const job = { sheetName: "Sheet1", input: input.input ?? "parse" } as const;
  if (file.path !== undefined) {
    // A spooled upload: the worker reads its temp file (there until this request is over), so the
    // event loop holds none of it (a 1M-cell CSV's copies were ~25 MB of RSS through its import).
    const { path } = file;
    const format = formatOf(await headOf(path), file.name, file.type);
    const hash = input.idempotencyKey === undefined ? "" : await fileFingerprint(name, file);
    return createOnce(
      deps,
      ctx,
      { name, idempotencyKey: input.idempotencyKey },
      () => hash,
      "import",
      () => runBuild(deps, ctx, { kind: "import", path, format, ...job }),
    );
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = formatOf(bytes, file.name, file.type);
  const fingerprint = () => createHash("sha256").update(name).update("\0").update(bytes).digest("hex");
  return createOnce(deps, ctx, { name, idempotencyKey: input.idempotencyKey }, fingerprint, "import", () =>
    // The upload's bytes are this request's alone (the fingerprint is taken before the build): moved to the worker.
    runBuild(deps, ctx, { kind: "import", bytes, format, ...job, moveBytes: true }),
  );
}

/** The first bytes of a file (enough for formatOf). */
async function headOf(path: string): Promise<Uint8Array> {
  const handle = await open(path);
  try {
    const { bytesRead, buffer } = await handle.read(new Uint8Array(8), 0, 8, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** An upload's fingerprint (the same as from its bytes in memory), read as a stream. */
async function fileFingerprint(name: string, file: UploadedFile): Promise<string> {
  const hash = createHash("sha256").update(name).update("\0");
  for await (const chunk of file.stream()) hash.update(chunk);
  return hash.digest("hex");
}

/** The record with the spreadsheet's warnings (describe). */
export async function getSpreadsheet(deps: SheetsDeps, ctx: RequestContext, input: { id: string }): Promise<SpreadsheetWithWarnings> {
  const ownerId = sheetsOwner(ctx, "read");
  const record = await deps.store.workbooks.get(ownerId, input.id);
  if (!record) throw spreadsheetNotFound();
  return withWarnings(deps, record);
}

/** A version's .xlsx or CSV, written by the pool once and kept (by its manifest) for the next download. */
export async function downloadRecord(
  deps: SheetsDeps,
  ownerId: string,
  at: { id: string; version: number; manifestHash: string; name: string },
  format: "xlsx" | "csv",
  sheet: string | undefined,
  owner: JobOwner,
): Promise<StoredDownload> {
  const base = { workbookId: at.id, version: at.version, rootHash: at.manifestHash };
  const key = `${at.manifestHash}:${format}:${sheet ?? ""}:${at.name}`;
  let bytes = deps.rendered.get(key);
  if (!bytes) {
    const job: Job = { kind: "render", base, format, ...(sheet === undefined ? {} : { sheet }), title: at.name };
    const output = await deps.pool
      .run(job, (b) => allBlobs(deps.store, ownerId, b), owner)
      .catch((error: unknown) => Promise.reject(inContractWords(error)));
    if (output.kind !== "bytes") throw new GatewayError("INTERNAL", "A spreadsheet download answered something else");
    bytes = output.bytes;
    deps.rendered.set(key, bytes);
  }
  return format === "xlsx"
    ? { name: at.name, extension: "xlsx", contentType: XLSX_MEDIA_TYPE, bytes, version: at.version }
    : { name: at.name, extension: "csv", contentType: "text/csv; charset=utf-8", bytes, version: at.version };
}

export async function downloadSpreadsheet(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; format: "xlsx" | "csv"; sheet?: string | undefined },
): Promise<StoredDownload> {
  const ownerId = sheetsOwner(ctx, "read");
  const record = precheck(await deps.store.workbooks.get(ownerId, knownId(input.id)), undefined);
  return downloadRecord(deps, ownerId, record, input.format, input.sheet, jobOwner(ctx, ownerId));
}
