// The one lifecycle of a stored item on PostgreSQL, for every kind (kinds.ts; see
// sqlite/lifecycle.ts): each write one transaction holding the item's row lock, then the owner's
// usage lock when it stores or collects content. Hot reads are named prepared statements.
import type pg from "pg";
import { byOwner, changeValues, hashColumn, insertValues, lifecycleSql, stale } from "../kinds.ts";
import type { ItemKind } from "../kinds.ts";
import type { ItemChange, ItemRecord, ItemStore, ListQuery, Outcome } from "../types.ts";
import { hasNul, inTransaction, type PgContext } from "./connection.ts";
import { claimIdempotency, findClaim } from "./idempotency.ts";

const MAX_INT = 2_147_483_647;
type Client = pg.Pool | pg.PoolClient;

/** How a kind's content is kept, inside the write's transaction. */
export interface PostgresContent<R, C, N, X> {
  /** Stores a version's content (under the owner's usage lock, charging the quota): the values of the kind's content columns. */
  put(client: pg.PoolClient, ownerId: string, content: C): Promise<Record<string, unknown>>;
  /** Deletes those of the hashes nothing refers to any more, releasing their bytes. */
  collect(client: pg.PoolClient, ownerId: string, hashes: Iterable<string>): Promise<void>;
  created?(client: pg.PoolClient, record: R, input: N): Promise<void>;
  changed?(client: pg.PoolClient, record: R, change: X): Promise<void>;
}

/** SQL with named placeholders (`:name`) as text and positional values. */
function positional(text: string, values: Record<string, unknown>): [string, unknown[]] {
  const names: string[] = [];
  const sql = text.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const at = names.indexOf(name);
    if (at >= 0) return `$${at + 1}`;
    names.push(name);
    return `$${names.length}`;
  });
  return [sql, names.map((name) => values[name])];
}

/** The statements and lookups every part of the lifecycle uses. */
function basics<R extends ItemRecord, V, N>(ctx: PgContext, kind: ItemKind<R, V, N>) {
  const { pool, prepared } = ctx;
  const { table, summaryColumns } = kind;
  const sql = lifecycleSql(kind, (name) => `:${name}`);
  const run = (client: Client, text: string, values: Record<string, unknown>) => client.query(...positional(text, values));
  const record = (rows: unknown[]): R | null => (rows[0] ? kind.toRecord(rows[0] as never) : null);
  /** The live item, locked for the rest of the transaction (concurrent changes queue behind it). */
  const lockText = `SELECT ${summaryColumns} FROM ${table} WHERE owner_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`;
  const lockLive = async (client: pg.PoolClient, ownerId: string, id: string) => record((await client.query(lockText, [ownerId, id])).rows);
  const get = async (ownerId: string, id: string, includeDeleted: boolean, db: Client = pool): Promise<R | null> => {
    if (hasNul(ownerId, id)) return null;
    const live = includeDeleted ? "" : " AND deleted_at IS NULL";
    const name = `get_${includeDeleted ? "any_" : ""}${kind.name}`;
    const text = `SELECT ${summaryColumns} FROM ${table} WHERE owner_id = $1 AND id = $2${live}`;
    return record((await db.query(prepared(name, text, [ownerId, id]))).rows);
  };

  /** Live or trashed items, newest first, one prepared statement per shape (the list's index is walked in order). */
  async function list(query: ListQuery, trashed: boolean): Promise<R[]> {
    // No name holds a control character, and PostgreSQL text cannot hold NUL (an error, not "no match").
    if (query.nameContains?.includes("\u0000")) return [];
    const params: unknown[] = [query.ownerId];
    let where = `owner_id = $1 AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"}`;
    if (query.beforeId !== undefined) {
      params.push(query.beforeId);
      where += ` AND id < $${params.length}`;
    }
    if (query.nameContains !== undefined) {
      // strpos, not LIKE: '%' and '_' in the needle are literal characters.
      params.push(query.nameContains);
      where += ` AND strpos(name_folded, $${params.length}) > 0`;
    }
    params.push(query.limit);
    const shape = `${table}_${trashed ? "trash" : "list"}_${query.beforeId !== undefined ? "c" : ""}${query.nameContains !== undefined ? "q" : ""}`;
    const text = `SELECT ${summaryColumns} FROM ${table} WHERE ${where} ORDER BY id DESC LIMIT $${params.length}`;
    const { rows } = await pool.query(prepared(shape, text, params));
    return rows.map((row) => kind.toRecord(row as never));
  }

  return { sql, run, record, lockLive, get, list };
}

