// One lifecycle for every kind of stored item in the service layer (documents, spreadsheets, and
// whatever kind comes next): who may read or change it, lists and the trash with their cursors,
// trash, restore and purge, share links, the version list and records, and the errors a conditional write
// ends in. A kind supplies its names, its id and cursor formats, and which store methods hold it;
// documents and spreadsheets keep only what differs (content, render, extraction).
import type { z } from "zod";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import type { RequestContext } from "../core/context.ts";
import { GatewayError, notFound } from "../core/errors.ts";
import { idCursors, pageOf, versionCursors } from "../core/paging.ts";
import type { DocumentShare } from "../contract/documents.ts";
import {
  foldName,
  type ItemChange,
  type ItemRecord,
  type ItemStore,
  type ListQuery,
  type Outcome,
  type ShareKind,
  type Store,
} from "../store/types.ts";
import { isShareId, linkNotFound, newShare, publicShare } from "./share-links.ts";

/** The oldest record an idempotency key still answers from, as of `now`: a key is kept 24 hours (docs/api.md). */
export const idempotentSince = (now = Date.now()): string => new Date(now - 24 * 60 * 60 * 1000).toISOString();

/** Who made a change, as a version lists it: the user, without the tenant. */
export const actorOf = (ctx: RequestContext): string => ctx.principal.userId ?? "";

/** A change to a live item, made by the caller now. */
export function changeAsCaller<R, X>(items: { change(x: X): Promise<Outcome<R>> }, ctx: RequestContext, change: Omit<X, "actorId" | "at">) {
  return items.change({ ...change, actorId: actorOf(ctx), at: new Date().toISOString() } as X);
}

export type Page = { query?: string | undefined; limit: number; cursor?: string | undefined };
type Ref = { id: string };

/** A page's store query: one more than the page (to tell whether another follows), the name folded, the cursor's id. */
export const listQuery = (ownerId: string, input: Page, decode: (cursor: string) => string): ListQuery => ({
  ownerId,
  limit: input.limit + 1,
  ...(input.query ? { nameContains: foldName(input.query) } : {}),
  ...(input.cursor ? { beforeId: decode(input.cursor) } : {}),
});

/** The fields named, in their order (the order an answer lists them in). */
export const fieldsOf = <R, K extends keyof R>(record: R, fields: readonly K[]): Pick<R, K> =>
  Object.fromEntries(fields.map((field) => [field, record[field]])) as Pick<R, K>;

/** Records as a contract schema shows them: its fields in its order, the links under `base` (PUBLIC_URL, or "": paths, as docs/api.md shows them). */
export function shownAs<S extends z.ZodObject>(schema: S, path: string) {
  const fields = Object.keys(schema.shape).filter((field) => field !== "url" && field !== "downloadUrl");
  return (record: { id: string } & Record<Exclude<keyof z.output<S>, "url" | "downloadUrl">, unknown>, base = ""): z.output<S> => {
    const url = `${base}/api/v1/${path}/${record.id}`;
    return { ...fieldsOf(record as Record<string, unknown>, fields), url, downloadUrl: `${url}/content` } as z.output<S>;
  };
}

type Bound<D, F> = { [K in keyof F]: F[K] extends (deps: D, ...args: infer A) => infer T ? (...args: A) => T : never };
/** A kind's own operations, each a `(deps, ctx, input…)` function, as its service's `(ctx, input…)` methods. */
export const withDeps = <D, F extends Record<string, (deps: D, ...args: never[]) => unknown>>(deps: D, operations: F): Bound<D, F> =>
  Object.fromEntries(Object.entries(operations).map(([name, run]) => [name, (...args: never[]) => run(deps, ...args)])) as Bound<D, F>;

/** A document's or a spreadsheet's id (the lists across kinds). */
export const isItemId = (id: string): boolean => /^(doc|wb)_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);

/** A kind as the services name it, and where the store keeps it. */
interface KindSpec {
  /** What NOT_FOUND and PRECONDITION_FAILED name (its log field, `documentId`…, too). */
  noun: "Document" | "Spreadsheet";
  /** The scopes' prefix: docs:read, sheets:write… */
  scope: "docs" | "sheets";
  share: ShareKind;
  store: "documents" | "workbooks";
  isId(id: string): boolean;
  /** The prefixes of the list's cursors (the last item's id) and the version list's (the last version's number). */
  cursors: readonly [list: string, versions: string];
}

