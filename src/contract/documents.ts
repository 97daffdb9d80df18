// zod schemas at the edge of the documents service: REST, GraphQL, tRPC and MCP validate with
// these, and the OpenAPI description is generated from them.
import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../core/paging.ts";
import { strictObject } from "../core/strict-object.ts";
import { uploadedFileSchema } from "./files.ts";

export const MARKDOWN_LIMIT = 400_000;
export const MAX_CHARS_LIMIT = 1_000_000;
export const DEFAULT_MAX_CHARS = 20_000;
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../core/paging.ts";

/** Accepts numbers, and numeric strings from query strings; rejects "abc", "1.5", "". */
const integer = (min: number, max: number) =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max));

/** The ids the documents service issues: "doc_" + a ULID (Crockford base32, 26 characters). */
export const DOCUMENT_ID_PATTERN = /^doc_[0-9A-HJKMNP-TV-Z]{26}$/;
export const isDocumentId = (id: string): boolean => DOCUMENT_ID_PATTERN.test(id);

/**
 * Any string: an id that cannot exist (malformed, too long) is "no such id", NOT_FOUND on every
 * surface and route alike (docs/api.md "Errors"), which the service decides, not BAD_USER_INPUT here.
 */
export const documentIdSchema = z.string().meta({ description: "Document id (doc_…)", example: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" });

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const documentNameSchema = z
  .string()
  .trim()
  .min(1, "name must not be empty")
  .max(255, "name must be at most 255 characters")
  // Control characters break headers and filenames, and PostgreSQL text cannot hold NUL.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "name must not contain control characters")
  // A lone UTF-16 surrogate is no character: stores and JSON encoders turn it into U+FFFD, so the
  // name read back would differ from the one echoed on create. Refused on every surface alike.
  .refine((name) => !LONE_SURROGATE.test(name), "name must not contain lone UTF-16 surrogates (unpaired \\uD800–\\uDFFF)");

/**
 * The markdown as it counts against the limit and as it is rendered: trailing line endings (a
 * file's final newline) carry no content, so `gen-markdown.mjs 400000`'s output (400,000
 * characters and a newline) is within the 400,000-character limit.
 */
export function withoutTrailingLineEndings(markdown: string): string {
  // A scan from the end, not /[\r\n]+$/: that regex retries from every line ending in the text,
  // which is quadratic on a run of them ("\n" × 200,000 then "x" held the event loop for 40 s).
  let end = markdown.length;
  while (end > 0 && (markdown.charCodeAt(end - 1) === 10 || markdown.charCodeAt(end - 1) === 13)) end--;
  return end === markdown.length ? markdown : markdown.slice(0, end);
}

export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .refine((key) => !LONE_SURROGATE.test(key), "idempotencyKey must not contain lone UTF-16 surrogates")
  // An HTTP header cannot carry them, and PostgreSQL text cannot hold NUL: refused on every surface alike.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  .refine((key) => !/[\u0000-\u001f\u007f]/.test(key), "idempotencyKey must not contain control characters");

// Inputs are strict: an unknown field is BAD_USER_INPUT naming it and the closest known one.
export const createDocumentInputSchema = strictObject({
  name: documentNameSchema.meta({ description: "Document name, 1–255 characters after trimming" }),
  markdown: z
    .string()
    .overwrite(withoutTrailingLineEndings)
    .max(MARKDOWN_LIMIT)
    .meta({ description: "CommonMark + GFM, up to 400,000 characters (trailing line endings not counted)" }),
  idempotencyKey: idempotencyKeySchema.optional().meta({ description: "tRPC/GraphQL/MCP: same as the Idempotency-Key header" }),
}).meta({ id: "CreateDocumentInput" });

export const listDocumentsInputSchema = strictObject({
  query: z.string().max(255).optional().meta({ description: "Case-insensitive substring of the name" }),
  limit: integer(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).meta({ description: "1–100, default 50" }),
  cursor: z.string().max(512).optional().meta({ description: "Opaque, from nextCursor" }),
}).meta({ id: "ListDocumentsInput" });

export const textFormatSchema = z
  .enum(["text", "markdown"])
  .default("text")
  .meta({ description: "text (default): the extracted text; markdown: headings, lists, tables, links, code and emphasis as markdown" });

export const maxCharsSchema = integer(1, MAX_CHARS_LIMIT).default(DEFAULT_MAX_CHARS).meta({ description: "1–1,000,000, default 20,000" });

export const readDocumentInputSchema = strictObject({
  id: documentIdSchema,
  maxChars: maxCharsSchema,
  format: textFormatSchema,
}).meta({ id: "ReadDocumentInput" });

/** A document's version number: 1 on create, +1 on every change. */
export const versionNumberSchema = integer(1, 2_147_483_647);
const expectedVersionSchema = versionNumberSchema
  .optional()
  .meta({ description: "The version the change is based on; another current version is PRECONDITION_FAILED and nothing is written" });

export const updateDocumentInputSchema = strictObject({
  id: documentIdSchema,
  markdown: z
    .string()
    .overwrite(withoutTrailingLineEndings)
    .max(MARKDOWN_LIMIT)
    .optional()
    .meta({ description: "New content, rendered as on create (up to 400,000 characters)" }),
  name: documentNameSchema.optional().meta({ description: "A new name (1–255 characters)" }),
  expectedVersion: expectedVersionSchema,
})
  .refine((input) => input.markdown !== undefined || input.name !== undefined, {
    message: "markdown or name is required",
    path: ["markdown"],
  })
  .meta({ id: "UpdateDocumentInput" });

/**
 * documents.update as every surface takes it: new markdown, or a .docx (`file`: a multipart part,
 * a GraphQL Upload), and/or a new name.
 */
export const updateDocumentUploadInputSchema = strictObject({
  id: documentIdSchema,
  markdown: updateDocumentInputSchema.shape.markdown,
  file: uploadedFileSchema.optional(),
  name: documentNameSchema.optional().meta({ description: "A new name (1–255 characters)" }),
  expectedVersion: expectedVersionSchema,
})
  .refine((input) => input.markdown !== undefined || input.name !== undefined || input.file !== undefined, {
    message: "markdown, file or name is required",
    path: ["markdown"],
  })
  .refine((input) => input.markdown === undefined || input.file === undefined, {
    message: "send markdown or file, not both",
    path: ["file"],
  });

export const renameDocumentInputSchema = strictObject({
  id: documentIdSchema,
  name: documentNameSchema,
  expectedVersion: expectedVersionSchema,
}).meta({ id: "RenameDocumentInput" });

export const deleteDocumentInputSchema = strictObject({ id: documentIdSchema, expectedVersion: expectedVersionSchema }).meta({
  id: "DeleteDocumentInput",
});

/** An uploaded .docx as a new document (import) or as new content. `name` defaults to the file's name. */
export const importDocumentInputSchema = strictObject({
  name: documentNameSchema,
  idempotencyKey: idempotencyKeySchema.optional(),
});

/** documents.import: a .docx (`file`) as a new document; `name` defaults to the file's name. */
export const importDocumentUploadInputSchema = strictObject({
  file: uploadedFileSchema,
  name: documentNameSchema.optional().meta({ description: "Document name; default: the file's name without .docx" }),
  idempotencyKey: idempotencyKeySchema.optional().meta({ description: "tRPC/GraphQL: same as the Idempotency-Key header" }),
});

export const replaceFromDocxInputSchema = strictObject({
  id: documentIdSchema,
  name: documentNameSchema.optional(),
  expectedVersion: expectedVersionSchema,
});

export const listVersionsInputSchema = strictObject({
  id: documentIdSchema,
  limit: integer(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).meta({ description: "1–100, default 50" }),
  cursor: z.string().max(512).optional().meta({ description: "Opaque, from nextCursor" }),
}).meta({ id: "ListVersionsInput" });

export const readVersionInputSchema = strictObject({
  id: documentIdSchema,
  version: versionNumberSchema,
  maxChars: maxCharsSchema,
  format: textFormatSchema,
}).meta({ id: "ReadVersionInput" });

export const restoreVersionInputSchema = strictObject({
  id: documentIdSchema,
  version: versionNumberSchema,
  expectedVersion: expectedVersionSchema,
}).meta({ id: "RestoreVersionInput" });

/** One version of a document (its metadata, or its .docx). */
export const versionRefInputSchema = strictObject({ id: documentIdSchema, version: versionNumberSchema });

export const listTrashInputSchema = listDocumentsInputSchema.meta({ id: "ListTrashInput" });
export const documentRefInputSchema = strictObject({ id: documentIdSchema });

export const SHARE_DEFAULT_SECONDS = 7 * 24 * 60 * 60;
export const createShareInputSchema = strictObject({
  id: documentIdSchema,
  expiresInSeconds: integer(60, 31_536_000).default(SHARE_DEFAULT_SECONDS).meta({ description: "60–31,536,000, default 7 days" }),
}).meta({ id: "CreateShareInput" });

export const revokeShareInputSchema = strictObject({ id: documentIdSchema, shareId: z.string().max(64) });

export const readSharedInputSchema = strictObject({
  token: z.string().max(128),
  maxChars: maxCharsSchema,
  format: textFormatSchema,
});

export const sharedContentInputSchema = strictObject({ token: z.string().max(128) });

/** A document by id (GraphQL `document`, tRPC `documents.get`). */
export const getDocumentInputSchema = strictObject({ id: documentIdSchema });
export type GetDocumentInput = z.input<typeof getDocumentInputSchema>;

export const documentSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
    sizeBytes: z.number().int(),
    characters: z.number().int().meta({ description: "Length of the extracted text" }),
    version: z.number().int().meta({ description: "1 on create, +1 on every change; the ETag follows it" }),
    url: z.string(),
    downloadUrl: z.string(),
  })
  .meta({ id: "Document" });

