// Workbooks and their trash on SQLite (types/workbooks.ts): create (blobs, value tiles and the
// idempotency record with it), reads, changes (the previous version kept in workbook_versions,
// its manifest shared), trash (ending its share links), restore and purge (collecting the blobs
// nothing refers to any more), each write one immediate transaction.
import { foldName, newWorkbookRecord, type ListQuery, type NewWorkbook, type WorkbookStore } from "../types.ts";
import type { IdempotencyClaim, WorkbookChange, WorkbookChangeResult, WorkbookCreateResult, WorkbookRecord } from "../types.ts";
import { toWorkbook, workbookSummaryColumns, type WorkbookRow } from "../workbook-rows.ts";
import type { SqliteContext } from "./context.ts";
import { idempotencyStatements } from "./idempotency.ts";

const listParams = (query: ListQuery) => ({
  ownerId: query.ownerId,
  beforeId: query.beforeId ?? null,
  needle: query.nameContains ?? null,
  limit: query.limit,
});

function statements({ db }: SqliteContext) {
  const list = (trashed: boolean) =>
    db.prepare(
      `SELECT ${workbookSummaryColumns} FROM workbooks
       WHERE owner_id = @ownerId AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"} AND (@beforeId IS NULL OR id < @beforeId)
         AND (@needle IS NULL OR instr(name_folded, @needle) > 0)
       ORDER BY id DESC LIMIT @limit`,
    );
  return {
    insert: db.prepare(
      `INSERT INTO workbooks (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, deleted_at,
         size_bytes, cells, sheets, manifest_hash)
       VALUES (@id, @ownerId, @name, @nameFolded, @createdAt, @createdAt, 1, @updatedBy, @source, NULL, @sizeBytes, @cells, @sheets,
         @manifestHash)`,
    ),
    list: list(false),
    listTrash: list(true),
    keepVersion: db.prepare(
      `INSERT INTO workbook_versions (workbook_id, version, owner_id, name, created_at, created_by, replaced_at, source, size_bytes,
         cells, sheets, manifest_hash)
       SELECT id, version, owner_id, name, updated_at, updated_by, @at, source, size_bytes, cells, sheets, manifest_hash
       FROM workbooks WHERE id = @id`,
    ),
    changeContent: db.prepare(
      `UPDATE workbooks SET name = @name, name_folded = @nameFolded, updated_at = @at, updated_by = @actorId, source = @source,
         version = version + 1, size_bytes = @sizeBytes, cells = @cells, sheets = @sheets, manifest_hash = @manifestHash
       WHERE id = @id`,
    ),
    changeName: db.prepare(
      `UPDATE workbooks SET name = @name, name_folded = @nameFolded, updated_at = @at, updated_by = @actorId, source = @source,
         version = version + 1
       WHERE id = @id`,
    ),
    trash: db.prepare(`UPDATE workbooks SET deleted_at = ? WHERE id = ?`),
    endShares: db.prepare(`DELETE FROM shares WHERE target_id = ?`),
    untrash: db.prepare(`UPDATE workbooks SET deleted_at = NULL WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    trashedBefore: db.prepare(`SELECT owner_id, id FROM workbooks WHERE deleted_at IS NOT NULL AND deleted_at < ?`),
    isTrashed: db.prepare(`SELECT 1 FROM workbooks WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    manifestsOf: db.prepare(
      `SELECT manifest_hash FROM workbooks WHERE id = @id UNION SELECT manifest_hash FROM workbook_versions WHERE workbook_id = @id`,
    ),
    purge: [
      db.prepare(`DELETE FROM workbook_versions WHERE workbook_id = ?`),
      db.prepare(`DELETE FROM workbook_values WHERE workbook_id = ?`),
      db.prepare(`DELETE FROM shares WHERE target_id = ?`),
      db.prepare(`DELETE FROM idempotency WHERE target_id = ?`),
      db.prepare(`DELETE FROM workbooks WHERE id = ?`),
    ],
  };
}

type Statements = ReturnType<typeof statements>;

/** Create and change, the writes that store content. */
function contentWrites(ctx: SqliteContext, stmt: Statements) {
  const { db, workbooks, blobs, values } = ctx;
  const idempotency = idempotencyStatements(db);

  const create = db.transaction((input: NewWorkbook, claim: IdempotencyClaim | undefined): WorkbookCreateResult => {
    if (claim) {
      const hit = idempotency.find(input.ownerId, { ...claim, operation: claim.operation ?? "sheets.create" });
      const first = hit && ((hit.response as WorkbookRecord | null) ?? workbooks.any(input.ownerId, hit.targetId));
      if (hit && first) return { workbook: first, replayed: true, fingerprint: hit.fingerprint };
    }
    blobs.put(input.ownerId, input);
    const record = newWorkbookRecord(input);
    stmt.insert.run({ ...record, nameFolded: foldName(record.name), sheets: JSON.stringify(record.sheets) });
    values.put(record.id, 1, input.values ?? []);
    if (claim)
      idempotency.claim(input.ownerId, { ...claim, operation: claim.operation ?? "sheets.create" }, record.id, record.createdAt, record);
    return { workbook: record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
  });

  // The current version's metadata is copied into workbook_versions (its manifest stays shared),
  // then replaced; a replayed key or a stale expectedVersion writes nothing.
  const change = db.transaction((input: WorkbookChange): WorkbookChangeResult => {
    const current = workbooks.live(input.ownerId, input.id);
    if (!current) return { ok: false, reason: "not_found" };
    const claim = input.idempotency?.claim;
    const hit = claim && idempotency.find(input.ownerId, claim);
    if (hit) return { ok: false, reason: "replayed", response: hit.response, fingerprint: hit.fingerprint };
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
      return { ok: false, reason: "conflict", current: current.version };
    }
    stmt.keepVersion.run({ id: input.id, at: input.at });
    const name = input.name ?? current.name;
    const common = { id: input.id, name, nameFolded: foldName(name), at: input.at, actorId: input.actorId, source: input.source };
    if (input.content) {
      const { sizeBytes, cells, sheets, manifestHash } = input.content;
      blobs.put(input.ownerId, input.content);
      stmt.changeContent.run({ ...common, sizeBytes, cells, sheets: JSON.stringify(sheets), manifestHash });
    } else {
      stmt.changeName.run(common);
    }
    values.apply(input.id, current.version + 1, input.values);
    const workbook = workbooks.live(input.ownerId, input.id)!;
    if (claim) idempotency.claim(input.ownerId, claim, input.id, input.at, input.idempotency!.response(workbook));
    return { ok: true, workbook };
  });
  return { create, change };
}

/** Trash, restore and purge. */
function trashWrites(ctx: SqliteContext, stmt: Statements) {
  const { db, workbooks, blobs } = ctx;
  const trash = db.transaction((ownerId: string, id: string, at: string, expectedVersion: number | undefined): WorkbookChangeResult => {
    const current = workbooks.live(ownerId, id);
    if (!current) return { ok: false, reason: "not_found" };
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      return { ok: false, reason: "conflict", current: current.version };
    }
    stmt.trash.run(at, id);
    // Deleting ends the workbook's links at once, for good, as for documents.
    stmt.endShares.run(id);
    return { ok: true, workbook: { ...current, deletedAt: at } };
  });
  const purgeOne = (ownerId: string, id: string): void => {
    const manifests = (stmt.manifestsOf.all({ id }) as { manifest_hash: string }[]).map((row) => row.manifest_hash);
    for (const statement of stmt.purge) statement.run(id);
    blobs.collect(ownerId, manifests);
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
  return { trash, purge, purgeTrash };
}

type WorkbookRecords = Omit<WorkbookStore, "listWorkbookVersions" | "getWorkbookVersion" | "pruneWorkbookVersions">;

export function createSqliteWorkbooks(ctx: SqliteContext): WorkbookRecords {
  const { db, workbooks, blobs, values } = ctx;
  const stmt = statements(ctx);
  const { create, change } = contentWrites(ctx, stmt);
  const { trash, purge, purgeTrash } = trashWrites(ctx, stmt);
  return {
    createWorkbook: async (workbook, claim) => create.immediate(workbook, claim),
    getWorkbook: async (ownerId, id, options) => (options?.includeDeleted ? workbooks.any(ownerId, id) : workbooks.live(ownerId, id)),
    async getWorkbooks(ownerId, ids) {
      if (ids.length === 0) return [];
      const placeholders = ids.map(() => "?").join(", ");
      const rows = db
        .prepare(`SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = ? AND deleted_at IS NULL AND id IN (${placeholders})`)
        .all(ownerId, ...ids) as WorkbookRow[];
      return rows.map(toWorkbook);
    },
    listWorkbooks: async (query) => (stmt.list.all(listParams(query)) as WorkbookRow[]).map(toWorkbook),
    listWorkbookTrash: async (query) => (stmt.listTrash.all(listParams(query)) as WorkbookRow[]).map(toWorkbook),
    changeWorkbook: async (input) => change.immediate(input),
    trashWorkbook: async ({ ownerId, id, at, expectedVersion }) => trash.immediate(ownerId, id, at, expectedVersion),
    async restoreWorkbook(ownerId, id) {
      if (stmt.untrash.run(ownerId, id).changes === 0) return null;
      return workbooks.live(ownerId, id);
    },
    purgeWorkbook: async (ownerId, id) => purge.immediate(ownerId, id),
    purgeWorkbookTrash: async (deletedBefore) => purgeTrash.immediate(deletedBefore),
    getBlobs: async (ownerId, hashes) => blobs.get(ownerId, hashes),
    getValueTiles: async (ownerId, workbookId, keys) => values.get(ownerId, workbookId, keys),
  };
}