/** The kind, and the rules every operation on it follows, store aside: who may, which ids, what a failed write answers. */
export function serviceKind<R extends ItemRecord, V, X extends ItemChange<unknown, R>>(spec: KindSpec) {
  /** The owner whose items the caller reads or changes, with the kind's scope. */
  const owner = (ctx: RequestContext, access: "read" | "write"): string => {
    const ownerId = requireOwner(ctx.principal);
    requireScope(ctx.principal, `${spec.scope}:${access}`);
    return ownerId;
  };
  const missing = () => notFound(spec.noun);
  /** The id, or NOT_FOUND for one this kind never issues (no store lookup for it). */
  const known = (id: string): string => {
    if (!spec.isId(id)) throw missing();
    return id;
  };
  /** A conditional write's outcome as the caller sees it. */
  const changed = (result: Outcome<R>): R => {
    if (result.ok) return result.record;
    if (result.reason === "not_found") throw missing();
    if (result.reason === "replayed") throw new GatewayError("INTERNAL", "A replayed change reached changed()");
    const message = `The ${spec.noun.toLowerCase()} is at version ${result.current}, not the expected one; nothing was written`;
    throw new GatewayError("PRECONDITION_FAILED", message, { details: { currentVersion: result.current } });
  };
  /** Fails fast, before any work, when the item is missing or already past the expected version. */
  const precheck = (current: R | null, expectedVersion: number | undefined): R => {
    if (!current) throw missing();
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      return changed({ ok: false, reason: "conflict", current: current.version });
    }
    return current;
  };
  const items = (store: Store) => store[spec.store] as unknown as ItemStore<R, V, never, X>;
  /** The next version of a live item, written as the caller, now; a stale expectedVersion is 412 and writes nothing. */
  const write = async (store: Store, ctx: RequestContext, change: Omit<X, "actorId" | "at">): Promise<R> =>
    changed(await changeAsCaller(items(store), ctx, change));
  return {
    ...spec,
    cursors: idCursors(spec.cursors[0], spec.isId),
    versionCursors: versionCursors(spec.cursors[1]),
    ...{ items, owner, known, changed, precheck, missing, write },
  };
}
type ServiceKind<R extends ItemRecord, V, X extends ItemChange<unknown, R> = never> = ReturnType<typeof serviceKind<R, V, X>>;

/**
 * The operations every kind's service offers as they are: records shown through `record` (in the
 * trash with deletedAt), lists as `{ [key]: […], nextCursor }`, versions through `version`; a kind
 * supplies only which content restoring a version writes again.
 */
