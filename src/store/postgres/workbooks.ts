// Workbooks and their trash on PostgreSQL (see sqlite/workbooks.ts): each write one transaction
// holding the workbook's row lock, then the owner's usage lock when it stores or collects blobs.
import type pg from "pg";
import { DEFAULT_OPERATION, foldName, newWorkbookRecord, type ListQuery, type WorkbookRecord, type WorkbookStore } from "../types.ts";
import { toWorkbook, workbookSummaryColumns, type WorkbookRow } from "../workbook-rows.ts";
import { applyValueTiles, collectBlobs, getBlobs, getValueTiles, putBlobs, putValueTiles } from "./blobs.ts";
import { inTransaction, type PgContext } from "./connection.ts";
import { claimIdempotency } from "./idempotency.ts";

/** The live workbook, locked for the rest of the transaction. */
async function lockLive(client: pg.PoolClient, ownerId: string, id: string): Promise<WorkbookRecord | null> {
  const { rows } = await client.query<WorkbookRow>(
    `SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
    [ownerId, id],
  );
  return rows[0] ? toWorkbook(rows[0]) : null;
}

/** A live workbook (or, with includeDeleted, one in the trash too), or null. */
async function findWorkbook(
  db: pg.Pool | pg.PoolClient,
  ownerId: string,
  id: string,
  includeDeleted: boolean,
): Promise<WorkbookRecord | null> {
  const { rows } = await db.query<WorkbookRow>(
    `SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = $1 AND id = $2 ${includeDeleted ? "" : "AND deleted_at IS NULL"}`,
    [ownerId, id],
  );
  return rows[0] ? toWorkbook(rows[0]) : null;
}

async function purgeOne(client: pg.PoolClient, ownerId: string, id: string): Promise<void> {
  const { rows } = await client.query<{ manifest_hash: string }>(
    `SELECT manifest_hash FROM workbooks WHERE id = $1 UNION SELECT manifest_hash FROM workbook_versions WHERE workbook_id = $1`,
    [id],
  );
  for (const table of ["workbook_versions WHERE workbook_id", "workbook_values WHERE workbook_id", "shares WHERE target_id"]) {
    await client.query(`DELETE FROM ${table} = $1`, [id]);
  }
  await client.query(`DELETE FROM idempotency WHERE target_id = $1`, [id]);
  await client.query(`DELETE FROM workbooks WHERE id = $1`, [id]);
  await collectBlobs(
    client,
    ownerId,
    rows.map((row) => row.manifest_hash),
  );
}

async function list({ pool }: PgContext, query: ListQuery, trashed: boolean): Promise<WorkbookRecord[]> {
  if (query.nameContains?.includes("\u0000")) return [];
  const { rows } = await pool.query<WorkbookRow>(
    `SELECT ${workbookSummaryColumns} FROM workbooks
     WHERE owner_id = $1 AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"} AND ($2::text IS NULL OR id < $2)
       AND ($3::text IS NULL OR strpos(name_folded, $3) > 0)
     ORDER BY id DESC LIMIT $4`,
    [query.ownerId, query.beforeId ?? null, query.nameContains ?? null, query.limit],
  );
  return rows.map(toWorkbook);
}

/** Reads: point lookups, lists, blobs and value tiles. */
function reads(
  ctx: PgContext,
): Pick<WorkbookStore, "getWorkbook" | "getWorkbooks" | "listWorkbooks" | "listWorkbookTrash" | "getBlobs" | "getValueTiles"> {
  const { pool } = ctx;
  return {
    getWorkbook: (ownerId, id, options) => findWorkbook(pool, ownerId, id, options?.includeDeleted === true),
    async getWorkbooks(ownerId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<WorkbookRow>(
        `SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL`,
        [ownerId, [...ids]],
      );
      return rows.map(toWorkbook);
    },
    listWorkbooks: (query) => list(ctx, query, false),
    listWorkbookTrash: (query) => list(ctx, query, true),
    getBlobs: (ownerId, hashes) => getBlobs(ctx, ownerId, hashes),
    getValueTiles: (ownerId, workbookId, keys) => getValueTiles(ctx, ownerId, workbookId, keys),
  };
}

const insertSql = `INSERT INTO workbooks (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, deleted_at,
    size_bytes, cells, sheets, manifest_hash)
  VALUES ($1, $2, $3, $4, $5, $5, 1, $6, $7, NULL, $8, $9, $10, $11)`;

/** Create and change, the writes that store content. */
function contentWrites(ctx: PgContext): Pick<WorkbookStore, "createWorkbook" | "changeWorkbook"> {
  const { pool, quota } = ctx;
  return {
    async createWorkbook(input, claim) {
      return inTransaction(pool, async (client) => {
        const record = newWorkbookRecord(input);
        if (claim) {
          const scoped = { ...claim, operation: claim.operation ?? "sheets.create" };
          const hit = await claimIdempotency(client, input.ownerId, scoped, input.id, input.createdAt, record);
          // The first answer; a record without one (none are made so, but the column allows it): the workbook as it is.
          const first = hit && ((hit.response as WorkbookRecord | null) ?? (await findWorkbook(client, input.ownerId, hit.targetId, true)));
          if (hit && first) return { workbook: first, replayed: true, fingerprint: hit.fingerprint };
        }
        await putBlobs(client, quota, input.ownerId, input);
        await client.query(insertSql, [
          record.id,
          record.ownerId,
          record.name,
          foldName(record.name),
          record.createdAt,
          record.updatedBy,
          record.source,
          record.sizeBytes,
          record.cells,
          JSON.stringify(record.sheets),
          record.manifestHash,
        ]);
        await putValueTiles(client, record.id, 1, input.values ?? []);
        return { workbook: record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
      });
    },

    // The workbook's row lock serialises changes to it, so a second request with the same key
    // finds the first one's claim once it committed.
    async changeWorkbook(input) {
      return inTransaction(pool, async (client) => {
        const current = await lockLive(client, input.ownerId, input.id);
        if (!current) return { ok: false, reason: "not_found" } as const;
        const claim = input.idempotency?.claim;
        if (claim) {
          const { rows } = await client.query<{ fingerprint: string; response: string | null }>(
            `SELECT fingerprint, response FROM idempotency WHERE owner_id = $1 AND operation = $2 AND key = $3 AND created_at >= $4`,
            [input.ownerId, claim.operation ?? DEFAULT_OPERATION, claim.key, claim.notBefore],
          );
          const hit = rows[0];
          if (hit)
            return {
              ok: false,
              reason: "replayed",
              response: hit.response === null ? null : JSON.parse(hit.response),
              fingerprint: hit.fingerprint,
            } as const;
        }
        if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
          return { ok: false, reason: "conflict", current: current.version } as const;
        }
        await client.query(
          `INSERT INTO workbook_versions (workbook_id, version, owner_id, name, created_at, created_by, replaced_at, source, size_bytes,
             cells, sheets, manifest_hash)
           SELECT id, version, owner_id, name, updated_at, updated_by, $2, source, size_bytes, cells, sheets, manifest_hash
           FROM workbooks WHERE id = $1`,
          [input.id, input.at],
        );
        const name = input.name ?? current.name;
        const head = [input.id, name, foldName(name), input.at, input.actorId, input.source];
        const content = input.content;
        if (content) await putBlobs(client, quota, input.ownerId, content);
        const { rows } = content
          ? await client.query<WorkbookRow>(
              `UPDATE workbooks SET name = $2, name_folded = $3, updated_at = $4, updated_by = $5, source = $6, version = version + 1,
                 size_bytes = $7, cells = $8, sheets = $9, manifest_hash = $10
               WHERE id = $1 RETURNING ${workbookSummaryColumns}`,
              [...head, content.sizeBytes, content.cells, JSON.stringify(content.sheets), content.manifestHash],
            )
          : await client.query<WorkbookRow>(
              `UPDATE workbooks SET name = $2, name_folded = $3, updated_at = $4, updated_by = $5, source = $6, version = version + 1
               WHERE id = $1 RETURNING ${workbookSummaryColumns}`,
              head,
            );
        const workbook = toWorkbook(rows[0]!);
        await applyValueTiles(client, input.id, workbook.version, input.values);
        if (claim) await claimIdempotency(client, input.ownerId, claim, input.id, input.at, input.idempotency!.response(workbook));
        return { ok: true, workbook } as const;
      });
    },
  };
}

/** Trash, restore and purge. */
function trashWrites({
  pool,
}: PgContext): Pick<WorkbookStore, "trashWorkbook" | "restoreWorkbook" | "purgeWorkbook" | "purgeWorkbookTrash"> {
  return {
    async trashWorkbook({ ownerId, id, at, expectedVersion }) {
      return inTransaction(pool, async (client) => {
        const current = await lockLive(client, ownerId, id);
        if (!current) return { ok: false, reason: "not_found" } as const;
        if (expectedVersion !== undefined && expectedVersion !== current.version) {
          return { ok: false, reason: "conflict", current: current.version } as const;
        }
        await client.query(`UPDATE workbooks SET deleted_at = $2 WHERE id = $1`, [id, at]);
        // Deleting ends the workbook's links at once, for good, as for documents.
        await client.query(`DELETE FROM shares WHERE target_id = $1`, [id]);
        return { ok: true, workbook: { ...current, deletedAt: at } } as const;
      });
    },
    async restoreWorkbook(ownerId, id) {
      const { rows } = await pool.query<WorkbookRow>(
        `UPDATE workbooks SET deleted_at = NULL WHERE owner_id = $1 AND id = $2 AND deleted_at IS NOT NULL RETURNING ${workbookSummaryColumns}`,
        [ownerId, id],
      );
      return rows[0] ? toWorkbook(rows[0]) : null;
    },
    async purgeWorkbook(ownerId, id) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query(
          `SELECT id FROM workbooks WHERE owner_id = $1 AND id = $2 AND deleted_at IS NOT NULL FOR UPDATE`,
          [ownerId, id],
        );
        if (rows.length === 0) return false;
        await purgeOne(client, ownerId, id);
        return true;
      });
    },
    async purgeWorkbookTrash(deletedBefore) {
      return inTransaction(pool, async (client) => {
        // In owner order, so that the owners' usage locks are taken in that order too.
        const { rows } = await client.query<{ id: string; owner_id: string }>(
          `SELECT id, owner_id FROM workbooks WHERE deleted_at IS NOT NULL AND deleted_at < $1 ORDER BY owner_id, id FOR UPDATE SKIP LOCKED`,
          [deletedBefore],
        );
        for (const row of rows) await purgeOne(client, row.owner_id, row.id);
        return rows.length;
      });
    },
  };
}

export function createPostgresWorkbooks(
  ctx: PgContext,
): Omit<WorkbookStore, "listWorkbookVersions" | "getWorkbookVersion" | "pruneWorkbookVersions"> {
  return { ...reads(ctx), ...contentWrites(ctx), ...trashWrites(ctx) };
}
