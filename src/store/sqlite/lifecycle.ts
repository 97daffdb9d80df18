// The one lifecycle of a stored item on SQLite, for every kind (kinds.ts): records, lists,
// create (with its idempotency record), changes (the previous version kept), trash (ending its
// share links), restore, purge (collecting the content nothing refers to), versions and their
// pruning, each write one immediate transaction. A kind supplies how its content is stored and
// collected, and what else its writes touch (a workbook's value tiles).
import { byOwner, changeValues, hashColumn, insertValues, lifecycleSql, stale } from "../kinds.ts";
import type { ItemKind } from "../kinds.ts";
import type { IdempotencyClaim, ItemChange, ItemRecord, ItemStore, ListQuery, Outcome } from "../types.ts";
import type { Db } from "./connection.ts";
import { idempotencyStatements } from "./idempotency.ts";

/** How a kind's content is kept, inside the write's transaction. */
export interface SqliteContent<R, C, N, X> {
  /** Stores a version's content (charging the quota): the values of the kind's content columns. */
  put(ownerId: string, content: C): Record<string, unknown>;
  /** Deletes those of the hashes nothing refers to any more, releasing their bytes. */
  collect(ownerId: string, hashes: Iterable<string>): void;
  created?(record: R, input: N): void;
  changed?(record: R, change: X): void;
}

const listParams = (query: ListQuery) => ({
  ownerId: query.ownerId,
  beforeId: query.beforeId ?? null,
  needle: query.nameContains ?? null,
  limit: query.limit,
});