export const trashedDocumentSchema = documentSummarySchema
  .extend({ deletedAt: z.string().meta({ format: "date-time" }) })
  .meta({ id: "TrashedDocument" });

export const trashListSchema = z
  .object({ documents: z.array(trashedDocumentSchema), nextCursor: z.string().nullable() })
  .meta({ id: "TrashList" });

export const versionSchema = z
  .object({
    version: z.number().int(),
    name: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    createdBy: z.string().meta({ description: "The user who made this version" }),
    sizeBytes: z.number().int(),
    characters: z.number().int(),
    source: z.enum(["markdown", "docx", "rename", "restore"]),
  })
  .meta({ id: "DocumentVersion" });

export const versionListSchema = z
  .object({ versions: z.array(versionSchema), nextCursor: z.string().nullable() })
  .meta({ id: "DocumentVersionList" });

export const shareSchema = z
  .object({
    id: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    expiresAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "DocumentShare" });

export const createdShareSchema = shareSchema
  .extend({ url: z.string().meta({ description: "The share link; it holds the token, shown only here" }) })
  .meta({ id: "CreatedShare" });

export const shareListSchema = z.object({ shares: z.array(shareSchema) }).meta({ id: "DocumentShareList" });

export const documentListSchema = z
  .object({ documents: z.array(documentSummarySchema), nextCursor: z.string().nullable() })
  .meta({ id: "DocumentList" });

