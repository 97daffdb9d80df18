// Relay connections over cursor pages, with opaque per-edge cursors.
import { GatewayError } from "../src/core/errors.ts";
import type { Page } from "../src/core/paging.ts";

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** A page (src/core/paging.ts) and how each of its items is a cursor, for Relay edges. */
export interface ConnectionPage<T> extends Page<T> {
  cursorOf(item: T): string;
}

// Edges and page info compute their cursors only when a query selects them: most queries ask for
// nodes alone, and encoding a cursor for every edge of every page is wasted work then.
class Edge<T> {
  constructor(
    readonly node: T,
    /** The edge's index in its connection. */
    private readonly index: number,
    private readonly cursorAt: (node: T, index: number) => string,
  ) {}
  get cursor(): string {
    return this.cursorAt(this.node, this.index);
  }
}

class PageInfo {
  constructor(
    readonly hasNextPage: boolean,
    private readonly last: { cursor: string } | undefined,
  ) {}
  // Relay: endCursor is the last edge's cursor, also on the last page; null only with no edges.
  get endCursor(): string | null {
    return this.last?.cursor ?? null;
  }
}

/** For lists whose items carry their own position (documents: the id is the cursor). */
export function toConnection<T>(page: ConnectionPage<T>): Connection<T> {
  const cursorAt = (node: T) => page.cursorOf(node);
  const edges = page.items.map((node, i) => new Edge(node, i, cursorAt));
  return { edges, pageInfo: new PageInfo(page.nextCursor !== null, edges.at(-1)) };
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
  const cursorAt = (_node: T, index: number) => {
    const offset = start.o + index + 1;
    return offset >= page.data.length && page.nextCursor !== null
      ? encode({ c: page.nextCursor, o: 0 })
      : encode({ c: start.c, o: offset });
  };
  const edges = items.map((node, i) => new Edge(node, i, cursorAt));
  return { edges, pageInfo: new PageInfo(!exhaustedPage || page.nextCursor !== null, edges.at(-1)) };
}
