// The documents tools (docs/api.md "MCP"): descriptions an agent can act on, input schemas that
// are the service's own zod schemas (what is advertised is what is checked; .meta() clones a field
// with the same checks), truthful annotations.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { GatewayError } from "../core/errors.ts";
import { strictObject } from "../core/strict-object.ts";
import { parseInput } from "../core/validate.ts";
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
  documentListSchema,
  documentSummarySchema,
  documentTextSchema,
  listDocumentsInputSchema,
  listVersionsInputSchema,
  readDocumentInputSchema,
  restoreVersionInputSchema,
  updateDocumentInputSchema,
  versionListSchema,
  type DocumentText,
} from "../contract/documents.ts";
import type { OperationAnnotations } from "../services/operations.ts";
import { asJson, type ToolDefinition } from "./tool-types.ts";

const n = (value: number) => value.toLocaleString("en");
const TRASH_DAYS = 30;

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

const docsCreateInput = createDocumentInputSchema.extend({
  idempotencyKey: createDocumentInputSchema.shape.idempotencyKey.meta({
    description:
      "Optional, up to 255 characters. Send the same key when retrying a docs_create whose answer you did not get: " +
      "within 24 hours it returns the first document instead of creating another.",
  }),
});

const docsReadInput = readDocumentInputSchema.extend({
  version: restoreVersionInputSchema.shape.version
    .optional()
    .meta({ description: "Read this earlier version (see docs_versions) instead of the current one" }),
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

const deletedSchema = z
  .object({ id: z.string(), deleted: z.literal(true), inTrash: z.literal(true) })
  .meta({ description: `The document is in the trash, restorable with docs_restore for ${TRASH_DAYS} days` });

const reading: OperationAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const documentTools: ToolDefinition[] = [
  {
    name: "docs_list",
    title: "List documents",
    description:
      "List the caller's documents, newest first. Returns JSON {documents:[{id,name,createdAt,updatedAt,sizeBytes,characters,version,url,downloadUrl}], nextCursor}. " +
      "Filter with `query` (case-insensitive substring of the name); page with `limit` (1-100, default 50) and the `cursor` from nextCursor. Deleted documents are not listed.",
    input: listDocumentsInputSchema,
    output: documentListSchema,
    defaults: { limit: DEFAULT_PAGE_SIZE },
    annotations: reading,
    run: async (backend, args) => asJson(await backend.documents("list", args)),
  },
  {
    name: "docs_read",
    title: "Read a document's text or markdown",
    description:
      `Return the text of one document. format "text" (default): plain text extracted from its .docx (paragraphs separated by blank lines, list items and table cells on their own lines); ` +
      `format "markdown": markdown with headings, lists, tables, links, code and emphasis — read it this way to edit the document and send it back with docs_update. ` +
      `At most \`maxChars\` characters (1-1,000,000, default ${n(DEFAULT_MAX_CHARS)}); \`truncated\` says whether more exists and \`totalChars\` how much. ` +
      "When cut short, a second text block says so. The result's `version` is what docs_update's expectedVersion takes. " +
      "Pass `version` to read an earlier version (docs_versions lists them). Use docs_list to find the id.",
    input: docsReadInput,
    output: documentTextSchema,
    defaults: { maxChars: DEFAULT_MAX_CHARS, format: "text" },
    annotations: reading,
    run: async (backend, args) => {
      const { version, ...read } = args as { version?: unknown };
      const body = version === undefined ? await backend.documents("read", read) : await backend.documents("readVersion", args);
      return readResult(body as DocumentText);
    },
  },
  {
    name: "docs_create",
    title: "Create a Word document from markdown",
    description:
      `Render markdown (CommonMark + GitHub tables, task lists, strikethrough) into a real .docx and store it for the caller. ` +
      `\`markdown\` may be at most ${n(MARKDOWN_LIMIT)} characters; \`name\` 1-255 characters. ` +
      "Returns the created document as JSON, including downloadUrl for the .docx. " +
      "Pass an `idempotencyKey` so that a retry does not create a second document.",
    input: docsCreateInput,
    output: documentSummarySchema,
    // A retry with the same idempotencyKey creates nothing new; without one it creates another document.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (backend, args) => asJson(await backend.documents("create", args)),
  },
  {
    name: "docs_update",
    title: "Replace a document's content or rename it",
    description:
      `Replace a document's content with new \`markdown\` (rendered as docs_create does, at most ${n(MARKDOWN_LIMIT)} characters) and/or give it a new \`name\`; ` +
      "at least one of the two. Each call makes a new version; the previous content stays readable and restorable (docs_versions, docs_restore). " +
      'To edit, read the document with docs_read format "markdown", change it, and send it back with the `version` you read as `expectedVersion`: ' +
      "if someone changed it meanwhile the call fails with PRECONDITION_FAILED and nothing is written. Returns the document with its new version.",
    input: updateDocumentInputSchema,
    output: documentSummarySchema,
    // Replaces the current content (kept as a version, so recoverable); a repeat makes yet another
    // version unless expectedVersion makes it fail.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (backend, args) => asJson(await backend.documents("update", args)),
  },
  {
    name: "docs_delete",
    title: "Move a document to the trash",
    description:
      `Delete a document: it moves to the trash, disappears from docs_list and docs_read, and is kept ${TRASH_DAYS} days, during which docs_restore with just its id brings it back; ` +
      "after that it is gone for good. Pass `expectedVersion` to delete only the version you know (else PRECONDITION_FAILED, nothing deleted). " +
      "Returns {id, deleted: true, inTrash: true}.",
    input: deleteDocumentInputSchema,
    output: deletedSchema,
    // Destructive though recoverable from the trash; a repeat changes nothing (the document is
    // already in the trash: NOT_FOUND).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (backend, args) => {
      const input = parseInput(deleteDocumentInputSchema, args);
      await backend.documents("delete", input);
      return asJson({ id: input.id, deleted: true, inTrash: true });
    },
  },
  {
    name: "docs_versions",
    title: "List a document's versions",
    description:
      "List the versions of one document, newest first (the current one included): {versions:[{version,name,createdAt,createdBy,sizeBytes,characters,source}], nextCursor}. " +
      "`source` says what made each: markdown, docx, rename or restore. Page with `limit` (1-100, default 50) and the `cursor` from nextCursor. " +
      "Read an old version with docs_read {id, version}; make it the newest with docs_restore {id, version}. Versions are kept 30 days, and at least the last 10.",
    input: listVersionsInputSchema,
    output: versionListSchema,
    defaults: { limit: DEFAULT_PAGE_SIZE },
    annotations: reading,
    run: async (backend, args) => asJson(await backend.documents("versions", args)),
  },
  {
    name: "docs_restore",
    title: "Restore a deleted document or an earlier version",
    description:
      `Without \`version\`: bring a document back from the trash (docs_delete keeps it ${TRASH_DAYS} days). ` +
      "With `version`: make that version's content the newest version (the current content stays a version; the name stays); " +
      "add `expectedVersion` to do so only if the document is still at the version you know (else PRECONDITION_FAILED, nothing written). " +
      "Returns the document.",
    input: docsRestoreInput,
    output: documentSummarySchema,
    // Restoring a version replaces the current content (kept as a version); each call adds a version.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (backend, args) => {
      const { id, version, expectedVersion: expected } = parseInput(docsRestoreInput, args);
      if (version === undefined) {
        if (expected !== undefined)
          throw new GatewayError("BAD_USER_INPUT", "expectedVersion: only with version (restoring from the trash takes just the id)");
        return asJson(await backend.documents("restore", { id }));
      }
      return asJson(
        await backend.documents("restoreVersion", { id, version, ...(expected === undefined ? {} : { expectedVersion: expected }) }),
      );
    },
  },
  {
    name: "docs_share",
    title: "Create a share link for a document",
    description:
      "Create a link that lets anyone who has it read the document's current text and download its .docx, without a credential, " +
      `until it expires (\`expiresInSeconds\` 60-31,536,000, default ${n(SHARE_DEFAULT_SECONDS)} = 7 days). ` +
      "Returns {id, url, createdAt, expiresAt}: the url holds the secret token and is shown only this once, so give it to the user now. " +
      "Only share when the user asked to; a link can be revoked on the other surfaces (REST DELETE /api/v1/documents/{id}/shares/{shareId}).",
    input: createShareInputSchema,
    output: createdShareSchema,
    defaults: { expiresInSeconds: SHARE_DEFAULT_SECONDS },
    // Creates a credential (a new one per call); it stays within the gateway.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (backend, args) => asJson(await backend.documents("share", args)),
  },
];