export const documentTextSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
    version: z.number().int(),
    format: z.enum(["text", "markdown"]),
    text: z.string().meta({ description: "The text, or markdown when format=markdown" }),
    truncated: z.boolean(),
    totalChars: z.number().int(),
  })
  .meta({ id: "DocumentText" });

/** What a delete, purge or revoke answers on tRPC and MCP (REST: 204; GraphQL: true). */
export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "Deleted" });
export const purgedSchema = z.object({ id: z.string(), purged: z.literal(true) }).meta({ id: "Purged" });
export const revokedSchema = z.object({ id: z.string(), revoked: z.literal(true) }).meta({ id: "Revoked" });

export const errorBodySchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  })
  .meta({ id: "Error" });

export type CreateDocumentInput = z.input<typeof createDocumentInputSchema>;
export type ListDocumentsInput = z.input<typeof listDocumentsInputSchema>;
export type ReadDocumentInput = z.input<typeof readDocumentInputSchema>;
export type DocumentSummary = z.output<typeof documentSummarySchema>;
export type DocumentList = z.output<typeof documentListSchema>;
export type DocumentText = z.output<typeof documentTextSchema>;
export type TrashedDocument = z.output<typeof trashedDocumentSchema>;
export type TrashList = z.output<typeof trashListSchema>;
export type DocumentVersion = z.output<typeof versionSchema>;
export type DocumentVersionList = z.output<typeof versionListSchema>;
export type DocumentShare = z.output<typeof shareSchema>;
export type CreatedShare = z.output<typeof createdShareSchema>;
export type UpdateDocumentInput = z.input<typeof updateDocumentInputSchema>;
export type RenameDocumentInput = z.input<typeof renameDocumentInputSchema>;
export type DeleteDocumentInput = z.input<typeof deleteDocumentInputSchema>;
export type ListVersionsInput = z.input<typeof listVersionsInputSchema>;
export type ReadVersionInput = z.input<typeof readVersionInputSchema>;
export type RestoreVersionInput = z.input<typeof restoreVersionInputSchema>;
export type CreateShareInput = z.input<typeof createShareInputSchema>;
export type RevokeShareInput = z.input<typeof revokeShareInputSchema>;
export type ReadSharedInput = z.input<typeof readSharedInputSchema>;
export type DocumentRefInput = z.input<typeof documentRefInputSchema>;
