// The store's methods for each kind (types/documents.ts, types/versions.ts, types/workbooks.ts)
// over the kind's one lifecycle (kinds.ts), whichever database implements it: the names the
// service layer calls, the records named after the kind, nothing else.
import { created, documentKind, named, workbookKind, type Lifecycle } from "./kinds.ts";
import { newRecord, newWorkbookRecord } from "./types.ts";
import type { DocumentContent, DocumentRecord, DocumentStore, NewDocument, NewWorkbook, VersionRecord, VersionStore } from "./types.ts";
import type { WorkbookChange, WorkbookContent, WorkbookRecord, WorkbookStore, WorkbookVersionRecord } from "./types.ts";

type DocumentLifecycle = Lifecycle<DocumentRecord, VersionRecord, DocumentContent, NewDocument>;
/** What the lifecycle answers for documents; their content reads are the database's own. */
export type DocumentRecords = Omit<DocumentStore, "readText" | "readContent"> & Pick<VersionStore, "listVersions" | "pruneVersions">;

export function documentRecords(items: DocumentLifecycle): DocumentRecords {
  return {
    async createDocument(doc, claim) {
      const { record, replayed, fingerprint } = await items.create(newRecord(doc), doc, claim);
      return created(documentKind, record, replayed, fingerprint);
    },
    getDocument: (ownerId, id, options) => items.get(ownerId, id, options?.includeDeleted === true),
    getDocuments: (ownerId, ids) => items.getMany(ownerId, ids),
    listDocuments: (query) => items.list(query, false),
    listTrash: (query) => items.list(query, true),
    changeDocument: async (change) => named(documentKind, await items.change(change)),
    trashDocument: async (input) => named(documentKind, await items.trash(input)),
    restoreFromTrash: (ownerId, id) => items.restore(ownerId, id),
    purgeDocument: (ownerId, id) => items.purge(ownerId, id),
    purgeTrash: (deletedBefore) => items.purgeTrash(deletedBefore),
    listVersions: (query) => items.listVersions(query),
    pruneVersions: (replacedBefore, keepMin) => items.prune(replacedBefore, keepMin),
  };
}

type WorkbookLifecycle = Lifecycle<WorkbookRecord, WorkbookVersionRecord, WorkbookContent, NewWorkbook, WorkbookChange>;
/** What the lifecycle answers for workbooks; blobs and value tiles are the database's own. */
export type WorkbookRecords = Omit<WorkbookStore, "getBlobs" | "getValueTiles">;

export function workbookRecords(items: WorkbookLifecycle): WorkbookRecords {
  return {
    async createWorkbook(workbook, claim) {
      const { record, replayed, fingerprint } = await items.create(newWorkbookRecord(workbook), workbook, claim);
      return created(workbookKind, record, replayed, fingerprint);
    },
    getWorkbook: (ownerId, id, options) => items.get(ownerId, id, options?.includeDeleted === true),
    getWorkbooks: (ownerId, ids) => items.getMany(ownerId, ids),
    listWorkbooks: (query) => items.list(query, false),
    listWorkbookTrash: (query) => items.list(query, true),
    changeWorkbook: async (change) => named(workbookKind, await items.change(change)),
    trashWorkbook: async (input) => named(workbookKind, await items.trash(input)),
    restoreWorkbook: (ownerId, id) => items.restore(ownerId, id),
    purgeWorkbook: (ownerId, id) => items.purge(ownerId, id),
    purgeWorkbookTrash: (deletedBefore) => items.purgeTrash(deletedBefore),
    listWorkbookVersions: (query) => items.listVersions(query),
    async getWorkbookVersion(ownerId, id, n) {
      const found = await items.getVersion(ownerId, id, n);
      return found && { workbook: found.record, version: found.version };
    },
    pruneWorkbookVersions: (replacedBefore, keepMin) => items.prune(replacedBefore, keepMin),
  };
}
