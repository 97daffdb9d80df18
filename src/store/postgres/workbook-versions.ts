// Workbook versions on PostgreSQL (see sqlite/workbook-versions.ts).
import type { WorkbookRecord, WorkbookStore } from "../types.ts";
import { currentWorkbookVersion, toWorkbook, toWorkbookVersion, workbookSummaryColumns, workbookVersionColumns } from "../workbook-rows.ts";
import type { WorkbookRow, WorkbookVersionRow } from "../workbook-rows.ts";
import { collectBlobs } from "./blobs.ts";
import { inTransaction, type PgContext } from "./connection.ts";

const MAX_INT = 2_147_483_647;

export function createPostgresWorkbookVersions({
  pool,
}: PgContext): Pick<WorkbookStore, "listWorkbookVersions" | "getWorkbookVersion" | "pruneWorkbookVersions"> {
  const live = async (ownerId: string, id: string): Promise<WorkbookRecord | null> => {
    const { rows } = await pool.query<WorkbookRow>(
      `SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [ownerId, id],
    );
    return rows[0] ? toWorkbook(rows[0]) : null;
  };
  return {
    async listWorkbookVersions({ ownerId, id, beforeVersion, limit }) {
      const workbook = await live(ownerId, id);
      if (!workbook) return null;
      const before = Math.min(beforeVersion ?? MAX_INT, MAX_INT);
      const head = workbook.version < before ? [currentWorkbookVersion(workbook)] : [];
      const rest = limit - head.length;
      if (rest <= 0) return head;
      const { rows } = await pool.query<WorkbookVersionRow>(
        `SELECT ${workbookVersionColumns} FROM workbook_versions WHERE workbook_id = $1 AND version < $2 ORDER BY version DESC LIMIT $3`,
        [id, before, rest],
      );
      return [...head, ...rows.map(toWorkbookVersion)];
    },
    async getWorkbookVersion(ownerId, id, n) {
      if (!Number.isSafeInteger(n) || n < 1 || n > MAX_INT) return null;
      const workbook = await live(ownerId, id);
      if (!workbook || n > workbook.version) return null;
      if (n === workbook.version) return { workbook, version: currentWorkbookVersion(workbook) };
      const { rows } = await pool.query<WorkbookVersionRow>(
        `SELECT ${workbookVersionColumns} FROM workbook_versions WHERE workbook_id = $1 AND version = $2`,
        [id, n],
      );
      return rows[0] ? { workbook, version: toWorkbookVersion(rows[0]) } : null;
    },
    async pruneWorkbookVersions(replacedBefore, keepMin) {
      // The versions go, then the blobs only their manifests referred to, in one transaction.
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ owner_id: string; manifest_hash: string }>(
          `DELETE FROM workbook_versions v USING workbooks w
           WHERE w.id = v.workbook_id AND v.replaced_at < $1 AND v.version <= w.version - $2
           RETURNING v.owner_id, v.manifest_hash`,
          [replacedBefore, keepMin],
        );
        const byOwner = new Map<string, string[]>();
        for (const row of [...rows].sort((a, b) => (a.owner_id < b.owner_id ? -1 : a.owner_id > b.owner_id ? 1 : 0))) {
          byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), row.manifest_hash]);
        }
        for (const [ownerId, manifests] of byOwner) await collectBlobs(client, ownerId, manifests);
        return rows.length;
      });
    },
  };
}
