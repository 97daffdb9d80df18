// Documents operations: the one implementation the operation table's rows run (REST, GraphQL,
// tRPC, MCP). Scopes, validation, limits, paging, idempotency and preconditions live here and
// nowhere else; reads, writes, versions, trash and shares are in their own files (document-*.ts),
// composed below.
import type { DocumentRenderer } from "../documents/renderer.ts";
import type { DocumentRecord, Store } from "../store/types.ts";
import { toSummary } from "./document-access.ts";
import { createReadsService, type ReadsService } from "./document-reads.ts";
import { createSharesService, type SharesService } from "./document-shares.ts";
import { createTrashService, type TrashService } from "./document-trash.ts";
import { createVersionsService, type VersionsService } from "./document-versions.ts";
import { createWritesService, type WritesService } from "./document-writes.ts";

export { decodeCursor, encodeCursor, etagOf, toSummary } from "./document-access.ts";
export { DOCX_UPLOAD_LIMIT_BYTES } from "../documents/import/limits.ts";
export type { UploadedDocx } from "./document-create.ts";
export type { Download } from "./document-reads.ts";

export interface DocumentsService extends ReadsService, WritesService, VersionsService, TrashService, SharesService {}

export interface DocumentsServiceDeps {
  store: Store;
  renderer: DocumentRenderer;
  publicUrl?: string;
}

export function createDocumentsService(deps: DocumentsServiceDeps): DocumentsService {
  const { store, renderer } = deps;
  const summary = (record: DocumentRecord) => toSummary(record, deps.publicUrl);
  const shared = { store, renderer, summary };
  return {
    ...createReadsService(shared),
    ...createWritesService(shared),
    ...createVersionsService(shared),
    ...createTrashService(shared),
    ...createSharesService({ ...shared, publicUrl: deps.publicUrl ?? "" }),
  };
}
