// The one lifecycle of a stored item, for every kind (kinds.ts) and both databases (sql.ts):
// records, lists, create (with its idempotency record), changes (the previous version kept), trash
// (ending its share links), restore, purge (collecting the content nothing refers to), versions and
// their pruning, each write one transaction. On PostgreSQL a write holds the item's row lock, then
// the owner's usage lock when it stores or collects content; SQLite's immediate transaction holds
// the database. A kind supplies how its content is stored and collected (and, where a database
// writes a large content ahead, staged before the transaction).
import { claimIdempotency, findClaim } from "./idempotency.ts";
import type { ItemKind } from "./kinds.ts";
import type { Row } from "./rows.ts";
import { hasNul, query, type Executor, type Tx } from "./sql.ts";
import { foldName, type IdempotencyClaim, type ItemChange, type ItemRecord, type ListQuery, type NewItem, type Outcome } from "./types.ts";
import type { VersionQuery } from "./types.ts";

/** How a kind's content is kept: steps inside the write's transaction (K: the database's client), and one before it. */
export interface ItemContent<C, K> {
  /** Stores a version's content (charging the quota): the values of the kind's content columns. */
  put(ownerId: string, content: C): Tx<Record<string, unknown>, K>;
  /** Deletes those of the hashes nothing refers to any more, releasing their bytes. */
  collect(ownerId: string, hashes: Iterable<string>): Tx<void, K>;
  /**
   * Before the transaction, where the database writes a large content ahead for `put` to name
   * (SQLite's workbook blobs, sqlite/blobs.ts): how to release what the write did not name, called
   * once it ends, whatever its outcome; undefined when nothing was written ahead.
   */
  stage?(ownerId: string, content: C): Promise<(() => void) | undefined>;
}

/** The reads: one statement each, the hot ones named. Every read sees live items only, unless it says otherwise. */
function reads<R extends ItemRecord, V, N extends NewItem>(sql: Executor, kind: ItemKind<R, V, N>) {
  const { table, summaryColumns } = kind;
  const record = (rows: Row[]): R | null => (rows[0] ? kind.toRecord(rows[0]) : null);
  const byId = `SELECT ${summaryColumns} FROM ${table} WHERE owner_id = :ownerId AND id = :id`;
  /** `includeDeleted`: also an item in the trash (an idempotent replay of its create). */
  const get = async (ownerId: string, id: string, { includeDeleted = false } = {}): Promise<R | null> => {
    if (hasNul(ownerId, id)) return null;
    const text = `${byId}${includeDeleted ? "" : " AND deleted_at IS NULL"}`;
    return record(await sql.all(text, { ownerId, id }, `get_${includeDeleted ? "any_" : ""}${kind.name}`));
  };
  /** Live or trashed items, newest first (by id: the list's index is walked in order), one statement per shape. */
  async function list(query: ListQuery, trashed: boolean): Promise<R[]> {
    if (hasNul(query.nameContains ?? "")) return [];
    const cursor = query.beforeId !== undefined ? " AND id < :beforeId" : "";
    const needle = query.nameContains !== undefined ? ` AND ${sql.dialect.position}(name_folded, :needle) > 0` : "";
    const text = `SELECT ${summaryColumns} FROM ${table} WHERE owner_id = :ownerId AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"}${cursor}${needle}
      ORDER BY id DESC LIMIT :limit`;
    const shape = `${table}_${trashed ? "trash" : "list"}_${cursor ? "c" : ""}${needle ? "q" : ""}`;
    const values = { ownerId: query.ownerId, beforeId: query.beforeId, needle: query.nameContains, limit: query.limit };
    return (await sql.all(text, values, shape)).map((row) => kind.toRecord(row));
  }
  /** The live item, locked for the rest of the transaction (concurrent changes queue behind it). */
  function* lockLive(ownerId: string, id: string): Tx<R | null> {
    return record(yield* query(`${byId} AND deleted_at IS NULL${sql.dialect.forUpdate}`, { ownerId, id }));
  }
  return { record, byId, get, list, lockLive };
}

