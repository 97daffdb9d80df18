// Documents operations: the one implementation the operation table's rows run (REST, GraphQL,
// tRPC, MCP), on input the runner has validated with the row's schema (each method's input type
// is that schema's output), in the same style as spreadsheets (./spreadsheets/index.ts): free
// functions over the service's dependencies, composed here. The list, the trash, share links and
// the version list are the one service lifecycle (./lifecycle.ts); reads, writes and versions'
// content are in document-*.ts.
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import type * as contract from "../contract/documents.ts";
import type { DocumentVersion } from "../contract/documents.ts";
import type { DocumentRecord, TextFormat } from "../store/types.ts";
import { documentItems, toSummary, type DocsDeps } from "./document-access.ts";
import type { UploadedDocx } from "./document-create.ts";
import { downloadDocument, downloadShared, getDocument, readDocument, readShared } from "./document-reads.ts";
import { downloadVersion, getVersion, readVersion, restoreVersion } from "./document-versions.ts";
import { createDocument, importDocument, updateDocument, updateFromDocx } from "./document-writes.ts";
import { serviceLifecycle } from "./lifecycle.ts";

type Ctx = RequestContext;
/** What the row's input schema gives the service once the runner has parsed it. */
type In<K extends keyof typeof contract> = (typeof contract)[K] extends z.ZodType ? z.output<(typeof contract)[K]> : never;

export type DocumentsService = ReturnType<typeof createDocumentsService>;

export function createDocumentsService({ store, renderer, publicUrl = "" }: Omit<DocsDeps, "summary"> & { publicUrl?: string }) {
  const summary = (record: DocumentRecord) => toSummary(record, publicUrl);
  const deps: DocsDeps = { store, renderer, summary };
  const lifecycle = serviceLifecycle(
    documentItems,
    { store, publicUrl },
    {
      record: summary,
      version: (version): DocumentVersion => version,
      key: "documents",
      /** Documents in the trash, each with deletedAt. */
      trashed: (record) => ({ ...summary(record), deletedAt: record.deletedAt ?? "" }),
    },
  );
  return {
    ...lifecycle,
    /** One document's summary, or null when missing or someone else's (GraphQL `document`). */
    get: (ctx: Ctx, input: In<"getDocumentInputSchema">) => getDocument(deps, ctx, input),
    read: (ctx: Ctx, input: In<"readDocumentInputSchema">) => readDocument(deps, ctx, input),
    download: (ctx: Ctx, id: string) => downloadDocument(deps, ctx, id),
    create: (ctx: Ctx, input: In<"createDocumentInputSchema">) => createDocument(deps, ctx, input),
    /** A new document from an uploaded .docx (`name` defaults to the file's). */
    import: (ctx: Ctx, input: Omit<In<"importDocumentUploadInputSchema">, "file">, file: UploadedDocx) =>
      importDocument(deps, ctx, input, file),
    update: (ctx: Ctx, input: In<"updateDocumentInputSchema">) => updateDocument(deps, ctx, input),
    updateFromDocx: (ctx: Ctx, input: In<"replaceFromDocxInputSchema">, file: UploadedDocx) => updateFromDocx(deps, ctx, input, file),
    version: (ctx: Ctx, input: In<"versionRefInputSchema">) => getVersion(deps, ctx, input),
    readVersion: (ctx: Ctx, input: In<"readVersionInputSchema">) => readVersion(deps, ctx, input),
    downloadVersion: (ctx: Ctx, input: In<"versionRefInputSchema">) => downloadVersion(deps, ctx, input),
    restoreVersion: (ctx: Ctx, input: In<"restoreVersionInputSchema">) => restoreVersion(deps, ctx, input),
    /** What a share link reads (./shared.ts found the document). */
    readSharedDocument: (ctx: Ctx, document: DocumentRecord, input: { maxChars: number; format: TextFormat }) =>
      readShared(deps, ctx, document, input),
    downloadSharedDocument: (document: DocumentRecord) => downloadShared(deps, document),
  };
}
