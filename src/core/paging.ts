// Paging, one concept on every list (docs/api.md): a page is its items and the cursor of the next
// page (null on the last), sizes are bounded in one place, and cursors this API issues come from
// one codec (a versioned prefix + the position), so a cursor from elsewhere is BAD_USER_INPUT.
// Product lists pass the products' own opaque cursors through unchanged.
import { GatewayError } from "./errors.ts";

/** The most items one page may hold, on every list of every surface. */
export const MAX_PAGE_SIZE = 100;
/** A page's size when the caller does not say (lists the gateway pages itself). */
export const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` (GraphQL: `after`) for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A page of `limit` items from `limit + 1` rows (the extra row only says whether more exist). */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

export interface CursorCodec<P> {
  encode(position: P): string;
  /** `field` is the name the caller gave the cursor (REST/tRPC `cursor`, GraphQL `after`). */
  decode(cursor: string, field?: string): P;
}

/**
 * A cursor codec: `prefix` + the position as base64url text. `parse` turns the text back into a
 * position, or undefined when it is not one this list issues.
 */
/** A list's position as the last entry's id, any id `isId` accepts. */
export const idCursors = (prefix: string, isId: (id: string) => boolean): CursorCodec<string> =>
  cursorCodec(
    prefix,
    (id) => id,
    (text) => (isId(text) ? text : undefined),
  );

/** A version list's position: the last version's number. */
export const versionCursors = (prefix: string): CursorCodec<number> =>
  cursorCodec(prefix, String, (text) => {
    const version = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(version) ? version : undefined;
  });

export function cursorCodec<P>(prefix: string, format: (position: P) => string, parse: (text: string) => P | undefined): CursorCodec<P> {
  return {
    encode: (position) => prefix + Buffer.from(format(position)).toString("base64url"),
    decode(cursor, field = "cursor") {
      const position = cursor.startsWith(prefix) ? parse(Buffer.from(cursor.slice(prefix.length), "base64url").toString()) : undefined;
      if (position === undefined) throw new GatewayError("BAD_USER_INPUT", `${field}: not a cursor this API issued`);
      return position;
    },
  };
}
