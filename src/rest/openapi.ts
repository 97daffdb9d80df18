// OpenAPI 3.1 for the REST routes, derived from the operation table's `rest` rows and the zod
// schemas that validate them (the same rows src/rest/routes.ts serves). Built once at start-up;
// the route serves the same object every time.
import { z } from "zod";
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { errorBodySchema } from "../contract/documents.ts";
import type { AnyOperation, RestSpec } from "../services/operations/index.ts";
import { bodiesOf, restRoutes } from "./routes.ts";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const error = (description: string) => ({ description, ...json(errorBodySchema) });
const binary = z.string().meta({ format: "binary" });

const ifMatchHeader = z.string().optional().meta({
  description: 'The ETag the change is based on ("v<version>"); another current version is 412 PRECONDITION_FAILED and nothing is written',
});
const idempotencyHeader = z.string().max(255).optional().meta({
  description: "Reused by the same caller within 24 h: the first answer again (Idempotent-Replayed: true), whatever the body",
});

/** The fields of a row's input schema (refinements apart: OpenAPI describes the shape). */
const shapeOf = (op: AnyOperation): Record<string, z.ZodType> => (op.input instanceof z.ZodObject ? op.input.shape : {});

const pick = (shape: Record<string, z.ZodType>, keep: (key: string) => boolean) =>
  z.object(Object.fromEntries(Object.entries(shape).filter(([key]) => keep(key))));

/** Input fields that come from the path or headers, not the body or query string. */
function fixedFields(spec: RestSpec): Set<string> {
  const fields = new Set([...spec.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string));
  if (spec.ifMatch) fields.add("expectedVersion");
  if (spec.idempotencyKey) fields.add("idempotencyKey");
  return fields;
}

function requestBody(rows: readonly AnyOperation[]): ZodOpenApiOperationObject["requestBody"] | undefined {
  const content: Record<string, { schema: z.ZodType }> = {};
  let required = true;
  for (const op of rows) {
    const spec = op.rest as RestSpec;
    const fixed = fixedFields(spec);
    const fields = pick(shapeOf(op), (key) => !fixed.has(key) && key !== op.upload?.field);
    for (const body of bodiesOf(spec)) {
      if (body === "json" || body === "json?") content["application/json"] = { schema: fields };
      if (body === "json?") required = false;
      if (body === "multipart") {
        const file = binary.meta({ description: op.upload?.optional ? "A file (optional)" : "The file" });
        content["multipart/form-data"] = { schema: fields.extend({ [op.upload?.field ?? "file"]: file }) };
      }
    }
  }
  return Object.keys(content).length > 0 ? { content, required } : undefined;
}

function responses(op: AnyOperation): ZodOpenApiOperationObject["responses"] {
  const spec = op.rest as RestSpec;
  const status = String(spec.status ?? 200);
  const success =
    spec.response === "empty"
      ? { description: op.title }
      : spec.response === "download"
        ? { description: "The file's bytes", content: { "application/octet-stream": { schema: binary } } }
        : { description: op.title + (spec.etag ? " (ETag header)" : ""), ...json(op.output) };
  const answers: ZodOpenApiOperationObject["responses"] = { [status]: success };
  if (spec.etag && spec.method === "GET") answers["304"] = { description: "Not modified: If-None-Match names the current version" };
  answers["400"] = error("BAD_USER_INPUT");
  if (op.auth !== "share_token") {
    answers["401"] = error("UNAUTHENTICATED");
    answers["403"] = error(op.auth === "access_token" ? "FORBIDDEN (a personal API key)" : `FORBIDDEN (insufficient_scope: ${op.auth})`);
  }
  if (spec.path.includes("{")) answers["404"] = error("NOT_FOUND");
  if (spec.ifMatch) answers["412"] = error("PRECONDITION_FAILED: If-Match is not the current version; nothing written");
  if (bodiesOf(spec).some((body) => body !== "query")) {
    answers["413"] = error("PAYLOAD_TOO_LARGE");
    answers["415"] = error("UNSUPPORTED_MEDIA_TYPE");
  }
  answers["429"] = error("RATE_LIMITED");
  answers["500"] = error("INTERNAL");
  if (op.auth === "access_token") {
    answers["502"] = error("UPSTREAM_ERROR or UPSTREAM_UNAVAILABLE");
    answers["503"] = error("UPSTREAM_NOT_CONFIGURED");
    answers["504"] = error("UPSTREAM_TIMEOUT");
  }
  return answers;
}

function operation(name: string, rows: readonly AnyOperation[]): ZodOpenApiOperationObject {
  const op = rows[0] as AnyOperation;
  const spec = op.rest as RestSpec;
  const fixed = fixedFields(spec);
  const shape = shapeOf(op);
  const pathFields = [...spec.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const header = {
    ...(spec.ifMatch ? { "if-match": ifMatchHeader } : {}),
    ...(spec.idempotencyKey ? { "idempotency-key": idempotencyHeader } : {}),
  };
  const body = requestBody(rows);
  const scope =
    op.auth === "share_token" ? "the token is the credential" : op.auth === "access_token" ? "an access token" : `scope ${op.auth}`;
  return {
    operationId: name.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase()),
    summary: `${rows.map((row) => row.title).join("; ")} (${scope})`,
    description: rows.map((row) => row.description).join("\n\n"),
    ...(op.auth === "share_token" ? { security: [] } : {}),
    requestParams: {
      ...(pathFields.length > 0
        ? { path: z.object(Object.fromEntries(pathFields.map((field) => [field, shape[field] ?? z.string()]))) }
        : {}),
      ...(bodiesOf(spec).includes("query") ? { query: pick(shape, (key) => !fixed.has(key)) } : {}),
      ...(Object.keys(header).length > 0 ? { header: z.object(header) } : {}),
    },
    ...(body ? { requestBody: body } : {}),
    responses: responses(op),
  };
}

// Named return type: the inferred one lives in a zod-openapi chunk a .d.ts cannot reference.
export function buildOpenApiDocument(version: string): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [key, rows] of restRoutes()) {
    const [method, path] = key.split(" ") as [string, string];
    const [name] = rows[0] as (typeof rows)[number];
    (paths[path] ??= {})[method.toLowerCase() as "get"] = operation(
      name,
      rows.map(([, op]) => op),
    );
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "workspace-gateway REST API",
      version,
      description:
        "Documents: markdown in, real .docx out; text extracted once and kept. Files: a drive file's bytes, streamed from the drive product. " +
        "Errors use one body: {error:{code,message,details?}}. Generated from the operation table that serves these routes.",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Personal API key (wgk_…) or access token" } },
    },
    security: [{ bearer: [] }],
    paths,
  });
}
