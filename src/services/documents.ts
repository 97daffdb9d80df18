// Documents operations: the one implementation the operation table's rows run (REST, GraphQL,
// tRPC, MCP), on input the runner has validated with the row's schema (each method's input type
// is that schema's output). The list, the trash, share links and the version list are the one
// service lifecycle (./lifecycle.ts); reads, writes and versions' content are in document-*.ts.
import type { z } from "zod";
import type { DocumentRenderer } from "../documents/renderer.ts";
import type {
  createShareInputSchema,
  deleteDocumentInputSchema,
  documentRefInputSchema,
  listDocumentsInputSchema,
  listVersionsInputSchema,
  revokeShareInputSchema,
  CreatedShare,
  DocumentList,
  DocumentShare,
  DocumentSummary,
  DocumentVersionList,
  TrashList,
} from "../contract/documents.ts";
import type { RequestContext } from "../core/context.ts";
import type { DocumentRecord, Store } from "../store/types.ts";
import { documentItems, toSummary } from "./document-access.ts";
import { createReadsService, type ReadsService } from "./document-reads.ts";
import { createVersionsService, type VersionsService } from "./document-versions.ts";
import { createWritesService, type WritesService } from "./document-writes.ts";
import { serviceLifecycle } from "./lifecycle.ts";

export { decodeCursor, encodeCursor, etagOf, toSummary } from "./document-access.ts";
export { DOCX_UPLOAD_LIMIT_BYTES } from "../documents/import/limits.ts";
export type { UploadedDocx } from "./document-create.ts";
export type { Download } from "./document-reads.ts";

type Ctx = RequestContext;
type Ref = z.output<typeof documentRefInputSchema>;

/** The lifecycle every stored kind shares, as documents answer it. */
export interface LifecycleService {
  list(ctx: Ctx, input: z.output<typeof listDocumentsInputSchema>): Promise<DocumentList>;
  /** Documents in the trash, newest first, each with deletedAt. */
  trash(ctx: Ctx, input: z.output<typeof listDocumentsInputSchema>): Promise<TrashList>;
  /** Moves the document to the trash. */
  delete(ctx: Ctx, input: z.output<typeof deleteDocumentInputSchema>): Promise<void>;
  restore(ctx: Ctx, input: Ref): Promise<DocumentSummary>;
  /** Deletes a document in the trash for good, with its versions and shares. */
  purge(ctx: Ctx, input: Ref): Promise<void>;
  share(ctx: Ctx, input: z.output<typeof createShareInputSchema>): Promise<CreatedShare>;
  /** The document's valid shares (never their tokens). */
  shares(ctx: Ctx, input: Ref): Promise<{ shares: DocumentShare[] }>;
  revokeShare(ctx: Ctx, input: z.output<typeof revokeShareInputSchema>): Promise<void>;
  /** Newest first, the current version included. */
  versions(ctx: Ctx, input: z.output<typeof listVersionsInputSchema>): Promise<DocumentVersionList>;
}

export interface DocumentsService extends LifecycleService, ReadsService, WritesService, VersionsService {}

export interface DocumentsServiceDeps {
  store: Store;
  renderer: DocumentRenderer;
  publicUrl?: string;
}

export function createDocumentsService(deps: DocumentsServiceDeps): DocumentsService {
  const { store, renderer } = deps;
  const summary = (record: DocumentRecord) => toSummary(record, deps.publicUrl);
  const shared = { store, renderer, summary };
  const items = serviceLifecycle(documentItems, { store, publicUrl: deps.publicUrl ?? "" });
  return {
    ...createReadsService(shared),
    ...createWritesService(shared),
    ...createVersionsService(shared),
    async list(ctx, input) {
      const { items: records, nextCursor } = await items.list(ctx, input);
      return { documents: records.map(summary), nextCursor };
    },
    async trash(ctx, input) {
      const { items: records, nextCursor } = await items.list(ctx, input, true);
      return { documents: records.map((record) => ({ ...summary(record), deletedAt: record.deletedAt ?? "" })), nextCursor };
    },
    delete: (ctx, input) => items.trash(ctx, input),
    restore: async (ctx, input) => summary(await items.restore(ctx, input)),
    purge: (ctx, input) => items.purge(ctx, input),
    share: (ctx, input) => items.share(ctx, input),
    shares: (ctx, input) => items.shares(ctx, input),
    revokeShare: (ctx, input) => items.revokeShare(ctx, input),
    async versions(ctx, input) {
      const { items: versions, nextCursor } = await items.versions(ctx, input);
      return { versions, nextCursor };
    },
  };
}
