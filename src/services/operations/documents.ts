// The documents rows of the operation table (./types.ts): the gateway's own documents, each run by
// the documents service (src/services/documents.ts) for the caller's owner and scopes.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { GatewayError } from "../../core/errors.ts";
import { markReplayed } from "../../core/context.ts";
import { readInTurn } from "../../core/read-budget.ts";
import { strictObject } from "../../core/strict-object.ts";
import {
  DEFAULT_MAX_CHARS,
  DEFAULT_PAGE_SIZE,
  MARKDOWN_LIMIT,
  MAX_CHARS_LIMIT,
  SHARE_DEFAULT_SECONDS,
  createDocumentInputSchema,
  createShareInputSchema,
  createdShareSchema,
  deleteDocumentInputSchema,
  deletedSchema,
  documentListSchema,
  documentRefInputSchema,
  documentSummarySchema,
  documentTextSchema,
  getDocumentInputSchema,
  importDocumentUploadInputSchema,
  listDocumentsInputSchema,
  listTrashInputSchema,
  listVersionsInputSchema,
  purgedSchema,
  readDocumentInputSchema,
  readVersionInputSchema,
  renameDocumentInputSchema,
  restoreVersionInputSchema,
  revokeShareInputSchema,
  revokedSchema,
  shareListSchema,
  trashListSchema,
  updateDocumentInputSchema,
  updateDocumentUploadInputSchema,
  versionListSchema,
  versionRefInputSchema,
  versionSchema,
  type DocumentText,
} from "../../contract/documents.ts";
import { storedDownloadSchema } from "../../contract/files.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../../documents/import/limits.ts";
import { documentItems } from "../document-access.ts";
import { docxOf } from "../document-uploads.ts";
import { create, define, read, removes, replaces } from "./types.ts";

const n = (value: number) => value.toLocaleString("en");
const TRASH_DAYS = 30;
const PAGE = "Page with `limit` (1-100, default 50) and the `cursor` from nextCursor.";

/**
 * docs_read's text, plus a note when it is cut short: many hosts show the model only `content`,
 * so `truncated`/`totalChars` in structuredContent alone would go unnoticed.
 */
function readResult(body: DocumentText): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: body.text }];
  if (body.truncated) {
    const next =
      body.text.length < MAX_CHARS_LIMIT
        ? `call docs_read again with a larger maxChars (up to ${n(MAX_CHARS_LIMIT)})`
        : `docs_read returns at most ${n(MAX_CHARS_LIMIT)} characters; download the .docx for the rest`;
    content.push({ type: "text", text: `[truncated: showing ${n(body.text.length)} of ${n(body.totalChars)} characters; ${next}]` });
  }
  return { content, structuredContent: body };
}

/** An idempotency key's description for the tool that creates (each tool names itself). */
const idempotencyKeyFor = (tool: string) =>
  createDocumentInputSchema.shape.idempotencyKey.meta({
    description:
      `Optional, up to 255 characters. Send the same key when retrying a ${tool} whose answer you did not get: ` +
      "within 24 hours it returns the first document instead of creating another.",
  });

const docsCreateInput = createDocumentInputSchema.extend({ idempotencyKey: idempotencyKeyFor("docs_create") });

const docsReadInput = readDocumentInputSchema.extend({
  version: restoreVersionInputSchema.shape.version
    .optional()
    .meta({ description: "Read this earlier version (see docs_versions) instead of the current one" }),
});

/** docs_import's input: the .docx as base64 (an MCP call carries JSON, not files). */
const docsImportInput = strictObject({
  name: importDocumentUploadInputSchema.shape.name.unwrap().meta({ description: "Name of the new document, e.g. Q3 review" }),
  content: z
    .string()
    .max(64 * 1024 * 1024)
    .regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "must be base64")
    .meta({ description: "The .docx file's bytes, base64-encoded" }),
  idempotencyKey: idempotencyKeyFor("docs_import"),
});

