// Workbooks on SQLite: the one lifecycle (../lifecycle.ts) over content kept as blobs (blobs.ts,
// shared by versions, collected when nothing refers to them), and what only workbooks have: the
// current version's value tiles, written with each create and change, read with the blobs.
import { workbookKind } from "../kinds.ts";
import { itemLifecycle } from "../lifecycle.ts";
import type { NewWorkbook, WorkbookChange, WorkbookContent, WorkbookItems, WorkbookRecord, WorkbookVersionRecord } from "../types.ts";
import type { Db } from "./connection.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteWorkbooks(ctx: SqliteContext): WorkbookItems {
  const { blobs, values } = ctx;
  const items = itemLifecycle<WorkbookRecord, WorkbookVersionRecord, WorkbookContent, NewWorkbook, WorkbookChange, Db>(
    ctx.sql,
    workbookKind,
    {
      put(_, ownerId, content: WorkbookContent) {
        blobs.put(ownerId, content);
        const { sizeBytes, cells, sheets, manifestHash } = content;
        return { size_bytes: sizeBytes, cells, sheets: JSON.stringify(sheets), manifest_hash: manifestHash };
      },
      collect: (_, ownerId, manifests) => blobs.collect(ownerId, manifests),
      created: (_, record, input: NewWorkbook) => values.put(record.id, 1, input.values ?? []),
      changed: (_, record, change: WorkbookChange) => values.apply(record.id, record.version, change.values),
    },
  );
  return {
    ...items,
    getBlobs: async (ownerId, hashes) => blobs.get(ownerId, hashes),
    getValueTiles: async (ownerId, workbookId, keys) => values.get(ownerId, workbookId, keys),
  };
}
