// Workbooks on PostgreSQL: the one lifecycle (../lifecycle.ts) over content kept as blobs (blobs.ts,
// under the owner's usage lock), and what only workbooks have: the current version's value tiles,
// written with each create and change, read with the blobs.
import { workbookKind } from "../kinds.ts";
import type { NewWorkbook, WorkbookChange, WorkbookContent, WorkbookItems } from "../types.ts";
import { applyValueTiles, collectBlobs, getBlobs, getValueTiles, putBlobs, putValueTiles } from "./blobs.ts";
import type { PgContext } from "./connection.ts";
import { itemLifecycle } from "../lifecycle.ts";
import { call, type Executor } from "../sql.ts";
import { contentColumns } from "../rows.ts";
import type pg from "pg";

export function createPostgresWorkbooks(ctx: PgContext, sql: Executor<pg.PoolClient>): WorkbookItems {
  const items = itemLifecycle(sql, workbookKind, {
    *put(ownerId, content: WorkbookContent) {
      yield* call((client: pg.PoolClient) => putBlobs(client, ctx.quota, ownerId, content));
      return contentColumns(content);
    },
    collect: (ownerId, manifests) => call((client: pg.PoolClient) => collectBlobs(client, ownerId, manifests)),
    created: (record, input: NewWorkbook) => call((client: pg.PoolClient) => putValueTiles(client, record.id, 1, input.values ?? [])),
    changed: (record, change: WorkbookChange) =>
      call((client: pg.PoolClient) => applyValueTiles(client, record.id, record.version, change.values)),
  });
  return {
    ...items,
    getBlobs: (ownerId, hashes) => getBlobs(ctx, ownerId, hashes),
    getValueTiles: (ownerId, workbookId, keys) => getValueTiles(ctx, ownerId, workbookId, keys),
  };
}