type Basics<R extends ItemRecord> = ReturnType<typeof basics<R, unknown, never>>;

/** The writes: create, change, trash and purge, each one transaction. */
function writes<R extends ItemRecord, V, C, N extends C, X extends ItemChange<C, R>>(
  { pool }: PgContext,
  kind: ItemKind<R, V, N>,
  content: PostgresContent<R, C, N, X>,
  { sql, run, record, lockLive, get }: Basics<R>,
): Pick<ItemStore<R, V, N, X>, "create" | "change" | "trash" | "purge" | "purgeTrash"> {
  const { table, summaryColumns } = kind;
  /** Deletes an item with everything that belongs to it, then the content nothing else refers to. */
  async function purgeOne(client: pg.PoolClient, ownerId: string, id: string): Promise<void> {
    const { rows } = await run(client, sql.hashesOf, { id });
    for (const text of sql.purge) await run(client, text, { id });
    await content.collect(
      client,
      ownerId,
      rows.map((row: { hash: string }) => row.hash),
    );
  }

  // The item's row lock serialises changes to it, so a second request with the same key finds the
  // first one's claim once it committed.
  const change = (input: X) =>
    inTransaction(pool, async (client): Promise<Outcome<R>> => {
      const current = await lockLive(client, input.ownerId, input.id);
      if (!current) return { ok: false, reason: "not_found" };
      const claim = input.idempotency?.claim;
      const hit = claim && (await findClaim(client, input.ownerId, claim));
      if (hit) return { ok: false, reason: "replayed", response: hit.response, fingerprint: hit.fingerprint };
      const conflict = stale(input.expectedVersion, current);
      if (conflict) return conflict;
      await run(client, sql.keepVersion, { id: input.id, at: input.at });
      const values = changeValues(input, current);
      const text = `${input.content ? sql.changeContent : sql.changeName} RETURNING ${summaryColumns}`;
      const stored = input.content ? await content.put(client, input.ownerId, input.content) : {};
      const changed = record((await run(client, text, { ...values, ...stored })).rows)!;
      await content.changed?.(client, changed, input);
      if (claim) await claimIdempotency(client, input.ownerId, claim, input.id, input.at, input.idempotency!.response(changed));
      return { ok: true, record: changed };
    });

  return {
    // The idempotency record is claimed first, then the item is inserted, in one transaction: a
    // concurrent create with the same key blocks on the claimed row until the first transaction
    // ends; if that committed, the loser finds a fresh record, inserts nothing and answers the
    // winner's first answer (a record kept before answers were: the item as it is now).
    create: (input, claim) =>
      inTransaction(pool, async (client) => {
        const created = kind.newRecord(input);
        const scoped = claim && { ...claim, operation: claim.operation ?? kind.createOperation };
        const hit = scoped && (await claimIdempotency(client, created.ownerId, scoped, created.id, created.createdAt, created));
        if (hit) {
          const first = (hit.response as R | null) ?? (await get(created.ownerId, hit.targetId, true, client));
          if (first) return { record: first, replayed: true, fingerprint: hit.fingerprint };
          // The record points at a missing item: create it and leave the record, as SQLite does.
        }
        await run(client, sql.insert, { ...insertValues(created), ...(await content.put(client, created.ownerId, input)) });
        await content.created?.(client, created, input);
        return { record: created, replayed: false, fingerprint: claim?.fingerprint ?? "" };
      }),
    change,
    trash: ({ ownerId, id, at, expectedVersion }) =>
      inTransaction(pool, async (client): Promise<Outcome<R>> => {
        const current = await lockLive(client, ownerId, id);
        if (!current) return { ok: false, reason: "not_found" };
        const conflict = stale(expectedVersion, current);
        if (conflict) return conflict;
        await run(client, sql.trash, { at, id });
        // Deleting ends the item's links at once, for good: restoring it does not revive them.
        await client.query(`DELETE FROM shares WHERE target_id = $1`, [id]);
        return { ok: true, record: { ...current, deletedAt: at } };
      }),
    purge: (ownerId, id) =>
      inTransaction(pool, async (client) => {
        const text = `SELECT id FROM ${table} WHERE owner_id = $1 AND id = $2 AND deleted_at IS NOT NULL FOR UPDATE`;
        if ((await client.query(text, [ownerId, id])).rows.length === 0) return false;
        await purgeOne(client, ownerId, id);
        return true;
      }),
    purgeTrash: (deletedBefore) =>
      inTransaction(pool, async (client) => {
        // In owner order, so that the owners' usage locks are taken in that order too.
        const { rows } = await client.query<{ id: string; owner_id: string }>(
          `SELECT id, owner_id FROM ${table} WHERE deleted_at IS NOT NULL AND deleted_at < $1 ORDER BY owner_id, id FOR UPDATE SKIP LOCKED`,
          [deletedBefore],
        );
        for (const row of rows) await purgeOne(client, row.owner_id, row.id);
        return rows.length;
      }),
  };
}

