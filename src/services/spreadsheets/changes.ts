// One change to a workbook as the next version: the pool applies it to the model of the version
// it read, the store keeps it only if that version is still the current one. A caller that named
// no expectedVersion is not asking for a precondition, so a concurrent write that won the race is
// no error to it: the change is applied again on top of the new version (a few times at most).
import { createHash } from "node:crypto";
import type { RequestContext } from "../../core/context.ts";
import { GatewayError } from "../../core/errors.ts";
import { markReplayed } from "../../core/context.ts";
import type { WriteResult } from "../../contract/spreadsheets.ts";
import type { Change, Saved } from "../../spreadsheets/pool/index.ts";
import type { WriteResult as EngineWriteResult } from "../../spreadsheets/workbook/workbook.ts";
import type { WorkbookContent, WorkbookRecord } from "../../store/types.ts";
import { changeAsCaller, idempotentSince } from "../lifecycle.ts";
import { baseOf, changedWorkbook, jobOwner, precheck, toSpreadsheet, type SheetsDeps } from "./access.ts";

import { allBlobs } from "./stored.ts";

const ATTEMPTS = 5;

/** What a write, an append or an edit answers. */
const writeResultOf = (record: WorkbookRecord, result: EngineWriteResult, publicUrl: string): WriteResult => ({
  spreadsheet: toSpreadsheet(record, publicUrl),
  updatedRange: result.updatedRange,
  updatedCells: result.updatedCells,
  recalculatedCells: result.recalculatedCells,
  warnings: result.warnings,
});

/** What the store keeps of a saved version. */
export function contentOf(saved: Saved): WorkbookContent {
  return {
    manifestHash: saved.rootHash,
    blobs: saved.blobs,
    refs: saved.refs,
    sizeBytes: saved.sizeBytes,
    cells: saved.cells,
    sheets: saved.sheets,
  };
}

const fingerprintOf = (id: string, change: Change): string =>
  createHash("sha256").update(id).update("\0").update(JSON.stringify(change)).digest("hex");

/**
 * The first answer to an Idempotency-Key already used for this operation, if any. A key is the
 * caller's, not the workbook's: one first used to append to another spreadsheet is refused rather
 * than answered with that spreadsheet's result (which would tell the caller rows were added here).
 */
function sameWorkbook(id: string, key: string, response: WriteResult): WriteResult {
  if (response.spreadsheet.id === id) return response;
  throw new GatewayError(
    "BAD_USER_INPUT",
    `Idempotency-Key "${key.slice(0, 80)}" was used to append to another spreadsheet (${response.spreadsheet.id}) in the last 24 hours; send a new key for this append`,
    { details: { subject: "Idempotency-Key" } },
  );
}

async function replayOf(deps: SheetsDeps, ownerId: string, id: string, key: string | undefined): Promise<WriteResult | undefined> {
  if (key === undefined) return undefined;
  const notBefore = idempotentSince();
  const hit = await deps.store.findIdempotent(ownerId, key, notBefore, "sheets.append");
  return hit?.response ? sameWorkbook(id, key, hit.response as WriteResult) : undefined;
}

async function attempt(
  deps: SheetsDeps,
  ctx: RequestContext,
  ownerId: string,
  record: WorkbookRecord,
  change: Change,
  source: string,
  idempotencyKey: string | undefined,
): Promise<{ done: WriteResult } | { conflict: number }> {
  const token = deps.pool.token();
  const output = await deps.pool.run(
    { kind: "change", base: baseOf(record), change, token },
    (base) => allBlobs(deps.store, ownerId, base),
    jobOwner(ctx, ownerId),
  );
  if (output.kind !== "saved") throw new GatewayError("INTERNAL", "A spreadsheet change answered something else");
  const saved = output.saved;
  const claim = idempotencyKey
    ? {
        claim: {
          key: idempotencyKey,
          fingerprint: fingerprintOf(record.id, change),
          notBefore: idempotentSince(),
          operation: "sheets.append" as const,
        },
        response: (workbook: WorkbookRecord) => writeResultOf(workbook, saved.result, deps.publicUrl),
      }
    : undefined;
  const result = await changeAsCaller(deps.store.workbooks, ctx, {
    ownerId,
    id: record.id,
    // The version the pool changed: another one means another write came first.
    expectedVersion: record.version,
    content: contentOf(saved),
    source,
    ...(claim ? { idempotency: claim } : {}),
  });
  if (result.ok) {
    deps.pool.commit(record.id, token, result.record.version);
    return { done: writeResultOf(result.record, saved.result, deps.publicUrl) };
  }
  deps.pool.forget(record.id, token);
  if (result.reason === "replayed") {
    const first = sameWorkbook(record.id, idempotencyKey ?? "", result.response as WriteResult);
    markReplayed(ctx);
    return { done: first };
  }
  if (result.reason === "conflict") return { conflict: result.current };
  return { done: writeResultOf(changedWorkbook(result), saved.result, deps.publicUrl) };
}

export async function storeChange(
  deps: SheetsDeps,
  ctx: RequestContext,
  ownerId: string,
  id: string,
  input: { expectedVersion?: number | undefined; idempotencyKey?: string | undefined },
  change: Change,
  source: string,
): Promise<WriteResult> {
  const replay = await replayOf(deps, ownerId, id, input.idempotencyKey);
  if (replay) {
    markReplayed(ctx);
    return replay;
  }
  for (let i = 0; i < ATTEMPTS; i++) {
    const record = precheck(await deps.store.workbooks.get(ownerId, id), input.expectedVersion);
    const outcome = await attempt(deps, ctx, ownerId, record, change, source, input.idempotencyKey);
    if ("done" in outcome) return outcome.done;
    // A caller who named the version it expects gets the precondition's answer, not a retry.
    if (input.expectedVersion !== undefined) changedWorkbook({ ok: false, reason: "conflict", current: outcome.conflict });
  }
  throw new GatewayError("SERVICE_UNAVAILABLE", "The spreadsheet kept changing under this write; retry it", { retryAfter: 1 });
}
