// The per-request context, built once per request by one function, whatever the surface.
import type { Logger } from "./logger.ts";
import type { Principal } from "./principal.ts";

export interface RequestContext {
  requestId: string;
  principal: Principal;
  /** Aborted when the caller hangs up; passed down to renders and upstream calls. */
  signal: AbortSignal;
  log: Logger;
  /** Per-request memo (DataLoaders live here), created lazily by the modules that need it. */
  readonly memo: Map<symbol, unknown>;
  /** Characters of document text this request may read (REQUEST_READ_BUDGET_CHARS; ./read-budget.ts); its default when absent. */
  readonly readBudgetChars?: number;
  /** Spreadsheet cells this request may read (REQUEST_READ_BUDGET_CELLS; ./read-budget.ts); its default when absent. */
  readonly readBudgetCells?: number;
}

/** Returns the per-request value for `key`, creating it on first use. */
export function memoize<T>(ctx: RequestContext, key: symbol, create: () => T): T {
  let value = ctx.memo.get(key) as T | undefined;
  if (value === undefined) {
    value = create();
    ctx.memo.set(key, value);
  }
  return value;
}

const REPLAYED = Symbol("idempotent-replay");

/** The operation answered with what an earlier request with the same Idempotency-Key got (REST says so in a header). */
export const markReplayed = (ctx: RequestContext): void => {
  ctx.memo.set(REPLAYED, true);
};
export const wasReplayed = (ctx: RequestContext): boolean => ctx.memo.get(REPLAYED) === true;

const ANSWERED_VERSION = Symbol("answered-version");

/**
 * The version of the record an answer was read from, when the answer's body does not carry it
 * (a spreadsheet range, a computed formula): REST sends it as the ETag.
 */
export const markAnsweredVersion = (ctx: RequestContext, version: number): void => {
  ctx.memo.set(ANSWERED_VERSION, version);
};
export const answeredVersion = (ctx: RequestContext): number | undefined => {
  const version = ctx.memo.get(ANSWERED_VERSION);
  return typeof version === "number" ? version : undefined;
};