/** Versions are integer columns: a larger number is no version (and a larger bound "all of them"), not an error. */
const MAX_INT = 2_147_483_647;
export const isVersion = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= MAX_INT;

/** The stale-version answer of a conditional write, or null when it may go on. */
const stale = (expectedVersion: number | undefined, current: ItemRecord): Outcome<never> | null =>
  expectedVersion !== undefined && expectedVersion !== current.version ? { ok: false, reason: "conflict", current: current.version } : null;

/** The writes that make versions: create and change, each one transaction. */
function writes<R extends ItemRecord, V, C, N extends C & NewItem, K, X extends ItemChange<C, R>>(
  sql: Executor<K>,
  kind: ItemKind<R, V, N>,
  content: ItemContent<C, K>,
  { record, byId, lockLive }: ReturnType<typeof reads<R, V, N>>,
) {
  const { table, versions, versionOf, summaryColumns } = kind;
  const columns = kind.content.join(", ");
  const set = `name = :name, name_folded = :nameFolded, updated_at = :at, updated_by = :actorId, source = :source, version = version + 1`;
  /** The steps in one transaction, `staging` staged before it (ItemContent's `stage`) and released after it. */
  async function write<T>(ownerId: string, staging: C | undefined, steps: () => Tx<T, K>): Promise<T> {
    const release = staging && content.stage ? await content.stage(ownerId, staging) : undefined;
    try {
      return await sql.transaction(steps);
    } finally {
      release?.();
    }
  }
  return {
    /**
     * Version 1, its content and its idempotency record (with the record it answers) in one
     * transaction, the record claimed first: on PostgreSQL a concurrent create with the same key
     * blocks on the claimed row until the first transaction ends; if that committed, the loser finds
     * a fresh record, creates nothing and answers the winner's first answer (a record kept before
     * answers were: the item as it is now).
     */
    create: (input: N, claim?: IdempotencyClaim) =>
      write(input.ownerId, input, function* () {
        const created = kind.newRecord(input);
        const scoped = claim && { ...claim, operation: claim.operation ?? kind.createOperation };
        const hit = scoped && (yield* claimIdempotency(created.ownerId, scoped, created.id, created.createdAt, created));
        if (hit) {
          const first = (hit.response as R | null) ?? record(yield* query(byId, { ownerId: created.ownerId, id: hit.targetId }));
          if (first) return { record: first, replayed: true, fingerprint: hit.fingerprint };
          // The record points at a missing item: create it and leave the record.
        }
        const stored = yield* content.put(created.ownerId, input);
        const insert = `INSERT INTO ${table} (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, ${columns})
          VALUES (:id, :ownerId, :name, :nameFolded, :createdAt, :createdAt, 1, :updatedBy, :source, ${kind.content.map((c) => `:${c}`).join(", ")})`;
        yield* query(insert, { ...(created as Row), nameFolded: foldName(created.name), ...stored });
        return { record: created, replayed: false, fingerprint: claim?.fingerprint ?? "" };
      }),
    /**
     * New content and/or name as the next version: the current version's row is copied into the
     * versions table (its content stays shared), then replaced, atomically; a replayed key or a stale
     * expectedVersion writes nothing. The item's row lock serialises changes to it, so a second
     * request with the same key finds the first one's claim.
     */
    change: (input: X) =>
      write(input.ownerId, input.content, function* (): Tx<Outcome<R>, K> {
        const current = yield* lockLive(input.ownerId, input.id);
        if (!current) return { ok: false, reason: "not_found" };
        const claim = input.idempotency?.claim;
        const hit = claim && (yield* findClaim(input.ownerId, claim));
        if (hit) return { ok: false, reason: "replayed", response: hit.response, fingerprint: hit.fingerprint };
        const conflict = stale(input.expectedVersion, current);
        if (conflict) return conflict;
        yield* query(
          `INSERT INTO ${versions} (${versionOf}, version, owner_id, name, created_at, created_by, replaced_at, source, ${columns})
           SELECT id, version, owner_id, name, updated_at, updated_by, :at, source, ${columns} FROM ${table} WHERE id = :id`,
          { id: input.id, at: input.at },
        );
        const name = input.name ?? current.name;
        const stored = input.content ? yield* content.put(input.ownerId, input.content) : undefined;
        const newContent = stored ? `, ${kind.content.map((column) => `${column} = :${column}`).join(", ")}` : "";
        const changed = record(
          yield* query(`UPDATE ${table} SET ${set}${newContent} WHERE id = :id RETURNING ${summaryColumns}`, {
            ...{ id: input.id, name, nameFolded: foldName(name), at: input.at, actorId: input.actorId, source: input.source },
            ...stored,
          }),
        )!;
        if (claim) yield* claimIdempotency(input.ownerId, claim, input.id, input.at, input.idempotency!.response(changed));
        return { ok: true, record: changed };
      }),
  };
}

