// OpenAPI 3.1 for the REST routes, generated from the zod schemas that validate them.
// Built once at start-up; the route serves the same object every time.
import { z } from "zod";
import { createDocument, type oas31, type ZodOpenApiResponsesObject } from "zod-openapi";
import {
  createDocumentInputSchema,
  documentIdSchema,
  documentListSchema,
  documentSummarySchema,
  documentTextSchema,
  errorBodySchema,
  listDocumentsInputSchema,
  readDocumentInputSchema,
} from "../documents/schemas.ts";
import { fileIdInputSchema } from "../products/schemas.ts";
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
              "idempotency-key": z
                .string()
                .max(255)
                .optional()
                .meta({ description: "Reused by the same caller within 24 h: the first 201 again (Idempotent-Replayed: true), whatever the body" }),
            }),
          },
          requestBody: json(createDocumentInputSchema.omit({ idempotencyKey: true })),
          responses: {
            "201": { description: "Created", ...json(documentSummarySchema) },
            ...common,
            "413": error("PAYLOAD_TOO_LARGE: markdown over 400,000 characters or body over the limit"),
            "415": error("UNSUPPORTED_MEDIA_TYPE"),
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
          summary: "The document's extracted text (scope docs:read)",
          requestParams: { path: idParam, query: readDocumentInputSchema.omit({ id: true }) },
          responses: { "200": { description: "Text", ...json(documentTextSchema) }, ...common, "404": error("NOT_FOUND") },
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
          summary: "A drive file's bytes, streamed from the drive product with the caller's access token (personal API keys: FORBIDDEN); where GraphQL's DriveFile.downloadUrl points",
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
