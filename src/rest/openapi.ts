// OpenAPI 3.1 for the REST routes, generated from the zod schemas that validate them.
// Built once at start-up; the route serves the same object every time.
import { z } from "zod";
import { createDocument, type oas31, type ZodOpenApiResponsesObject } from "zod-openapi";
import {
  createDocumentInputSchema,
  createdShareSchema,
  createShareInputSchema,
  documentIdSchema,
  documentListSchema,
  documentNameSchema,
  documentSummarySchema,
  documentTextSchema,
  errorBodySchema,
  listDocumentsInputSchema,
  listTrashInputSchema,
  listVersionsInputSchema,
  readDocumentInputSchema,
  readSharedInputSchema,
  shareListSchema,
  trashListSchema,
  versionListSchema,
  versionNumberSchema,
} from "../contract/documents.ts";
import { fileIdInputSchema } from "../contract/products.ts";
import { DOCX_MEDIA_TYPE } from "./download.ts";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const error = (description: string) => ({ description, ...json(errorBodySchema) });
const common: ZodOpenApiResponsesObject = {
  "400": error("BAD_USER_INPUT"),
  "401": error("UNAUTHENTICATED"),
  "403": error("FORBIDDEN (insufficient_scope)"),
  "429": error("RATE_LIMITED"),
  "500": error("INTERNAL"),
};
const idParam = z.object({ id: documentIdSchema });
const versionParams = z.object({ id: documentIdSchema, version: versionNumberSchema });
const docx = { content: { [DOCX_MEDIA_TYPE]: { schema: z.string().meta({ format: "binary" }) } } };
const ifMatch = z.object({
  "if-match": z.string().optional().meta({
    description:
      'The ETag the change is based on ("v<version>"); another current version is 412 PRECONDITION_FAILED and nothing is written',
  }),
});
/** A .docx upload (import, or new content): multipart/form-data with `file` and optional text fields. */
const docxUpload = (fields: Record<string, z.ZodType>) => ({
  "multipart/form-data": {
    schema: z.object({
      file: z.string().meta({ format: "binary", description: "A .docx (at most 25 MB, 200 MB or 10,000 entries unpacked)" }),
      ...fields,
    }),
  },
});
const changed = {
  "200": { description: "The record, at its new version (ETag header)", ...json(documentSummarySchema) },
  ...common,
  "404": error("NOT_FOUND"),
  "412": error("PRECONDITION_FAILED: If-Match is not the current version; nothing written"),
};

