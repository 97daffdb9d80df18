// Workbooks on PostgreSQL: the one lifecycle (../lifecycle.ts) over content kept as blobs (blobs.ts,
// under the owner's usage lock), and what only workbooks have: the current version's value tiles,
// written with each create and change, read with the blobs.
import { workbookKind } from "../kinds.ts";
import type { NewWorkbook, WorkbookChange, WorkbookContent, WorkbookItems, WorkbookRecord, WorkbookVersionRecord } from "../types.ts";
import { applyValueTiles, collectBlobs, getBlobs, getValueTiles, putBlobs, putValueTiles } from "./blobs.ts";
import type { PgContext } from "./connection.ts";
import { itemLifecycle } from "../lifecycle.ts";
import type { Executor } from "../sql.ts";
import type pg from "pg";

export function createPostgresWorkbooks(ctx: PgContext, sql: Executor<pg.PoolClient>): WorkbookItems {
  const items = itemLifecycle<WorkbookRecord, WorkbookVersionRecord, WorkbookContent, NewWorkbook, WorkbookChange, pg.PoolClient>(
    sql,
    workbookKind,
    {
      async put(client, ownerId, content: WorkbookContent) {
        await putBlobs(client, ctx.quota, ownerId, content);
        const { sizeBytes, cells, sheets, manifestHash } = content;
        return { size_bytes: sizeBytes, cells, sheets: JSON.stringify(sheets), manifest_hash: manifestHash };
      },
      collect: collectBlobs,
      created: (client, record, input: NewWorkbook) => putValueTiles(client, record.id, 1, input.values ?? []),
      changed: (client, record, change: WorkbookChange) => applyValueTiles(client, record.id, record.version, change.values),
    },
  );
  return {
    ...items,
    getBlobs: (ownerId, hashes) => getBlobs(ctx, ownerId, hashes),
    getValueTiles: (ownerId, workbookId, keys) => getValueTiles(ctx, ownerId, workbookId, keys),
  };
}