/** The kind's lifecycle on PostgreSQL. */
export function postgresLifecycle<R extends ItemRecord, V, C, N extends C, X extends ItemChange<C, R>>(
  ctx: PgContext,
  kind: ItemKind<R, V, N>,
  content: PostgresContent<R, C, N, X>,
): ItemStore<R, V, N, X> {
  const { pool, prepared } = ctx;
  const { table, summaryColumns } = kind;
  const b = basics(ctx, kind);
  const { sql, run, record, get } = b;
  return {
    ...writes(ctx, kind, content, b),
    get: (ownerId, id, options) => get(ownerId, id, options?.includeDeleted === true),
    async getMany(ownerId, ids) {
      if (ids.length === 0) return [];
      const text = `SELECT ${summaryColumns} FROM ${table} WHERE owner_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL`;
      const { rows } = await pool.query(prepared(`get_${table}`, text, [ownerId, [...ids]]));
      return rows.map((row) => kind.toRecord(row as never));
    },
    list: (query) => b.list(query, false),
    listTrash: (query) => b.list(query, true),
    async restore(ownerId, id) {
      return record((await run(pool, `${sql.untrash} RETURNING ${summaryColumns}`, { ownerId, id })).rows);
    },
    async listVersions({ ownerId, id, beforeVersion, limit }) {
      const current = await get(ownerId, id, false);
      if (!current) return null;
      // Versions are integer columns: a larger bound (any cursor a caller makes up) is "all of them", as in SQLite, not an error.
      const before = Math.min(beforeVersion ?? MAX_INT, MAX_INT);
      const head = current.version < before ? [kind.current(current)] : [];
      const rest = limit - head.length;
      if (rest <= 0) return head;
      const { rows } = await run(pool, sql.listVersions, { id, before, limit: rest });
      return [...head, ...rows.map((row) => kind.toVersion(row as never))];
    },
    async getVersion(ownerId, id, n) {
      if (!Number.isSafeInteger(n) || n < 1 || n > MAX_INT) return null;
      const current = await get(ownerId, id, false);
      if (!current || n > current.version) return null;
      if (n === current.version) return { record: current, version: kind.current(current) };
      const { rows } = await run(pool, sql.getVersion, { id, n });
      return rows[0] ? { record: current, version: kind.toVersion(rows[0] as never) } : null;
    },
    // The versions go, then the content only they referred to, in one transaction.
    pruneVersions: (replacedBefore, keepMin) =>
      inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ owner_id: string; hash: string }>(
          `DELETE FROM ${kind.versions} v USING ${table} i
           WHERE i.id = v.${kind.versionOf} AND v.replaced_at < $1 AND v.version <= i.version - $2
           RETURNING v.owner_id, v.${hashColumn(kind)} AS hash`,
          [replacedBefore, keepMin],
        );
        for (const [ownerId, hashes] of byOwner(rows)) await content.collect(client, ownerId, hashes);
        return rows.length;
      }),
  };
}