/** The writes that end versions or items: trash, restore, purge and pruning, each one transaction. */
function removals<R extends ItemRecord, V, N extends NewItem, K>(
  sql: Executor<K>,
  kind: ItemKind<R, V, N>,
  { collect }: Pick<ItemContent<unknown, K>, "collect">,
  { record, lockLive }: ReturnType<typeof reads<R, V, N>>,
) {
  const { table, versions, versionOf, hash, summaryColumns } = kind;
  const { forUpdate, skipLocked } = sql.dialect;
  function* purgeOne(ownerId: string, id: string): Tx<void, K> {
    const of = `SELECT ${hash} AS hash FROM ${table} WHERE id = :id UNION SELECT ${hash} FROM ${versions} WHERE ${versionOf} = :id`;
    const hashes = (yield* query(of, { id })).map((row) => row["hash"] as string);
    const owned = [`${versions} WHERE ${versionOf}`, "shares WHERE target_id", "idempotency WHERE target_id", `${table} WHERE id`];
    for (const rows of owned) yield* query(`DELETE FROM ${rows} = :id`, { id });
    yield* collect(ownerId, hashes);
  }
  return {
    /** Moves a live item to the trash and ends its share links at once, for good: restoring it does not revive them. */
    trash: ({ ownerId, id, at, expectedVersion }: Pick<ItemChange<unknown, R>, "ownerId" | "id" | "at" | "expectedVersion">) =>
      sql.transaction(function* (): Tx<Outcome<R>, K> {
        const current = yield* lockLive(ownerId, id);
        if (!current) return { ok: false, reason: "not_found" };
        const conflict = stale(expectedVersion, current);
        if (conflict) return conflict;
        yield* query(`UPDATE ${table} SET deleted_at = :at WHERE id = :id`, { at, id });
        yield* query(`DELETE FROM shares WHERE target_id = :id`, { id });
        return { ok: true, record: { ...current, deletedAt: at } };
      }),
    /** Back from the trash; null when it is not there. */
    restore: async (ownerId: string, id: string) => {
      const text = `UPDATE ${table} SET deleted_at = NULL WHERE owner_id = :ownerId AND id = :id AND deleted_at IS NOT NULL RETURNING ${summaryColumns}`;
      return record(await sql.all(text, { ownerId, id }));
    },
    /** Deletes an item in the trash for good, with its versions, shares, idempotency records and the content nothing else refers to. */
    purge: (ownerId: string, id: string) =>
      sql.transaction(function* () {
        const trashed = `SELECT id FROM ${table} WHERE owner_id = :ownerId AND id = :id AND deleted_at IS NOT NULL${forUpdate}`;
        if ((yield* query(trashed, { ownerId, id })).length === 0) return false;
        yield* purgeOne(ownerId, id);
        return true;
      }),
    /** Retention: purges items trashed before the instant, in owner order (so the owners' usage locks are too); returns how many. */
    purgeTrash: (deletedBefore: string) =>
      sql.transaction(function* () {
        const rows = yield* query(
          `SELECT id, owner_id FROM ${table} WHERE deleted_at IS NOT NULL AND deleted_at < :deletedBefore ORDER BY owner_id, id${skipLocked}`,
          { deletedBefore },
        );
        for (const row of rows) yield* purgeOne(row["owner_id"] as string, row["id"] as string);
        return rows.length;
      }),
    /**
     * Retention: drops versions replaced before `replacedBefore`, except each item's `keepMin` newest
     * (the current one counts), then the content only they referred to, in one transaction, owner by
     * owner in owner order (PostgreSQL takes the owners' usage locks in that order). Returns how many went.
     */
    pruneVersions: (replacedBefore: string, keepMin: number) =>
      sql.transaction(function* () {
        const gone = (yield* query(
          `DELETE FROM ${versions} WHERE replaced_at < :replacedBefore
             AND version <= (SELECT i.version FROM ${table} i WHERE i.id = ${versions}.${versionOf}) - :keepMin
           RETURNING owner_id, ${hash} AS hash`,
          { replacedBefore, keepMin },
        )) as { owner_id: string; hash: string }[];
        const owners = [...new Set(gone.map((row) => row.owner_id))].sort();
        for (const owner of owners)
          yield* collect(
            owner,
            gone.filter((row) => row.owner_id === owner).map((row) => row.hash),
          );
        return gone.length;
      }),
  };
}

