// The REST routes (docs/api.md "REST documents interface"), derived from the operation table
// (src/services/operations/): each row's `rest` spec is one route whose input is its path
// parameters plus its query string, JSON body or multipart form, and If-Match/Idempotency-Key;
// its answer is the row's output as JSON (with ETag, Location), nothing (204) or a download.
// Rows that share a method and path (a JSON create and a multipart import) are told apart by
// Content-Type; other methods on a path are 405 with what is allowed.
import { Hono, type Context } from "hono";
import { answeredVersion, wasReplayed, type RequestContext } from "../core/context.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { HttpEnv } from "../http/env.ts";
import type { Services } from "../services/index.ts";
import { operationsOn, type AnyOperation, type OperationName, type RestBody, type RestSpec } from "../services/operations/index.ts";
import { formInput } from "../uploads/form-input.ts";
import { isMultipartFormData, uploadLimitOf } from "../uploads/index.ts";
import { requestSignal, type RequestHead } from "../http/node.ts";
import { hasNoBody, isMultipart, largeJsonBytes, readJsonObject, withForm } from "./body.ts";
import { JsonBody } from "../core/json-body.ts";
import { downloadResponse, streamedResponse } from "./download.ts";
import { methodNotAllowed } from "./methods.ts";
import { etagOf, expectedVersionOf, notModified } from "./preconditions.ts";

export interface RestRoutesDeps {
  services: Services;
  createContext: ContextFactory;
  /** BODY_LIMIT_BYTES: the text fields of a multipart upload. */
  bodyLimit: number;
  /** UPLOAD_LIMIT_BYTES: the drive's uploads. */
  uploadLimitBytes: number;
}

type Row = readonly [OperationName, AnyOperation & { rest: RestSpec }];

/** Where the REST routes live; every row's path starts with it. */
export const REST_BASE = "/api/v1";

/** "/api/v1/documents/{id}" → "/documents/:id", on the app mounted at REST_BASE. */
export const honoPath = (path: string): string => {
  if (!path.startsWith(`${REST_BASE}/`)) throw new Error(`REST path ${path} is not under ${REST_BASE}`);
  return path.slice(REST_BASE.length).replace(/\{(\w+)\}/g, ":$1");
};

export const bodiesOf = (spec: RestSpec): readonly RestBody[] => {
  if (spec.body === undefined) return spec.method === "GET" || spec.method === "DELETE" ? ["query"] : ["json"];
  return typeof spec.body === "string" ? [spec.body] : spec.body;
};

/** The rows of the table that are REST routes, grouped by method and path. */
export function restRoutes(): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const [name, op] of operationsOn("rest")) {
    const rest = op.rest as RestSpec;
    const key = `${rest.method} ${rest.path}`;
    groups.set(key, [...(groups.get(key) ?? []), [name, op as Row[1]]]);
  }
  return groups;
}

/** The input from the request's headers and path. */
function fixedInput(c: Context<HttpEnv>, spec: RestSpec): Record<string, unknown> {
  const input: Record<string, unknown> = { ...c.req.param() };
  if (spec.ifMatch) {
    const expectedVersion = expectedVersionOf(c);
    if (expectedVersion !== undefined) input["expectedVersion"] = expectedVersion;
  }
  const key = spec.idempotencyKey ? c.req.header("idempotency-key") : undefined;
  if (key !== undefined) input["idempotencyKey"] = key;
  return input;
}

/** The row's answer as HTTP. */
function respond(c: Context<HttpEnv>, spec: RestSpec, output: unknown, ctx: RequestContext): Response {
  const headers: Record<string, string> = {};
  if (spec.noStore) Object.assign(headers, { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });
  if (wasReplayed(ctx)) headers["Idempotent-Replayed"] = "true";
  if (spec.response === "empty") return c.body(null, 204, headers);
  if (spec.response === "download") {
    const download = output as Parameters<typeof downloadResponse>[0] | Parameters<typeof streamedResponse>[0];
    const response = "bytes" in download ? downloadResponse(download, etagOf(download.version)) : streamedResponse(download);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }
  const record = output as { version?: unknown; url?: unknown; spreadsheet?: { version?: unknown } };
  // A write's result carries the record it made (`spreadsheet`): its version is the ETag; a range
  // or a computed value carries none, and the service noted the version it read.
  const version = typeof record.version === "number" ? record.version : (record.spreadsheet?.version ?? answeredVersion(ctx));
  if (spec.etag && typeof version === "number") {
    headers["ETag"] = etagOf(version);
    if (spec.method === "GET" && notModified(c, version)) return c.body(null, 304, headers);
  }
  const text = (spec.asText as ((output: unknown, url: URL) => ReturnType<NonNullable<RestSpec["asText"]>>) | undefined)?.(
    output,
    new URL(c.req.url),
  );
  if (text) return c.body(text.body, 200, { ...headers, ...text.headers, "Content-Type": text.type });
  if (spec.location && typeof record.url === "string") headers["Location"] = record.url;
  return c.json(output as object, (spec.status ?? 200) as 200 | 201, headers);
}

