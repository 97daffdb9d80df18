// SQL written once for both databases: statements with named placeholders (`:name`), run by each
// backend's executor (sqlite/executor.ts, postgres/executor.ts). A transaction is a generator of
// steps: SQLite drives it synchronously inside one better-sqlite3 transaction (so no other request
// interleaves, and reads stay synchronous underneath), PostgreSQL awaits each step on one client.
import type { Row } from "./rows.ts";

/** One step of a transaction: a statement (its rows come back), or a call given the backend's client K. */
export type Step<K = unknown> = { text: string; values: Record<string, unknown> } | { call: (client: K) => unknown };
export type Tx<T, K = unknown> = Generator<Step<K>, T, unknown>;

/** A statement's rows (none for a write without RETURNING). */
export function* query(text: string, values: Record<string, unknown> = {}): Tx<Row[]> {
  return (yield { text, values }) as Row[];
}

/** What `fn` returns (awaited on PostgreSQL), called with the backend's client in the transaction. */
export function* call<K, T>(fn: (client: K) => T | Promise<T>): Tx<T, K> {
  return (yield { call: fn }) as T;
}

/** Where the two databases' SQL differs. */
export interface Dialect {
  /** Locks a selected row for the rest of the transaction (PostgreSQL); SQLite's write transaction holds the database. */
  forUpdate: string;
  /** The same, passing over rows another transaction holds. */
  skipLocked: string;
  /** The position of a substring: `instr` or `strpos` (not LIKE: '%' and '_' are literal). */
  position: string;
}

/** What a backend runs SQL with; K is its client inside a transaction. */
export interface Executor<K = unknown> {
  dialect: Dialect;
  /** A statement outside any transaction; `name` marks a hot one (PostgreSQL prepares it once per connection). */
  all(text: string, values?: Record<string, unknown>, name?: string): Promise<Row[]>;
  /** How many rows a write outside any transaction changed. */
  run(text: string, values?: Record<string, unknown>): Promise<number>;
  /** The steps in one transaction (SQLite: immediate). */
  transaction<T>(steps: () => Tx<T, K>): Promise<T>;
}

/** Runs the steps, each through `step`; a throw ends them (the transaction rolls back). */
export function drive<T, K>(steps: Tx<T, K>, step: (step: Step<K>) => unknown): T {
  let next = steps.next();
  while (!next.done) next = steps.next(step(next.value));
  return next.value;
}

export async function driveAsync<T, K>(steps: Tx<T, K>, step: (step: Step<K>) => Promise<unknown>): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await step(next.value));
  return next.value;
}

/** Whether a value looked up holds NUL: no stored one does, and PostgreSQL text cannot (an error, not "no match"). */
export const hasNul = (...values: string[]): boolean => values.some((value) => value.includes("\u0000"));

/** `IN (:p0, :p1, …)` and its values, for a list of values (never empty). */
export function inList(prefix: string, values: readonly unknown[]): [string, Record<string, unknown>] {
  const names = values.map((_, i) => `${prefix}${i}`);
  return [`IN (${names.map((name) => `:${name}`).join(", ")})`, Object.fromEntries(names.map((name, i) => [name, values[i]]))];
}
