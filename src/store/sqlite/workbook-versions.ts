// Workbook versions on SQLite: the current version is the workbook row, earlier ones rows of
// workbook_versions, each naming its manifest.
import type { WorkbookStore } from "../types.ts";
import { currentWorkbookVersion, toWorkbookVersion, workbookVersionColumns, type WorkbookVersionRow } from "../workbook-rows.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteWorkbookVersions(
  ctx: SqliteContext,
): Pick<WorkbookStore, "listWorkbookVersions" | "getWorkbookVersion" | "pruneWorkbookVersions"> {
  const { db, workbooks, blobs } = ctx;
  const stmt = {
    list: db.prepare(
      `SELECT ${workbookVersionColumns} FROM workbook_versions
       WHERE workbook_id = @id AND version < @before ORDER BY version DESC LIMIT @limit`,
    ),
    get: db.prepare(`SELECT ${workbookVersionColumns} FROM workbook_versions WHERE workbook_id = ? AND version = ?`),
    prune: db.prepare(
      `DELETE FROM workbook_versions WHERE replaced_at < ?
         AND version <= (SELECT w.version FROM workbooks w WHERE w.id = workbook_versions.workbook_id) - ?
       RETURNING owner_id, manifest_hash`,
    ),
  };
  // The versions go, then the blobs only their manifests referred to, in one transaction.
  const prune = db.transaction((replacedBefore: string, keepMin: number): number => {
    const gone = stmt.prune.all(replacedBefore, keepMin) as { owner_id: string; manifest_hash: string }[];
    const byOwner = new Map<string, string[]>();
    for (const row of gone) byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), row.manifest_hash]);
    for (const [ownerId, manifests] of byOwner) blobs.collect(ownerId, manifests);
    return gone.length;
  });
  return {
    async listWorkbookVersions({ ownerId, id, beforeVersion, limit }) {
      const workbook = workbooks.live(ownerId, id);
      if (!workbook) return null;
      const before = beforeVersion ?? Number.MAX_SAFE_INTEGER;
      const head = workbook.version < before ? [currentWorkbookVersion(workbook)] : [];
      const rest = limit - head.length;
      const older = rest > 0 ? (stmt.list.all({ id, before, limit: rest }) as WorkbookVersionRow[]).map(toWorkbookVersion) : [];
      return [...head, ...older];
    },
    async getWorkbookVersion(ownerId, id, n) {
      const workbook = workbooks.live(ownerId, id);
      if (!workbook || !Number.isSafeInteger(n) || n < 1 || n > workbook.version) return null;
      if (n === workbook.version) return { workbook, version: currentWorkbookVersion(workbook) };
      const row = stmt.get.get(id, n) as WorkbookVersionRow | undefined;
      return row ? { workbook, version: toWorkbookVersion(row) } : null;
    },
    pruneWorkbookVersions: async (replacedBefore, keepMin) => prune.immediate(replacedBefore, keepMin),
  };
}
