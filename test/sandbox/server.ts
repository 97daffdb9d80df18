// The request pipeline: record → read body → faults → auth → route → reply (possibly malformed).
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { checkBearer } from "./auth.ts";
import { discardUploads, readBody, recordedBody, type BodyLimits, type BodyState } from "./body.ts";
import { HttpError, codeForStatus, errorBody, notFound } from "./errors.ts";
import { malformBody, type FaultController, type MalformedFault, type Terminal } from "./faults.ts";
import { errorReply, findRoute, json, type Reply, type Route } from "./http.ts";
import { headersObject, queryObject, type Recorder } from "./recording.ts";
import type { SandboxStore } from "./store.ts";

export interface PipelineDeps {
  store: SandboxStore;
  recorder: Recorder;
  faults: FaultController;
  apiRoutes: Route[];
  tenantRoutes: Route[];
  controlRoutes: Route[];
  apiTokens: ReadonlySet<string>;
  tenantTokens: ReadonlyMap<string, ReadonlySet<string>>;
  limits: BodyLimits;
  /** Aborted on close: pending latency sleeps stop and nothing more is written. */
  signal: AbortSignal;
}

function faultReply(t: Extract<Terminal, { kind: "status" }>): Reply {
  const f = t.fault;
  const headers: Record<string, string> = { ...(f.headers ?? {}) };
  if (f.retryAfter !== undefined) headers["retry-after"] = String(f.retryAfter);
  const body =
    f.body !== undefined ? f.body : errorBody(f.code ?? codeForStatus(t.status), f.message ?? `injected fault: HTTP ${t.status}`);
  return json(t.status, body, headers);
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply, malformed: MalformedFault | undefined): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  const requestId = req.headers["x-request-id"];
  if (typeof requestId === "string") headers["x-request-id"] = requestId;
  if (reply.kind === "json") {
    let text = JSON.stringify(reply.body) ?? "null";
    let contentType = "application/json; charset=utf-8";
    if (malformed) ({ text, contentType } = malformBody(malformed, reply.body));
    res.writeHead(reply.status, { ...headers, "content-type": contentType, "content-length": String(Buffer.byteLength(text)) });
    res.end(text);
  } else if (reply.kind === "stream") {
    res.writeHead(reply.status, { ...headers, ...reply.headers });
    pipeline(reply.stream, res).catch(() => res.destroy());
  } else {
    res.writeHead(reply.status, headers);
    res.end();
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function dispatch(
  deps: PipelineDeps,
  req: IncomingMessage,
  method: string,
  url: URL,
  scopedPath: string,
  tenant: string | undefined,
  body: BodyState,
): Promise<Reply> {
  let routes: Route[];
  if (tenant !== undefined) {
    const tokens = deps.tenantTokens.get(tenant);
    if (!tokens) throw notFound(`tenant ${tenant}`);
    checkBearer(req.headers.authorization, tokens, `tenant ${tenant}`);
    routes = deps.tenantRoutes;
  } else {
    checkBearer(req.headers.authorization, deps.apiTokens, "sandbox api");
    routes = deps.apiRoutes;
  }
  const { route, params } = findRoute(routes, method, scopedPath);
  return route.handler({
    method,
    path: scopedPath,
    params,
    query: url.searchParams,
    body,
    ...(tenant !== undefined ? { tenant } : {}),
    store: deps.store,
  });
}

function internal(error: unknown): HttpError {
  return error instanceof HttpError ? error : new HttpError(500, `sandbox internal error: ${(error as Error)?.message ?? String(error)}`);
}

async function control(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
  const body = await readBody(req, deps.limits);
  let reply: Reply;
  try {
    const { route, params } = findRoute(deps.controlRoutes, method, url.pathname);
    reply = await route.handler({ method, path: url.pathname, params, query: url.searchParams, body, store: deps.store });
  } catch (error) {
    reply = errorReply(internal(error));
  }
  await discardUploads(body, deps.store.keptUploads);
  send(req, res, reply, undefined);
}

async function handle(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, portTenant: string | undefined): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const url = new URL(`http://sandbox.invalid${(req.url ?? "/").startsWith("/") ? (req.url ?? "/") : "/"}`);
  const path = url.pathname;
  if (portTenant === undefined && (path === "/__sandbox" || path.startsWith("/__sandbox/"))) return control(deps, req, res, method, url);

  let tenant = portTenant;
  let scopedPath = path;
  const tenantMatch = portTenant === undefined ? /^\/tenants\/([^/]+)(\/.*)?$/.exec(path) : null;
  if (tenantMatch) {
    tenant = safeDecode(tenantMatch[1] as string);
    scopedPath = tenantMatch[2] ?? "/";
  }
  const record = deps.recorder.add({
    method,
    path,
    scopedPath,
    query: queryObject(url.searchParams),
    headers: headersObject(req.headers),
    body: undefined,
    ...(tenant !== undefined ? { tenant } : {}),
    at: Date.now(),
  });
  res.once("close", () => {
    if (res.writableFinished) return;
    record.closedEarly = true;
    record.closedAt = Date.now();
  });

  let body: BodyState = { kind: "empty" };
  let reply: Reply | undefined;
  let malformed: MalformedFault | undefined;
  try {
    body = await readBody(req, deps.limits);
    record.body = recordedBody(body);
    const decision = deps.faults.decide({ method, path, scopedPath, ...(tenant !== undefined ? { tenant } : {}) });
    if (decision.applied.length > 0) record.faults = decision.applied;
    if (decision.latencyMs > 0) await sleep(decision.latencyMs, undefined, { signal: deps.signal });
    const terminal = decision.terminal;
    if (terminal?.kind === "hang") return; // never answered; close() destroys the socket
    if (terminal?.kind === "reset") {
      req.socket.resetAndDestroy();
      return;
    }
    if (terminal?.kind === "status") {
      reply = faultReply(terminal);
    } else {
      reply = await dispatch(deps, req, method, url, scopedPath, tenant, body);
      malformed = decision.malformed;
    }
  } catch (error) {
    if (deps.signal.aborted) return;
    reply = errorReply(internal(error));
  } finally {
    await discardUploads(body, deps.store.keptUploads);
  }
  record.status = reply.status;
  send(req, res, reply, malformed);
}

export function createRequestListener(deps: PipelineDeps, portTenant?: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res, portTenant).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) send(req, res, errorReply(internal(error)), undefined);
    });
  };
}
