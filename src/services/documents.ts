// Documents operations (docs/api.md "Living documents"), composed as spreadsheets' are
// (./spreadsheets/index.ts says how): the one service lifecycle (./lifecycle.ts), and the reads,
// writes and versions' content of document-*.ts.
import { isDocumentId, type DocumentVersion } from "../contract/documents.ts";
import type { DocumentRecord } from "../store/types.ts";
import { documentItems, toSummary, type DocsDeps } from "./document-access.ts";
import { downloadDocument, downloadShared, getDocument, readDocument, readShared } from "./document-reads.ts";
import { downloadVersion, readVersion } from "./document-versions.ts";
import { createDocument, importDocument, updateDocument, updateFromDocx } from "./document-writes.ts";
import { serviceLifecycle, withDeps } from "./lifecycle.ts";

export type DocumentsService = ReturnType<typeof createDocumentsService>;

export function createDocumentsService({ store, renderer, publicUrl = "" }: Omit<DocsDeps, "summary"> & { publicUrl?: string }) {
  const summary = (record: DocumentRecord) => toSummary(record, publicUrl);
  const deps: DocsDeps = { store, renderer, summary };
  return {
    ...serviceLifecycle(
      documentItems,
      { store, publicUrl },
      {
        record: summary,
        version: (version): DocumentVersion => version,
        key: "documents",
        versionContent: async (ownerId, id, version) => (isDocumentId(id) ? store.documents.readVersionData(ownerId, id, version) : null),
      },
    ),
    ...withDeps(deps, { get: getDocument, read: readDocument, download: downloadDocument, readShared, downloadShared }),
    ...withDeps(deps, { create: createDocument, import: importDocument, update: updateDocument, updateFromDocx }),
    ...withDeps(deps, { readVersion, downloadVersion }),
  };
}
