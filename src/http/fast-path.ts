// The Node server's first stop. A request a surface can answer from Node's request and response
// alone (its `fastNode` says which: tRPC's single queries, GraphQL) goes straight to the surface's
// Node handler, with what the app's middleware would have done done here on Node's objects: the
// request id, logger and client address, CORS headers, the declared body limit, then the metric
// and the request log line (./basics.ts). Hono, its context, router and middleware chain cost
// ~12% of such a call's CPU (bench:gateway). Anything else — another route, OPTIONS or HEAD, a
// body of unknown or too large a length, an upload, tracing on — goes to Hono (./app.ts) as before,
// so every rule stays where it is and this path only ever takes requests both would answer alike.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "./errors.ts";
import { sendNodeResult, type HttpAppDeps, type Surface, type SurfaceEnv } from "./app.ts";
import { finishRequest, startRequest } from "./basics.ts";
import { corsHeaders } from "./cors.ts";
import { declaredBody, requestHead, type RequestHead } from "./node.ts";

/** Takes the request and answers it (true), or leaves it untouched for Hono (false). */
export type NodeFastPath = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

/** The surfaces' fast path, or undefined when every request must go through Hono (tracing is on). */
export function createNodeFastPath(deps: HttpAppDeps): NodeFastPath | undefined {
  if (deps.tracing) return undefined;
  const allowed = new Set(deps.corsOrigins);
  const surfaces = deps.surfaces.filter((surface) => surface.handleNode && surface.fastNode);
  if (surfaces.length === 0) return undefined;
  return (incoming, outgoing) => {
    if (incoming.method !== "GET" && incoming.method !== "POST") return false;
    const head = requestHead(incoming);
    // As the app routes a surface: its path, and anything under it.
    const surface = surfaces.find(({ path }) => head.path === path || head.path.startsWith(`${path}/`));
    if (!surface) return false;
    const body = declaredBody(incoming);
    if (body === "unknown" || (typeof body === "number" && body > (surface.bodyLimit ?? deps.bodyLimit))) return false;
    if (surface.ownsBodyLimit?.(head) || !surface.fastNode!(incoming)) return false;
    const route = head.path === surface.path ? surface.path : `${surface.path}/*`;
    void answer(deps, allowed, surface, incoming, outgoing, { route, head }).catch((error: unknown) =>
      lastResort(deps, error, incoming, outgoing),
    );
    return true;
  };
}

async function answer(
  deps: HttpAppDeps,
  allowed: ReadonlySet<string>,
  surface: Surface,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: { route: string; head: RequestHead },
): Promise<void> {
  const { headers, path } = request.head;
  const basics = startRequest(deps, headers.get("x-request-id") ?? undefined, incoming.socket.remoteAddress, () =>
    headers.get("x-forwarded-for"),
  );
  const env: SurfaceEnv = basics.env;
  let status = 500;
  try {
    for (const [name, value] of Object.entries(corsHeaders(allowed, headers.get("origin") ?? undefined))) outgoing.setHeader(name, value);
    outgoing.setHeader("X-Request-Id", env.requestId);
    status = await sendNodeResult(await surface.handleNode!(incoming, outgoing, env), incoming, outgoing);
  } catch (error) {
    // What the app's onError answers, unless the answer had begun.
    if (outgoing.headersSent) {
      env.log.error({ err: error }, "response failed after its headers were sent");
      outgoing.destroy();
    } else {
      const response = errorResponse(error, env.log);
      status = await sendNodeResult(response, incoming, outgoing).catch(() => {
        outgoing.destroy();
        return response.status;
      });
    }
  }
  finishRequest(deps, basics, { method: incoming.method ?? "GET", route: request.route, path, status });
}

/**
 * A failure outside the surface's handling (the request basics themselves), which Hono's onError
 * would have answered: the same 500 body, logged on the process logger; never an unhandled rejection.
 */
async function lastResort(deps: HttpAppDeps, error: unknown, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  try {
    if (outgoing.headersSent) throw error;
    await sendNodeResult(errorResponse(error, deps.logger), incoming, outgoing);
  } catch (failure) {
    deps.logger.error({ err: failure }, "response failed after its headers were sent");
    outgoing.destroy();
  }
}
