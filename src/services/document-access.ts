// What every documents operation shares: who may read or write, the public shape of a record and
// of a download, cursors, and the errors a conditional write ends in.
import type { DocumentRenderer } from "../documents/renderer.ts";
import { documentSummarySchema, isDocumentId, type DocumentSummary } from "../contract/documents.ts";
import { DOCX_MEDIA_TYPE, type StoredDownload } from "../contract/files.ts";
import type { DocumentChange, DocumentRecord, Store, VersionRecord } from "../store/types.ts";
import { serviceKind, shownAs } from "./lifecycle.ts";

export interface DocsDeps {
  store: Store;
  renderer: DocumentRenderer;
  /** A record as callers see it (links under PUBLIC_URL). */
  summary: (record: DocumentRecord) => DocumentSummary;
}

/** A .docx as every surface sends it: the document's name (at that version), its bytes, and the version they are. */
export const docxFile = (name: string, bytes: Uint8Array, version: number): StoredDownload => ({
  name,
  extension: "docx",
  contentType: DOCX_MEDIA_TYPE,
  bytes,
  version,
});

export const toSummary = shownAs(documentSummarySchema, "documents");

/** Documents as the one service lifecycle (./lifecycle.ts) sees them: who may (docs:read, docs:write), what a failed write answers. */
export const documentItems = serviceKind<DocumentRecord, VersionRecord, DocumentChange>({
  noun: "Document",
  scope: "docs",
  share: "document",
  store: "documents",
  isId: isDocumentId,
  cursors: ["c1.", "v2."],
});
export const { owner, precheck, write: writeVersion } = documentItems;