export function serviceLifecycle<R extends ItemRecord, V, X extends ItemChange<unknown, R>, S, T, L extends string>(
  kind: ServiceKind<R, V, X>,
  deps: { store: Store; publicUrl: string },
  own: {
    record: (record: R) => S;
    version: (v: V) => T;
    key: L;
    /** Version n's content, null when it is not kept (the kind may fail first: a missing item, a stale expectedVersion). */
    versionContent(ownerId: string, id: string, version: number, expectedVersion: number | undefined): Promise<X["content"] | null>;
  },
) {
  const items = kind.items(deps.store);
  const { owner, known, changed, precheck, missing } = kind;
  /** The live item of the caller's, or NOT_FOUND. */
  const live = async (ownerId: string, id: string): Promise<R> => precheck(await items.get(ownerId, known(id)), undefined);
  const noun = kind.noun.toLowerCase();
  const log = (ctx: RequestContext, id: string, message: string, facts: object = {}) =>
    ctx.log.info({ [`${noun}Id`]: id, ...facts }, message);
  const write = (ctx: RequestContext, change: Omit<ItemChange<X["content"], R>, "actorId" | "at">) =>
    kind.write(deps.store, ctx, change as Omit<X, "actorId" | "at">);

  /** Live (or trashed) items, newest first. */
  const list =
    <E>(trashed: boolean, show: (record: R) => E) =>
    async (ctx: RequestContext, input: Page): Promise<Record<L, E[]> & { nextCursor: string | null }> => {
      const query = listQuery(owner(ctx, "read"), input, kind.cursors.decode);
      const rows = await (trashed ? items.listTrash(query) : items.list(query));
      const page = pageOf(rows, input.limit, (last) => kind.cursors.encode(last.id));
      return { [own.key]: page.items.map(show), nextCursor: page.nextCursor } as Record<L, E[]> & { nextCursor: string | null };
    };
  const trashed = (record: R) => ({ ...own.record(record), deletedAt: record.deletedAt ?? "" });
  return {
    list: list(false, own.record),
    trash: list(true, trashed),
    /** A record as the trash across kinds shows it. */
    trashed,
    /** A new name as the next version (the content stays); a stale expectedVersion writes nothing. */
    async rename(ctx: RequestContext, { id, name, expectedVersion }: Ref & { name: string; expectedVersion?: number }): Promise<S> {
      return own.record(await write(ctx, { ownerId: owner(ctx, "write"), id: known(id), expectedVersion, name, source: "rename" }));
    },
    /** Moves the item to the trash (its share links end); a stale expectedVersion writes nothing. */
    async delete(ctx: RequestContext, { id, expectedVersion }: Ref & { expectedVersion?: number | undefined }): Promise<void> {
      changed(await items.trash({ ownerId: owner(ctx, "write"), id: known(id), at: new Date().toISOString(), expectedVersion }));
      log(ctx, id, `${noun} moved to the trash`);
    },
    async restore(ctx: RequestContext, { id }: Ref): Promise<S> {
      const ownerId = owner(ctx, "write");
      const record = kind.isId(id) ? await items.restore(ownerId, id) : null;
      if (!record) throw notFound(`${kind.noun} in the trash`);
      log(ctx, id, `${noun} restored from the trash`);
      return own.record(record);
    },
    /** Deletes an item in the trash for good, with its versions and shares. */
    async purge(ctx: RequestContext, { id }: Ref): Promise<void> {
      const ownerId = owner(ctx, "write");
      if (!(kind.isId(id) && (await items.purge(ownerId, id)))) throw notFound(`${kind.noun} in the trash`);
      log(ctx, id, `${noun} purged`);
    },
    /** One version's record; null when it is not kept, or the item is missing or someone else's (GraphQL `documentVersion`). */
    async version(ctx: RequestContext, { id, version }: Ref & { version: number }): Promise<T | null> {
      const ownerId = owner(ctx, "read");
      const found = kind.isId(id) ? await items.getVersion(ownerId, id, version) : null;
      return found && own.version(found.version);
    },
    /** Newest first, the current version included. */
    async versions(ctx: RequestContext, input: Ref & Page): Promise<{ versions: T[]; nextCursor: string | null }> {
      const ownerId = owner(ctx, "read");
      const before = input.cursor ? kind.versionCursors.decode(input.cursor) : undefined;
      const query = { ownerId, id: known(input.id), limit: input.limit + 1, ...(before === undefined ? {} : { beforeVersion: before }) };
      const rows = await items.listVersions(query);
      if (!rows) throw missing();
      const page = pageOf(rows, input.limit, (last) => kind.versionCursors.encode((last as { version: number }).version));
      return { versions: page.items.map(own.version), nextCursor: page.nextCursor };
    },
    /** Version n's content as the next version (the name stays the current one); a stale expectedVersion writes nothing. */
    async restoreVersion(ctx: RequestContext, input: Ref & { version: number; expectedVersion?: number | undefined }): Promise<S> {
      const { id, version, expectedVersion } = input;
      const ownerId = owner(ctx, "write");
      const content = await own.versionContent(ownerId, id, version, expectedVersion);
      if (!content) throw notFound("Version");
      const record = await write(ctx, { ownerId, id, expectedVersion, content, source: "restore" });
      log(ctx, id, `${noun} version restored`, { restored: version, version: record.version });
      return own.record(record);
    },
    async share(ctx: RequestContext, input: Ref & { expiresInSeconds: number }): Promise<DocumentShare & { url: string }> {
      const ownerId = owner(ctx, "write");
      await live(ownerId, input.id);
      const share = await newShare(deps.store, { kind: kind.share, targetId: input.id, ownerId }, input.expiresInSeconds, deps.publicUrl);
      log(ctx, input.id, "share link created", { shareId: share.id, expiresAt: share.expiresAt });
      return share;
    },
    /** The item's valid shares (never their tokens). */
    async shares(ctx: RequestContext, { id }: Ref): Promise<{ shares: DocumentShare[] }> {
      const ownerId = owner(ctx, "read");
      await live(ownerId, id);
      return { shares: (await deps.store.listShares(ownerId, id, new Date().toISOString())).map(publicShare) };
    },
    async revokeShare(ctx: RequestContext, { id, shareId }: Ref & { shareId: string }): Promise<void> {
      const ownerId = owner(ctx, "write");
      // An item in the trash is invisible to every route until restored (docs/api.md), its shares included.
      await live(ownerId, id);
      if (!(isShareId(shareId) && (await deps.store.deleteShare(ownerId, id, shareId)))) throw linkNotFound();
      log(ctx, id, "share link revoked", { shareId });
    },
  };
}