/**
 * The kind's lifecycle over the database's executor: what the store holds per kind (`store.documents`,
 * `store.workbooks`), as `ItemStore` (types/items.ts) names it.
 */
export function itemLifecycle<R extends ItemRecord, V, C, N extends C & NewItem, K, X extends ItemChange<C, R> = ItemChange<C, R>>(
  sql: Executor<K>,
  kind: ItemKind<R, V, N>,
  content: ItemContent<C, K>,
) {
  const { versions, versionOf, versionColumns } = kind;
  const read = reads(sql, kind);
  const { get } = read;
  return {
    ...writes<R, V, C, N, K, X>(sql, kind, content, read),
    ...removals(sql, kind, content, read),
    get,
    list: (query: ListQuery) => read.list(query, false),
    /** Items in the trash, as list. */
    listTrash: (query: ListQuery) => read.list(query, true),
    /** Newest first, the current version included; null when the item is not live. */
    async listVersions({ ownerId, id, beforeVersion, limit }: VersionQuery): Promise<V[] | null> {
      const current = await get(ownerId, id);
      if (!current) return null;
      const before = Math.min(beforeVersion ?? MAX_INT, MAX_INT);
      const head = current.version < before ? [kind.current(current)] : [];
      const rest = limit - head.length;
      if (rest <= 0) return head;
      const older = `SELECT ${versionColumns} FROM ${versions} WHERE ${versionOf} = :id AND version < :before ORDER BY version DESC LIMIT :limit`;
      const rows = await sql.all(older, { id, before, limit: rest });
      return [...head, ...rows.map((row) => kind.toVersion(row))];
    },
    /** Version n of a live item. */
    async getVersion(ownerId: string, id: string, n: number): Promise<{ record: R; version: V } | null> {
      if (!isVersion(n)) return null;
      const current = await get(ownerId, id);
      if (!current || n > current.version) return null;
      if (n === current.version) return { record: current, version: kind.current(current) };
      const [row] = await sql.all(`SELECT ${versionColumns} FROM ${versions} WHERE ${versionOf} = :id AND version = :n`, { id, n });
      return row ? { record: current, version: kind.toVersion(row) } : null;
    },
  };
}
