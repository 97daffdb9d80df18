// Workbooks on PostgreSQL: the one lifecycle over blobs (../contents.ts, blobs.ts, under the
// owner's usage lock).
import { workbookItems } from "../contents.ts";
import type { Executor } from "../sql.ts";
import { collectBlobs, getBlobs, putBlobs } from "./blobs.ts";
import type { PgContext } from "./connection.ts";
import type pg from "pg";

export const createPostgresWorkbooks = (ctx: PgContext, sql: Executor<pg.PoolClient>) =>
  workbookItems(sql, {
    put: (client, owner, content) => putBlobs(client, ctx.quota, owner, content),
    collect: collectBlobs,
    getBlobs: (ownerId, hashes) => getBlobs(ctx, ownerId, hashes),
  });
