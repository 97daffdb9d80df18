// The characters of document text one request may read, whatever the surface and however many
// reads it makes (GraphQL aliases and lists, tRPC and MCP batches): REQUEST_READ_BUDGET_CHARS,
// 5,000,000 by default (docs/security.md "Read budget"). Over it, the read that crosses it and
// every later one fail with PAYLOAD_TOO_LARGE — the request is well formed, what it asks for is
// too much to read at once, and the same request with a smaller maxChars or fewer reads succeeds.
// GraphQL also prices text before running (src/graphql/cost.ts); this budget counts what is read.
import { memoize, type RequestContext } from "./context.ts";
import { GatewayError } from "./errors.ts";

export const DEFAULT_READ_BUDGET_CHARS = 5_000_000;

interface Budget {
  readonly limit: number;
  /** Characters read so far, charged by each read once it has its text (src/services/document-reads.ts). */
  used: number;
  /** What the reads in flight asked for (their maxChars): the most they can add to `used`. */
  reserved: number;
  inFlight: number;
  /**
   * Whether the request's reads may run side by side: not until one has read no more than it
   * asked for, and never once one has read more (a store that reads whole texts): reservations
   * then bound nothing, and reads run one at a time.
   */
  together: "unknown" | "yes" | "no";
  /** Reads waiting for the ones in flight to end, because what they ask for does not fit beside them. */
  waiting: (() => void)[];
}

const BUDGET = Symbol("read-budget");

const budgetOf = (ctx: RequestContext): Budget =>
  memoize(ctx, BUDGET, () => ({
    limit: ctx.readBudgetChars ?? DEFAULT_READ_BUDGET_CHARS,
    used: 0,
    reserved: 0,
    inFlight: 0,
    together: "unknown",
    waiting: [],
  }));

const overBudget = (limit: number): GatewayError =>
  new GatewayError(
    "PAYLOAD_TOO_LARGE",
    `One request may read at most ${limit} characters of document text (REQUEST_READ_BUDGET_CHARS); ask for fewer documents or versions, or a smaller maxChars`,
    { details: { limit } },
  );

/** Characters the request may still read: the most a read should ask the store for (plus one, to tell that a text is over). */
export function readLeft(ctx: RequestContext): number {
  const budget = budgetOf(ctx);
  return Math.max(0, budget.limit - budget.used);
}

/**
 * Counts `chars` read by a read that asked for `asked`. PAYLOAD_TOO_LARGE once the request is over
 * its budget; what was read counts even then, so that every later read is refused before it reads.
 */
export function chargeRead(ctx: RequestContext, chars: number, asked: number = chars): void {
  const budget = budgetOf(ctx);
  budget.used += chars;
  if (chars > asked) budget.together = "no";
  else if (budget.together === "unknown") budget.together = "yes";
  if (budget.used > budget.limit) throw overBudget(budget.limit);
}

/**
 * Reads of one request that run at once. With SQLite a read is synchronous: a GraphQL list of 100
 * texts would otherwise read them all in one turn of the event loop, and /healthz would wait.
 */
export const READS_AT_ONCE = 4;

/**
 * Runs one text read (a service call that reads one text, asking for at most `maxChars`, and
 * charges it) in its turn: refused before it reads once the budget is spent; at once, beside the
 * request's other reads, while there are fewer than READS_AT_ONCE, all they asked for fits what is
 * left, and the request's reads have been seen to read no more than they ask for (its first read
 * runs alone); otherwise once the reads in flight have ended, in a later turn of the event loop.
 * So concurrent reads (a tRPC batch, a GraphQL list) never read much past the budget together,
 * hold the event loop for at most READS_AT_ONCE reads at a time, and still run side by side (the
 * store batches them).
 */
export async function readInTurn<T>(ctx: RequestContext, maxChars: number, read: () => Promise<T>): Promise<T> {
  const budget = budgetOf(ctx);
  const fits = () =>
    budget.inFlight === 0 ||
    (budget.together === "yes" && budget.inFlight < READS_AT_ONCE && budget.used + budget.reserved + maxChars <= budget.limit);
  while (!fits()) await new Promise<void>((resolve) => budget.waiting.push(resolve));
  if (budget.used >= budget.limit) throw overBudget(budget.limit);
  budget.inFlight++;
  budget.reserved += maxChars;
  try {
    return await read();
  } finally {
    budget.inFlight--;
    budget.reserved -= maxChars;
    // Woken in the next turn: other requests (and /healthz) are served between a request's rounds of reads.
    const waiting = budget.waiting.splice(0);
    if (waiting.length > 0) setImmediate(() => waiting.forEach((wake) => wake()));
  }
}

// Spreadsheet cells: REQUEST_READ_BUDGET_CELLS (default 300,000, three reads of the most maxCells
// allows) across one request's range reads (a tRPC or MCP batch, GraphQL aliases), so that 40 reads
// of 100,000 cells do not answer 37 MB. A read takes what is left of the budget as its maxCells: cut
// short (truncated, with its cursor) when less than it asked for is left, refused with
// PAYLOAD_TOO_LARGE once nothing is. The characters of text cells count against the text budget too.

export const DEFAULT_READ_BUDGET_CELLS = 300_000;

const CELLS = Symbol("read-budget-cells");

const cellBudgetOf = (ctx: RequestContext): { limit: number; taken: number } =>
  memoize(ctx, CELLS, () => ({ limit: ctx.readBudgetCells ?? DEFAULT_READ_BUDGET_CELLS, taken: 0 }));

/**
 * Reserves up to `maxCells` cells of the request's budget for one read, before it reads: the
 * maxCells it may use (less than asked when little is left). PAYLOAD_TOO_LARGE once none is left.
 */
export function takeCells(ctx: RequestContext, maxCells: number): number {
  const budget = cellBudgetOf(ctx);
  const left = budget.limit - budget.taken;
  if (left <= 0) {
    throw new GatewayError(
      "PAYLOAD_TOO_LARGE",
      `One request may read at most ${budget.limit} spreadsheet cells (REQUEST_READ_BUDGET_CELLS); read fewer ranges at once, or a smaller maxCells`,
      { details: { limit: budget.limit } },
    );
  }
  const taken = Math.min(maxCells, left);
  budget.taken += taken;
  return taken;
}

/** Gives back what a read reserved and did not read (a range smaller than its maxCells). */
export function returnCells(ctx: RequestContext, unused: number): void {
  if (unused > 0) cellBudgetOf(ctx).taken -= unused;
}

/**
 * Counts the characters of the text cells a range read answered against the request's text budget
 * (REQUEST_READ_BUDGET_CHARS, shared with document text): PAYLOAD_TOO_LARGE once over it, so that
 * 300,000 cells of 32,767 characters each are not one answer.
 */
export function chargeCellText(ctx: RequestContext, chars: number): void {
  const budget = budgetOf(ctx);
  budget.used += chars;
  if (budget.used > budget.limit) {
    throw new GatewayError(
      "PAYLOAD_TOO_LARGE",
      `One request may read at most ${budget.limit} characters of text (REQUEST_READ_BUDGET_CHARS); read fewer ranges at once, or a smaller maxCells`,
      { details: { limit: budget.limit } },
    );
  }
}
