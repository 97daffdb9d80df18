// Documents operations: the one implementation the operation table's rows run (REST, GraphQL,
// tRPC, MCP), on input the runner has validated with the row's schema (each method's input type
// is that schema's output), in the same style as spreadsheets (./spreadsheets/index.ts): free
// functions over the service's dependencies, composed here. The list, the trash, share links and
// the versions are the one service lifecycle (./lifecycle.ts); reads, writes and versions' content
// are in document-*.ts.
import { isDocumentId, type DocumentVersion } from "../contract/documents.ts";
import type { DocumentRecord } from "../store/types.ts";
import { documentItems, toSummary, type DocsDeps } from "./document-access.ts";
import { downloadDocument, downloadShared, getDocument, readDocument, readShared } from "./document-reads.ts";
import { downloadVersion, getVersion, readVersion } from "./document-versions.ts";
import { createDocument, importDocument, updateDocument, updateFromDocx } from "./document-writes.ts";
import { serviceLifecycle, withDeps } from "./lifecycle.ts";

export type DocumentsService = ReturnType<typeof createDocumentsService>;

export function createDocumentsService({ store, renderer, publicUrl = "" }: Omit<DocsDeps, "summary"> & { publicUrl?: string }) {
  const summary = (record: DocumentRecord) => toSummary(record, publicUrl);
  const lifecycle = serviceLifecycle(
    documentItems,
    { store, publicUrl },
    {
      record: summary,
      version: (version): DocumentVersion => version,
      key: "documents",
      versionContent: async (ownerId, id, version) => (isDocumentId(id) ? store.documents.readVersionData(ownerId, id, version) : null),
    },
  );
  return {
    ...lifecycle,
    ...withDeps(
      { store, renderer, summary },
      { get: getDocument, read: readDocument, download: downloadDocument, readShared, downloadShared },
    ),
    ...withDeps({ store, renderer, summary }, { create: createDocument, import: importDocument, update: updateDocument, updateFromDocx }),
    ...withDeps({ store, renderer, summary }, { version: getVersion, readVersion, downloadVersion }),
  };
}