function statements(db: Db, kind: ItemKind) {
  const { table, summaryColumns } = kind;
  const sql = lifecycleSql(kind, (name) => `@${name}`);
  const list = (trashed: boolean) =>
    db.prepare(
      `SELECT ${summaryColumns} FROM ${table}
       WHERE owner_id = @ownerId AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"} AND (@beforeId IS NULL OR id < @beforeId)
         AND (@needle IS NULL OR instr(name_folded, @needle) > 0)
       ORDER BY id DESC LIMIT @limit`,
    );
  return {
    live: db.prepare(`SELECT ${summaryColumns} FROM ${table} WHERE owner_id = ? AND id = ? AND deleted_at IS NULL`),
    any: db.prepare(`SELECT ${summaryColumns} FROM ${table} WHERE owner_id = ? AND id = ?`),
    list: list(false),
    listTrash: list(true),
    insert: db.prepare(sql.insert),
    keepVersion: db.prepare(sql.keepVersion),
    changeContent: db.prepare(sql.changeContent),
    changeName: db.prepare(sql.changeName),
    trash: db.prepare(sql.trash),
    endShares: db.prepare(`DELETE FROM shares WHERE target_id = ?`),
    untrash: db.prepare(sql.untrash),
    trashedBefore: db.prepare(`SELECT owner_id, id FROM ${table} WHERE deleted_at IS NOT NULL AND deleted_at < ?`),
    isTrashed: db.prepare(`SELECT 1 FROM ${table} WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    hashesOf: db.prepare(sql.hashesOf),
    purge: sql.purge.map((text) => db.prepare(text)),
    listVersions: db.prepare(sql.listVersions),
    getVersion: db.prepare(sql.getVersion),
    prune: db.prepare(
      `DELETE FROM ${kind.versions} WHERE replaced_at < ?
         AND version <= (SELECT i.version FROM ${table} i WHERE i.id = ${kind.versions}.${kind.versionOf}) - ?
       RETURNING owner_id, ${hashColumn(kind)} AS hash`,
    ),
  };
}

/** The kind's lifecycle on SQLite, and its synchronous live lookup (for the kind's own reads). */
export function sqliteLifecycle<R extends ItemRecord, V, C, N extends C, X extends ItemChange<C, R>>(
  db: Db,
  kind: ItemKind<R, V, N>,
  content: SqliteContent<R, C, N, X>,
): ItemStore<R, V, N, X> & { live(ownerId: string, id: string): R | null } {
  const stmt = statements(db, kind);
  const idempotency = idempotencyStatements(db);
  const one = (row: unknown): R | null => (row ? kind.toRecord(row as never) : null);
  const live = (ownerId: string, id: string) => one(stmt.live.get(ownerId, id));
  const many = (rows: unknown[]): R[] => rows.map((row) => kind.toRecord(row as never));

  // The record, its content and its idempotency record (with the answer) land together or not at
  // all. A replay answers the first record, as it was then.
  const create = db.transaction((input: N, claim: IdempotencyClaim | undefined) => {
    const record = kind.newRecord(input);
    const scoped = claim && { ...claim, operation: claim.operation ?? kind.createOperation };
    if (scoped) {
      const hit = idempotency.find(record.ownerId, scoped);
      const first = hit && ((hit.response as R | null) ?? one(stmt.any.get(record.ownerId, hit.targetId)));
      if (hit && first) return { record: first, replayed: true, fingerprint: hit.fingerprint };
    }
    stmt.insert.run({ ...insertValues(record), ...content.put(record.ownerId, input) });
    content.created?.(record, input);
    if (scoped) idempotency.claim(record.ownerId, scoped, record.id, record.createdAt, record);
    return { record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
  });

  // The current version's row is copied into the versions table (its content stays shared), then
  // replaced; a replayed key or a stale expectedVersion writes nothing.
  const change = db.transaction((input: X): Outcome<R> => {
    const current = live(input.ownerId, input.id);
    if (!current) return { ok: false, reason: "not_found" };
    const claim = input.idempotency?.claim;
    const hit = claim && idempotency.find(input.ownerId, claim);
    if (hit) return { ok: false, reason: "replayed", response: hit.response, fingerprint: hit.fingerprint };
    const conflict = stale(input.expectedVersion, current);
    if (conflict) return conflict;
    stmt.keepVersion.run({ id: input.id, at: input.at });
    const values = changeValues(input, current);
    if (input.content) stmt.changeContent.run({ ...values, ...content.put(input.ownerId, input.content) });
    else stmt.changeName.run(values);
    content.changed?.({ ...current, version: current.version + 1 }, input);
    const record = live(input.ownerId, input.id)!;
    if (claim) idempotency.claim(input.ownerId, claim, input.id, input.at, input.idempotency!.response(record));
    return { ok: true, record };
  });

  const trash = db.transaction((ownerId: string, id: string, at: string, expectedVersion: number | undefined): Outcome<R> => {
    const current = live(ownerId, id);
    if (!current) return { ok: false, reason: "not_found" };
    const conflict = stale(expectedVersion, current);
    if (conflict) return conflict;
    stmt.trash.run({ at, id });
    // Deleting ends the item's links at once, for good: restoring it does not revive them.
    stmt.endShares.run(id);
    return { ok: true, record: { ...current, deletedAt: at } };
  });

  /** Deletes an item with everything that belongs to it, then the content nothing else refers to. */
  const purgeOne = (ownerId: string, id: string): void => {
    const hashes = (stmt.hashesOf.all({ id }) as { hash: string }[]).map((row) => row.hash);
    for (const statement of stmt.purge) statement.run({ id });
    content.collect(ownerId, hashes);
  };
  const purge = db.transaction((ownerId: string, id: string): boolean => {
    if (!stmt.isTrashed.get(ownerId, id)) return false;
    purgeOne(ownerId, id);
    return true;
  });
  const purgeTrash = db.transaction((before: string): number => {
    const rows = stmt.trashedBefore.all(before) as { owner_id: string; id: string }[];
    for (const row of rows) purgeOne(row.owner_id, row.id);
    return rows.length;
  });
  // The versions go, then the content only they referred to, in one transaction.
  const prune = db.transaction((replacedBefore: string, keepMin: number): number => {
    const gone = stmt.prune.all(replacedBefore, keepMin) as { owner_id: string; hash: string }[];
    for (const [ownerId, hashes] of byOwner(gone)) content.collect(ownerId, hashes);
    return gone.length;
  });

  return {
    live,
    get: async (ownerId, id, options) => (options?.includeDeleted ? one(stmt.any.get(ownerId, id)) : live(ownerId, id)),
    async getMany(ownerId, ids) {
      if (ids.length === 0) return [];
      const placeholders = ids.map(() => "?").join(", ");
      const text = `SELECT ${kind.summaryColumns} FROM ${kind.table} WHERE owner_id = ? AND deleted_at IS NULL AND id IN (${placeholders})`;
      return many(db.prepare(text).all(ownerId, ...ids));
    },
    list: async (query) => many(stmt.list.all(listParams(query))),
    listTrash: async (query) => many(stmt.listTrash.all(listParams(query))),
    create: async (input, claim) => create.immediate(input, claim),
    change: async (input) => change.immediate(input),
    trash: async ({ ownerId, id, at, expectedVersion }) => trash.immediate(ownerId, id, at, expectedVersion),
    async restore(ownerId, id) {
      if (stmt.untrash.run({ ownerId, id }).changes === 0) return null;
      return live(ownerId, id);
    },
    purge: async (ownerId, id) => purge.immediate(ownerId, id),
    purgeTrash: async (deletedBefore) => purgeTrash.immediate(deletedBefore),
    async listVersions({ ownerId, id, beforeVersion, limit }) {
      const record = live(ownerId, id);
      if (!record) return null;
      const before = beforeVersion ?? Number.MAX_SAFE_INTEGER;
      const head = record.version < before ? [kind.current(record)] : [];
      const rest = limit - head.length;
      const older = rest > 0 ? stmt.listVersions.all({ id, before, limit: rest }).map((row) => kind.toVersion(row as never)) : [];
      return [...head, ...older];
    },
    async getVersion(ownerId, id, n) {
      const record = live(ownerId, id);
      if (!record || !Number.isSafeInteger(n) || n < 1 || n > record.version) return null;
      if (n === record.version) return { record, version: kind.current(record) };
      const row = stmt.getVersion.get({ id, n });
      return row ? { record, version: kind.toVersion(row as never) } : null;
    },
    pruneVersions: async (replacedBefore, keepMin) => prune.immediate(replacedBefore, keepMin),
  };
}
