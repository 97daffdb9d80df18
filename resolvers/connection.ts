// Relay connections over cursor pages, with opaque per-edge cursors.
import { GatewayError } from "../src/core/errors.ts";

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export interface Page<T> {
  items: T[];
  cursorOf(item: T): string;
  nextCursor: string | null;
}

/** For lists whose items carry their own position (documents: the id is the cursor). */
export function toConnection<T>(page: Page<T>): Connection<T> {
  const edges = page.items.map((node) => ({ cursor: page.cursorOf(node), node }));
  // Relay: endCursor is the last edge's cursor, also on the last page; null only with no edges.
  return { edges, pageInfo: { hasNextPage: page.nextCursor !== null, endCursor: edges.at(-1)?.cursor ?? null } };
}

// Upstream lists only hand out a cursor per page. An edge's cursor is therefore "the page that
// started at upstream cursor c, after its first o items", so paging may resume from any edge.
interface Position {
  c: string | null;
  o: number;
}

const PREFIX = "u1.";
const encode = (p: Position) => PREFIX + Buffer.from(JSON.stringify(p)).toString("base64url");

function decode(cursor: string): Position {
  try {
    if (!cursor.startsWith(PREFIX)) throw new Error("prefix");
    const p = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), "base64url").toString()) as Position;
    if ((p.c !== null && typeof p.c !== "string") || !Number.isInteger(p.o) || p.o < 0 || p.o > 100) throw new Error("shape");
    return p;
  } catch {
    throw new GatewayError("BAD_USER_INPUT", "after: not a cursor this API issued");
  }
}

export const DEFAULT_FIRST = 20;
const UPSTREAM_MAX = 100;

/** `first` in GraphQL's own words (the services would name their `limit`). */
export function checkFirst(first: number): number {
  if (!Number.isInteger(first) || first < 1 || first > UPSTREAM_MAX) {
    throw new GatewayError("BAD_USER_INPUT", `first: must be between 1 and ${UPSTREAM_MAX}`);
  }
  return first;
}

/**
 * Runs one upstream page for (first, after) and shapes it as a connection.
 * `fetchPage(cursor, limit)` is the service call.
 */
export async function upstreamConnection<T>(
  args: { first?: number | null; after?: string | null },
  fetchPage: (cursor: string | undefined, limit: number) => Promise<{ data: T[]; nextCursor: string | null }>,
): Promise<Connection<T>> {
  const first = checkFirst(args.first ?? DEFAULT_FIRST);
  const start: Position = args.after ? decode(args.after) : { c: null, o: 0 };
  const limit = Math.min(UPSTREAM_MAX, start.o + first);
  const page = await fetchPage(start.c ?? undefined, limit);
  const items = page.data.slice(start.o, start.o + first);
  const consumed = start.o + items.length;
  const exhaustedPage = consumed >= page.data.length;
  const edges = items.map((node, i) => {
    const offset = start.o + i + 1;
    const cursor =
      offset >= page.data.length && page.nextCursor !== null
        ? encode({ c: page.nextCursor, o: 0 })
        : encode({ c: start.c, o: offset });
    return { cursor, node };
  });
  return {
    edges,
    pageInfo: {
      hasNextPage: !exhaustedPage || page.nextCursor !== null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