function handler(rows: readonly Row[], deps: RestRoutesDeps) {
  const context = (c: Context<HttpEnv>, op: AnyOperation): Promise<RequestContext> =>
    deps.createContext({
      requestId: c.get("requestId"),
      // A share link's token is its credential: the request is anonymous, limited per client address.
      ...(op.auth === "share_token"
        ? { authorization: null, anonymous: true }
        : { authorization: c.req.header("authorization"), accessToken: c.req.header("x-access-token") }),
      signal: requestSignal(c),
      clientAddress: c.get("clientAddress"),
    });
  const multipartRow = rows.find(([, op]) => bodiesOf(op.rest).includes("multipart"));
  const otherRow = rows.find(([, op]) => bodiesOf(op.rest).some((body) => body !== "multipart")) ?? multipartRow;
  const jsonAlternative = multipartRow ? " (or multipart/form-data with a file)" : "";
  return async (c: Context<HttpEnv>) => {
    const [name, op] = (isMultipart(c) && multipartRow) || otherRow || (rows[0] as Row);
    const spec = op.rest;
    const ctx = await context(c, op);
    const fixed = fixedInput(c, spec);
    const run = (input: unknown) => deps.services.operations.run(name, ctx, input);
    let output: unknown;
    if (isMultipart(c) && bodiesOf(spec).includes("multipart")) {
      const limits = { fileBytes: uploadLimitOf(op, deps.uploadLimitBytes), fieldBytes: deps.bodyLimit, files: 1 };
      output = await withForm(c, limits, (form) => run(formInput(form, op, fixed)));
    } else {
      const bodies = bodiesOf(spec);
      if (bodies.includes("query")) output = await run({ ...c.req.query(), ...fixed });
      else if (bodies.includes("json?") && hasNoBody(c)) output = await run(fixed);
      else output = await run(await jsonInput(c, op, fixed, jsonAlternative));
    }
    return respond(c, spec, output, ctx);
  };
}

/** The JSON body with the path's and headers' input; a large one as its bytes, to a row that takes them. */
async function jsonInput(c: Context<HttpEnv>, op: AnyOperation, fixed: Record<string, unknown>, alternative: string): Promise<unknown> {
  const bytes = op.largeJsonBody ? await largeJsonBytes(c, alternative) : undefined;
  if (bytes) return new JsonBody(bytes, fixed);
  return { ...(await readJsonObject(c, alternative)), ...fixed };
}

/** Every REST route of the table, on one Hono app mounted at REST_BASE. */
export function operationRoutes(deps: RestRoutesDeps): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const methods = new Map<string, string[]>();
  for (const [key, rows] of restRoutes()) {
    const [method, path] = key.split(" ") as [RestSpec["method"], string];
    app.on(method, honoPath(path), handler(rows, deps));
    methods.set(path, [...(methods.get(path) ?? []), method]);
  }
  // Other methods on these paths are 405 with what is allowed, in the usual order.
  const order = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  for (const [path, allowed] of methods) {
    app.all(honoPath(path), methodNotAllowed(...allowed.sort((a, b) => order.indexOf(a) - order.indexOf(b))));
  }
  return app;
}

/**
 * Whether a request is a multipart upload to an upload route: its body is streamed to disk and
 * limited by the route's row, not by the server's body limit.
 */
export function uploadRequestMatcher(): (request: RequestHead) => boolean {
  const uploads = [...restRoutes()]
    .filter(([, rows]) => rows.some(([, op]) => bodiesOf(op.rest).includes("multipart")))
    .map(([key]) => {
      const [method, path] = key.split(" ") as [string, string];
      return { method, pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`) };
    });
  return (request) =>
    isMultipartFormData(request, [request.method]) &&
    uploads.some((upload) => upload.method === request.method && upload.pattern.test(request.path));
}