const docsRestoreInput = strictObject({
  id: restoreVersionInputSchema.shape.id,
  version: restoreVersionInputSchema.shape.version
    .optional()
    .meta({ description: "Restore this version's content as the newest version. Leave it out to bring the document back from the trash." }),
  expectedVersion: restoreVersionInputSchema.shape.expectedVersion.meta({
    description: "With `version` only: the current version you expect; another one is PRECONDITION_FAILED and nothing is written.",
  }),
});

const deletedInTrashSchema = deletedSchema
  .extend({ inTrash: z.literal(true) })
  .meta({ description: `The document is in the trash, restorable with docs_restore for ${TRASH_DAYS} days` });

/** The cursor of a documents list, checked as GraphQL's `after`. */
const documentCursor = (document: { id: string }) => documentItems.cursors.encode(document.id);

export const documentOperations = {
  "documents.list": define({
    title: "List documents",
    kind: "query",
    auth: "docs:read",
    description:
      "List the caller's documents, newest first. Returns JSON {documents:[{id,name,createdAt,updatedAt,sizeBytes,characters,version,url,downloadUrl}], nextCursor}. " +
      `Filter with \`query\` (case-insensitive substring of the name); ${PAGE} Deleted documents are not listed.`,
    input: listDocumentsInputSchema,
    optionalInput: true,
    output: documentListSchema,
    annotations: read,
    mcp: { name: "docs_list", defaults: { limit: DEFAULT_PAGE_SIZE } },
    graphql: [{ field: "Query.documents", args: "connection", connection: { items: "documents", cursorOf: documentCursor } }],
    rest: { method: "GET", path: "/api/v1/documents" },
    run: ({ documents, ctx }, input) => documents.list(ctx, input),
  }),
  "documents.get": define({
    title: "Get a document's record",
    kind: "query",
    auth: "docs:read",
    description:
      "One document's record (id, name, dates, size, characters, version, links), or null when there is no such document of the caller's.",
    input: getDocumentInputSchema,
    output: documentSummarySchema.nullable(),
    annotations: read,
    graphql: [{ field: "Query.document" }],
    run: ({ documents, ctx }, input) => documents.get(ctx, input),
  }),
  "documents.read": define({
    title: "Read a document's text or markdown",
    kind: "query",
    auth: "docs:read",
    description:
      `Return the text of one document. format "text" (default): plain text extracted from its .docx (paragraphs separated by blank lines, list items and table cells on their own lines); ` +
      `format "markdown": markdown with headings, lists, tables, links, code and emphasis — read it this way to edit the document and send it back with docs_update. ` +
      `At most \`maxChars\` characters (1-1,000,000, default ${n(DEFAULT_MAX_CHARS)}); \`truncated\` says whether more exists and \`totalChars\` how much. ` +
      "When cut short, a second text block says so. The result's `version` is what docs_update's expectedVersion takes. " +
      "Pass `version` to read an earlier version (docs_versions lists them). Use docs_list to find the id.",
    input: readDocumentInputSchema,
    output: documentTextSchema,
    annotations: read,
    mcp: {
      name: "docs_read",
      input: docsReadInput,
      defaults: { maxChars: DEFAULT_MAX_CHARS, format: "text" },
      route: ({ version, ...args }: z.output<typeof docsReadInput>) =>
        version === undefined
          ? { operation: "documents.read", input: args }
          : { operation: "documents.readVersion", input: { ...args, version } },
      present: readResult,
    },
    graphql: [{ field: "Document.text", fromParent: (document: { id: string }) => ({ id: document.id }) }],
    rest: { method: "GET", path: "/api/v1/documents/{id}", etag: true },
    // Each text read takes its turn in the request's read budget (src/core/read-budget.ts).
    run: ({ documents, ctx }, input) => readInTurn(ctx, input.maxChars, () => documents.read(ctx, input)),
  }),
  "documents.create": define({
    title: "Create a Word document from markdown",
    kind: "mutation",
    auth: "docs:write",
    description:
      `Render markdown (CommonMark + GitHub tables, task lists, strikethrough) into a real .docx and store it for the caller. ` +
      `\`markdown\` may be at most ${n(MARKDOWN_LIMIT)} characters; \`name\` 1-255 characters. ` +
      "Returns the created document as JSON, including downloadUrl for the .docx. " +
      "Pass an `idempotencyKey` so that a retry does not create a second document.",
    input: createDocumentInputSchema,
    output: documentSummarySchema,
    // A retry with the same idempotencyKey creates nothing new; without one it creates another document.
    annotations: create,
    mcp: { name: "docs_create", input: docsCreateInput },
    graphql: [{ field: "Mutation.createDocument", args: "input" }],
    rest: { method: "POST", path: "/api/v1/documents", status: 201, idempotencyKey: true, location: true, etag: true },
    run: async ({ documents, ctx }, input) => {
      const { document, replayed } = await documents.create(ctx, input);
      if (replayed) markReplayed(ctx);
      return document;
    },
  }),
  "documents.import": define({
    title: "Import a .docx as a new document",
    kind: "mutation",
    auth: "docs:write",
    description:
      "Store an uploaded .docx (Word, LibreOffice, Google Docs; at most 25 MB, 200 MB or 10,000 entries unpacked) as a new document; " +
      "its text and markdown are extracted from the file. `name` defaults to the file's name. Returns the created document. " +
      "As the MCP tool docs_import: `name` and `content`, the .docx base64-encoded (an MCP request is limited by BODY_LIMIT_BYTES, " +
      "3 MiB by default, so about 2 MiB of file).",
    input: importDocumentUploadInputSchema,
    output: documentSummarySchema,
    annotations: create,
    upload: { field: "file", maxBytes: DOCX_UPLOAD_LIMIT_BYTES },
    mcp: {
      name: "docs_import",
      input: docsImportInput,
      // A File, as drive_upload's: it travels as it is over HTTP and as FormData over stdio.
      toInput: ({ name, content, idempotencyKey }: z.output<typeof docsImportInput>) => ({
        file: new File([Buffer.from(content, "base64")], `${name}.docx`, {
          type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        }),
        name,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      }),
    },
    graphql: [{ field: "Mutation.importDocument" }],
    rest: { method: "POST", path: "/api/v1/documents", body: "multipart", status: 201, idempotencyKey: true, location: true, etag: true },
    run: async ({ documents, ctx }, { file, ...input }) => {
      const { document, replayed } = await documents.import(ctx, input, await docxOf(file));
      if (replayed) markReplayed(ctx);
      return document;
    },
  }),
  "documents.download": define({
    title: "Download a document's .docx",
    kind: "query",
    auth: "docs:read",
    description: "The document's current .docx as stored, with its name as the file name and its version as the ETag.",
    input: documentRefInputSchema,
    output: storedDownloadSchema,
    annotations: read,
    trpc: false,
    rest: { method: "GET", path: "/api/v1/documents/{id}/content", response: "download" },
    run: ({ documents, ctx }, input) => documents.download(ctx, input.id),
  }),
  "documents.update": define({
    title: "Replace a document's content or rename it",
    kind: "mutation",
    auth: "docs:write",
    description:
      `Replace a document's content with new \`markdown\` (rendered as docs_create does, at most ${n(MARKDOWN_LIMIT)} characters) and/or give it a new \`name\`; ` +
      "at least one of the two. Each call makes a new version; the previous content stays readable and restorable (docs_versions, docs_restore). " +
      'To edit, read the document with docs_read format "markdown", change it, and send it back with the `version` you read as `expectedVersion`: ' +
      "if someone changed it meanwhile the call fails with PRECONDITION_FAILED and nothing is written. Returns the document with its new version.",
    input: updateDocumentUploadInputSchema,
    output: documentSummarySchema,
    // Replaces the current content (kept as a version, so recoverable); a repeat makes yet another
    // version unless expectedVersion makes it fail.
    annotations: replaces,
    upload: { field: "file", maxBytes: DOCX_UPLOAD_LIMIT_BYTES, optional: true },
    mcp: { name: "docs_update", input: updateDocumentInputSchema },
    graphql: [{ field: "Mutation.updateDocument", args: "input" }],
    rest: { method: "PUT", path: "/api/v1/documents/{id}", body: ["json", "multipart"], ifMatch: true, etag: true },
    run: async ({ documents, ctx }, { file, ...input }) =>
      file === undefined
        ? documents.update(ctx, input)
        : documents.updateFromDocx(
            ctx,
            { id: input.id, ...(input.name === undefined ? {} : { name: input.name }), expectedVersion: input.expectedVersion },
            await docxOf(file),
          ),
  }),
  "documents.rename": define({
    title: "Rename a document",
    kind: "mutation",
    auth: "docs:write",
    description:
      "Give a document a new `name` (1-255 characters): a new version with the same content. `expectedVersion` makes it conditional.",
    input: renameDocumentInputSchema,
    output: documentSummarySchema,
    annotations: replaces,
    rest: { method: "PATCH", path: "/api/v1/documents/{id}", ifMatch: true, etag: true },
    run: ({ documents, ctx }, input) => documents.rename(ctx, input),
  }),
  "documents.delete": define({
    title: "Move a document to the trash",
    kind: "mutation",
    auth: "docs:write",
    description:
      `Delete a document: it moves to the trash, disappears from docs_list and docs_read, and is kept ${TRASH_DAYS} days, during which docs_restore with just its id brings it back; ` +
      "after that it is gone for good. Its share links end at once. Pass `expectedVersion` to delete only the version you know (else PRECONDITION_FAILED, nothing deleted). " +
      "Returns {id, deleted: true, inTrash: true}.",
    input: deleteDocumentInputSchema,
    output: deletedSchema,
    // Destructive though recoverable from the trash; a repeat changes nothing (the document is
    // already in the trash: NOT_FOUND).
    annotations: removes,
    mcp: {
      name: "docs_delete",
      output: deletedInTrashSchema,
      toResult: (result: z.output<typeof deletedSchema>) => ({ ...result, inTrash: true }),
    },
    graphql: [{ field: "Mutation.deleteDocument" }],
    rest: { method: "DELETE", path: "/api/v1/documents/{id}", status: 204, response: "empty", ifMatch: true },
    run: async ({ documents, ctx }, input) => {
      await documents.delete(ctx, input);
      return { id: input.id, deleted: true as const };
    },
  }),
  "documents.versions": define({
    title: "List a document's versions",
    kind: "query",
    auth: "docs:read",
    description:
      "List the versions of one document, newest first (the current one included): {versions:[{version,name,createdAt,createdBy,sizeBytes,characters,source}], nextCursor}. " +
      `\`source\` says what made each: markdown, docx, rename or restore. ${PAGE} ` +
      "Read an old version with docs_read {id, version}; make it the newest with docs_restore {id, version}. Versions are kept 30 days, and at least the last 10.",
    input: listVersionsInputSchema,
    output: versionListSchema,
    annotations: read,
    mcp: { name: "docs_versions", defaults: { limit: DEFAULT_PAGE_SIZE } },
    graphql: [
      {
        field: "Document.versions",
        args: "connection",
        fromParent: (document: { id: string }) => ({ id: document.id }),
        connection: {
          items: "versions",
          cursorOf: (version: { version: number }) => documentItems.versionCursors.encode(version.version),
          // A version's text field reads it by its document's id.
          node: (version: object, document: { id: string }) => ({ ...version, documentId: document.id }),
        },
      },
    ],
    rest: { method: "GET", path: "/api/v1/documents/{id}/versions" },
    run: ({ documents, ctx }, input) => documents.versions(ctx, input),
  }),
  "documents.version": define({
    title: "Get one version's record",
    kind: "query",
    auth: "docs:read",
    description: "One version of a document (its number, name, date, author, size and source), or null.",
    input: versionRefInputSchema,
    output: versionSchema.extend({ documentId: z.string() }).nullable(),
    annotations: read,
    trpc: false,
    graphql: [{ field: "Query.documentVersion" }],
    run: async ({ documents, ctx }, input) => {
      const found = await documents.version(ctx, input);
      return found ? { ...found, documentId: input.id } : null;
    },
  }),
  "documents.readVersion": define({
    title: "Read an earlier version's text",
    kind: "query",
    auth: "docs:read",
    description:
      "The text (or markdown) of one version, as documents.read gives the current one; the body names the document as it was then.",
    input: readVersionInputSchema,
    output: documentTextSchema,
    annotations: read,
    graphql: [
      {
        field: "DocumentVersion.text",
        fromParent: (version: { documentId: string; version: number }) => ({ id: version.documentId, version: version.version }),
      },
    ],
    rest: { method: "GET", path: "/api/v1/documents/{id}/versions/{version}" },
    run: ({ documents, ctx }, input) => readInTurn(ctx, input.maxChars, () => documents.readVersion(ctx, input)),
  }),
  "documents.downloadVersion": define({
    title: "Download an earlier version's .docx",
    kind: "query",
    auth: "docs:read",
    description: "One version's .docx as stored, named as the document was at that version.",
    input: versionRefInputSchema,
    output: storedDownloadSchema,
    annotations: read,
    trpc: false,
    rest: { method: "GET", path: "/api/v1/documents/{id}/versions/{version}/content", response: "download" },
    run: ({ documents, ctx }, input) => documents.downloadVersion(ctx, input),
  }),
  "documents.restoreVersion": define({
    title: "Make an earlier version the newest",
    kind: "mutation",
    auth: "docs:write",
    description: "Version n's content as a new version (the name stays the current one). `expectedVersion` makes it conditional.",
    input: restoreVersionInputSchema,
    output: documentSummarySchema,
    annotations: replaces,
    graphql: [{ field: "Mutation.restoreDocumentVersion" }],
    rest: { method: "POST", path: "/api/v1/documents/{id}/versions/{version}/restore", body: "json?", ifMatch: true, etag: true },
    run: ({ documents, ctx }, input) => documents.restoreVersion(ctx, input),
  }),
  "documents.trash": define({
    title: "List deleted documents",
    kind: "query",
    auth: "docs:read",
    description: `The caller's documents in the trash (kept ${TRASH_DAYS} days), newest first, each with deletedAt. ${PAGE}`,
    input: listTrashInputSchema,
    optionalInput: true,
    output: trashListSchema,
    annotations: read,
    // docs_list's input schema: the same fields (the trash's own, an id over an id, lists as a bare $ref).
    mcp: { name: "docs_trash", input: listDocumentsInputSchema, defaults: { limit: DEFAULT_PAGE_SIZE } },
    graphql: [{ field: "Query.trash", args: "connection", connection: { items: "documents", cursorOf: documentCursor } }],
    run: ({ documents, ctx }, input) => documents.trash(ctx, input),
  }),
  "documents.restore": define({
    title: "Restore a deleted document or an earlier version",
    kind: "mutation",
    auth: "docs:write",
    description:
      `Without \`version\`: bring a document back from the trash (docs_delete keeps it ${TRASH_DAYS} days). ` +
      "With `version`: make that version's content the newest version (the current content stays a version; the name stays); " +
      "add `expectedVersion` to do so only if the document is still at the version you know (else PRECONDITION_FAILED, nothing written). " +
      "Returns the document.",
    input: documentRefInputSchema,
    output: documentSummarySchema,
    // Restoring a version replaces the current content (kept as a version); each call adds a version.
    annotations: replaces,
    mcp: {
      name: "docs_restore",
      input: docsRestoreInput,
      route: ({ id, version, expectedVersion }: z.output<typeof docsRestoreInput>) => {
        if (version !== undefined) {
          return {
            operation: "documents.restoreVersion",
            input: { id, version, ...(expectedVersion === undefined ? {} : { expectedVersion }) },
          };
        }
        if (expectedVersion !== undefined)
          throw new GatewayError("BAD_USER_INPUT", "expectedVersion: only with version (restoring from the trash takes just the id)");
        return { operation: "documents.restore", input: { id } };
      },
    },
    graphql: [{ field: "Mutation.restoreDocument" }],
    run: ({ documents, ctx }, input) => documents.restore(ctx, input),
  }),
  "documents.purge": define({
    title: "Delete a document for good",
    kind: "mutation",
    auth: "docs:write",
    description: "Delete a document in the trash for good, with its versions and share links. It cannot be undone.",
    input: documentRefInputSchema,
    output: purgedSchema,
    annotations: removes,
    mcp: { name: "docs_purge" },
    graphql: [{ field: "Mutation.purgeDocument" }],
    run: async ({ documents, ctx }, input) => {
      await documents.purge(ctx, input);
      return { id: input.id, purged: true as const };
    },
  }),
  "documents.share": define({
    title: "Create a share link for a document",
    kind: "mutation",
    auth: "docs:write",
    description:
      "Create a link that lets anyone who has it read the document's current text and download its .docx, without a credential, " +
      `until it expires (\`expiresInSeconds\` 60-31,536,000, default ${n(SHARE_DEFAULT_SECONDS)} = 7 days). ` +
      "Returns {id, url, createdAt, expiresAt}: the url holds the secret token and is shown only this once, so give it to the user now. " +
      "Only share when the user asked to; docs_shares lists a document's links and docs_revoke_share ends one.",
    input: createShareInputSchema,
    output: createdShareSchema,
    // Creates a credential (a new one per call); it stays within the gateway.
    annotations: create,
    mcp: { name: "docs_share", defaults: { expiresInSeconds: SHARE_DEFAULT_SECONDS } },
    graphql: [{ field: "Mutation.createDocumentShare" }],
    rest: { method: "POST", path: "/api/v1/documents/{id}/shares", body: "json?", status: 201, noStore: true },
    run: ({ documents, ctx }, input) => documents.share(ctx, input),
  }),
  "documents.shares": define({
    title: "List a document's share links",
    kind: "query",
    auth: "docs:read",
    description: "The document's share links that are still valid, newest first (never their tokens).",
    input: documentRefInputSchema,
    output: shareListSchema,
    annotations: read,
    mcp: { name: "docs_shares" },
    graphql: [{ field: "Document.shares", fromParent: (document: { id: string }) => ({ id: document.id }), pick: "shares" }],
    rest: { method: "GET", path: "/api/v1/documents/{id}/shares" },
    run: ({ documents, ctx }, input) => documents.shares(ctx, input),
  }),
  "documents.revokeShare": define({
    title: "Revoke a share link",
    kind: "mutation",
    auth: "docs:write",
    description: "End a share link at once: its url answers 404 from then on.",
    input: revokeShareInputSchema,
    output: revokedSchema,
    annotations: removes,
    mcp: { name: "docs_revoke_share" },
    graphql: [{ field: "Mutation.revokeDocumentShare" }],
    rest: { method: "DELETE", path: "/api/v1/documents/{id}/shares/{shareId}", status: 204, response: "empty" },
    run: async ({ documents, ctx }, input) => {
      await documents.revokeShare(ctx, input);
      return { id: input.shareId, revoked: true as const };
    },
  }),
};
