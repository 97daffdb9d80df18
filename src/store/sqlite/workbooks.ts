// Workbooks on SQLite: the one lifecycle (../lifecycle.ts) over content kept as blobs (blobs.ts,
// shared by versions, collected when nothing refers to them). A large content's blobs are staged
// (blobs.ts) before the transaction that names them, and collected again when that transaction
// fails or writes nothing.
import { workbookItems } from "../contents.ts";
import type { WorkbookItems } from "../types.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteWorkbooks(ctx: SqliteContext): WorkbookItems {
  const { blobs } = ctx;
  // Synchronous writes, as steps of the transaction.
  const items = workbookItems(ctx.sql, {
    put: (_, ownerId, content) => blobs.put(ownerId, content),
    collect: (_, ownerId, manifests) => blobs.collect(ownerId, manifests),
    getBlobs: async (ownerId, hashes) => blobs.get(ownerId, hashes),
  });
  return {
    ...items,
    async create(input, claim) {
      const staged = await blobs.stage(input.ownerId, input);
      const created = await items.create(input, claim).catch((error: unknown) => {
        blobs.unstage(staged);
        throw error;
      });
      if (created.replayed) blobs.unstage(staged);
      return created;
    },
    async change(input) {
      const staged = input.content && (await blobs.stage(input.ownerId, input.content));
      const changed = await items.change(input).catch((error: unknown) => {
        blobs.unstage(staged);
        throw error;
      });
      if (!changed.ok) blobs.unstage(staged);
      return changed;
    },
  };
}
