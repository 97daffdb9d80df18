// Keyset paging with opaque cursors: {"data":[…],"nextCursor":string|null}, `cursor` and `limit` params.
import { HttpError } from "./errors.ts";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

type Key = [string, string];

/** `limit`: default 20, integer ≥ 1; values above 100 are clamped to 100. */
export function parseLimit(raw: string | null): number {
  if (raw === null || raw === "") return DEFAULT_LIMIT;
  if (!/^\d+$/.test(raw)) throw new HttpError(400, "limit must be a positive integer");
  const n = Number(raw);
  if (n < 1) throw new HttpError(400, "limit must be at least 1");
  return Math.min(n, MAX_LIMIT);
}

function compareKeys(a: Key, b: Key): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

function encodeCursor(filter: string, key: Key): string {
  return Buffer.from(JSON.stringify({ v: 1, f: filter, k: key })).toString("base64url");
}

function decodeCursor(cursor: string, filter: string): Key {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new HttpError(400, "invalid cursor");
  }
  const c = parsed as { v?: unknown; f?: unknown; k?: unknown };
  if (!c || c.v !== 1 || !Array.isArray(c.k) || c.k.length !== 2 || typeof c.k[0] !== "string" || typeof c.k[1] !== "string") {
    throw new HttpError(400, "invalid cursor");
  }
  if (c.f !== filter) throw new HttpError(400, "cursor does not belong to this query");
  return c.k as Key;
}

/**
 * Pages `items` ordered by (sortKey, id) in `direction`. The cursor holds the last item's key, so
 * items added or removed between pages neither repeat nor shift the rest. `filter` ties a cursor to
 * the query (folder, q, …) that produced it.
 */
export function paginate<T extends { id: string }>(
  items: readonly T[],
  options: { sortKey: (item: T) => string; direction: "asc" | "desc"; cursor: string | null; limit: number; filter: string },
): Page<T> {
  const sign = options.direction === "asc" ? 1 : -1;
  const keyOf = (item: T): Key => [options.sortKey(item), item.id];
  const sorted = [...items].sort((a, b) => sign * compareKeys(keyOf(a), keyOf(b)));
  let start = 0;
  if (options.cursor) {
    const after = decodeCursor(options.cursor, options.filter);
    start = sorted.findIndex((item) => sign * compareKeys(keyOf(item), after) > 0);
    if (start < 0) start = sorted.length;
  }
  const data = sorted.slice(start, start + options.limit);
  const last = data[data.length - 1];
  const more = start + options.limit < sorted.length;
  return { data, nextCursor: more && last ? encodeCursor(options.filter, keyOf(last)) : null };
}
