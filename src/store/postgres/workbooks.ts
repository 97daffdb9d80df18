// Workbooks on PostgreSQL: the one lifecycle (../lifecycle.ts) over blobs (../contents.ts,
// blobs.ts, under the owner's usage lock), and their reads.
import { workbookContent } from "../contents.ts";
import { workbookKind } from "../kinds.ts";
import { itemLifecycle } from "../lifecycle.ts";
import type { Executor } from "../sql.ts";
import type { WorkbookItems } from "../types.ts";
import { collectBlobs, getBlobs, putBlobs } from "./blobs.ts";
import type { PgContext } from "./connection.ts";
import type pg from "pg";

export const createPostgresWorkbooks = (ctx: PgContext, sql: Executor<pg.PoolClient>): WorkbookItems => ({
  ...itemLifecycle(
    sql,
    workbookKind,
    workbookContent({
      put: (client, owner, content) => putBlobs(client, ctx.quota, owner, content),
      collect: collectBlobs,
    }),
  ),
  getBlobs: (ownerId, hashes) => getBlobs(ctx, ownerId, hashes),
});