// Named return type: the inferred one lives in a zod-openapi chunk a .d.ts cannot reference.
export function buildOpenApiDocument(version: string): oas31.OpenAPIObject {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "workspace-gateway REST API",
      version,
      description:
        "Documents: markdown in, real .docx out; text extracted once and kept. Files: a drive file's bytes, streamed from the drive product. Errors use one body: {error:{code,message,details?}}.",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Personal API key (wgk_…) or access token" } },
    },
    security: [{ bearer: [] }],
    paths: {
      "/api/v1/documents": {
        post: {
          operationId: "createDocument",
          summary: "Render markdown to .docx and store it (scope docs:write)",
          requestParams: {
            header: z.object({
              "idempotency-key": z.string().max(255).optional().meta({
                description: "Reused by the same caller within 24 h: the first 201 again (Idempotent-Replayed: true), whatever the body",
              }),
            }),
          },
          requestBody: {
            description: "Markdown as JSON, or (import) a .docx as multipart/form-data with `name` (default: the file's name)",
            content: {
              ...json(createDocumentInputSchema.omit({ idempotencyKey: true })).content,
              ...docxUpload({ name: documentNameSchema.optional() }),
            },
          },
          responses: {
            "201": { description: "Created", ...json(documentSummarySchema) },
            ...common,
            "413": error("PAYLOAD_TOO_LARGE: markdown over 400,000 characters, body or .docx over the limit"),
            "415": error("UNSUPPORTED_MEDIA_TYPE: not JSON, or an upload that is not a valid .docx"),
            "503": error("SERVICE_UNAVAILABLE: render queue full, retry after Retry-After"),
          },
        },
        get: {
          operationId: "listDocuments",
          summary: "List the caller's documents, newest first (scope docs:read)",
          requestParams: { query: listDocumentsInputSchema },
          responses: { "200": { description: "A page", ...json(documentListSchema) }, ...common },
        },
      },
      "/api/v1/documents/{id}": {
        get: {
          operationId: "readDocument",
          summary: "The document's extracted text, or markdown with format=markdown (scope docs:read); 304 for a matching If-None-Match",
          requestParams: { path: idParam, query: readDocumentInputSchema.omit({ id: true }) },
          responses: {
            "200": { description: "Text (ETag header)", ...json(documentTextSchema) },
            "304": { description: "Not modified: If-None-Match names the current version" },
            ...common,
            "404": error("NOT_FOUND"),
          },
        },
        put: {
          operationId: "replaceDocument",
          summary: "New content from markdown (JSON) or from a .docx (multipart), as the next version (scope docs:write)",
          requestParams: { path: idParam, header: ifMatch },
          requestBody: {
            content: {
              ...json(z.object({ markdown: createDocumentInputSchema.shape.markdown, name: documentNameSchema.optional() })).content,
              ...docxUpload({ name: documentNameSchema.optional() }),
            },
          },
          responses: { ...changed, "413": error("PAYLOAD_TOO_LARGE"), "415": error("UNSUPPORTED_MEDIA_TYPE") },
        },
        patch: {
          operationId: "renameDocument",
          summary: "Rename: a new version without new content (scope docs:write)",
          requestParams: { path: idParam, header: ifMatch },
          requestBody: json(z.object({ name: documentNameSchema })),
          responses: changed,
        },
        delete: {
          operationId: "deleteDocument",
          summary: "Move the document to the trash, kept TRASH_RETENTION_DAYS (scope docs:write)",
          requestParams: { path: idParam, header: ifMatch },
          responses: { "204": { description: "In the trash" }, ...common, "404": error("NOT_FOUND"), "412": changed["412"] },
        },
      },
      "/api/v1/documents/{id}/versions": {
        get: {
          operationId: "listDocumentVersions",
          summary: "The document's versions, newest first, the current one included (scope docs:read)",
          requestParams: { path: idParam, query: listVersionsInputSchema.omit({ id: true }) },
          responses: { "200": { description: "A page", ...json(versionListSchema) }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/documents/{id}/versions/{version}": {
        get: {
          operationId: "readDocumentVersion",
          summary: "One version's text or markdown (scope docs:read)",
          requestParams: { path: versionParams, query: readDocumentInputSchema.omit({ id: true }) },
          responses: { "200": { description: "Text", ...json(documentTextSchema) }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/documents/{id}/versions/{version}/content": {
        get: {
          operationId: "downloadDocumentVersion",
          summary: "One version's .docx (scope docs:read)",
          requestParams: { path: versionParams },
          responses: { "200": { description: "The .docx bytes", ...docx }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/documents/{id}/versions/{version}/restore": {
        post: {
          operationId: "restoreDocumentVersion",
          summary: "That version's content as a new version (scope docs:write)",
          requestParams: { path: versionParams, header: ifMatch },
          responses: changed,
        },
      },
      "/api/v1/documents/{id}/shares": {
        post: {
          operationId: "createDocumentShare",
          summary: "A share link reading this document without a credential (scope docs:write); the url holds the token, shown once",
          requestParams: { path: idParam },
          requestBody: { content: json(createShareInputSchema.omit({ id: true })).content, required: false },
          responses: { "201": { description: "Created", ...json(createdShareSchema) }, ...common, "404": error("NOT_FOUND") },
        },
        get: {
          operationId: "listDocumentShares",
          summary: "The document's valid share links, without tokens (scope docs:read)",
          requestParams: { path: idParam },
          responses: { "200": { description: "Shares", ...json(shareListSchema) }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/documents/{id}/shares/{shareId}": {
        delete: {
          operationId: "revokeDocumentShare",
          summary: "Revoke a share link (scope docs:write)",
          requestParams: { path: z.object({ id: documentIdSchema, shareId: z.string() }) },
          responses: { "204": { description: "Revoked" }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/trash": {
        get: {
          operationId: "listTrash",
          summary: "The caller's deleted documents, each with deletedAt (scope docs:read)",
          requestParams: { query: listTrashInputSchema },
          responses: { "200": { description: "A page", ...json(trashListSchema) }, ...common },
        },
      },
      "/api/v1/trash/{id}/restore": {
        post: {
          operationId: "restoreDocument",
          summary: "Back from the trash (scope docs:write)",
          requestParams: { path: idParam },
          responses: { "200": { description: "The record", ...json(documentSummarySchema) }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/trash/{id}": {
        delete: {
          operationId: "purgeDocument",
          summary: "Delete a document in the trash for good, with its versions and shares (scope docs:write)",
          requestParams: { path: idParam },
          responses: { "204": { description: "Purged" }, ...common, "404": error("NOT_FOUND") },
        },
      },
      "/api/v1/shared/{token}": {
        get: {
          operationId: "readSharedDocument",
          summary: "A shared document's current text or markdown; the token is the credential (none other needed)",
          security: [],
          requestParams: { path: z.object({ token: z.string() }), query: readSharedInputSchema.omit({ token: true }) },
          responses: {
            "200": { description: "Text", ...json(documentTextSchema) },
            "404": error("NOT_FOUND: unknown, revoked or expired link, or the document was deleted"),
            "429": error("RATE_LIMITED"),
          },
        },
      },
      "/api/v1/shared/{token}/content": {
        get: {
          operationId: "downloadSharedDocument",
          summary: "A shared document's .docx",
          security: [],
          requestParams: { path: z.object({ token: z.string() }) },
          responses: { "200": { description: "The .docx bytes", ...docx }, "404": error("NOT_FOUND"), "429": error("RATE_LIMITED") },
        },
      },
      "/api/v1/documents/{id}/content": {
        get: {
          operationId: "downloadDocument",
          summary: "The stored .docx (scope docs:read)",
          requestParams: { path: idParam },
          responses: {
            "200": { description: "The .docx bytes", content: { [DOCX_MEDIA_TYPE]: { schema: z.string().meta({ format: "binary" }) } } },
            ...common,
            "404": error("NOT_FOUND"),
          },
        },
      },
      "/api/v1/files/{id}/content": {
        get: {
          operationId: "downloadFile",
          summary:
            "A drive file's bytes, streamed from the drive product with the caller's access token (personal API keys: FORBIDDEN); where GraphQL's DriveFile.downloadUrl points",
          requestParams: { path: fileIdInputSchema },
          responses: {
            "200": {
              description: "The file's bytes, with the drive product's Content-Type and Content-Disposition",
              content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
            },
            ...common,
            "404": error("NOT_FOUND"),
            "502": error("UPSTREAM_ERROR or UPSTREAM_UNAVAILABLE"),
            "503": error("UPSTREAM_NOT_CONFIGURED: API_URL is not set"),
            "504": error("UPSTREAM_TIMEOUT"),
          },
        },
      },
    },
  });
}
