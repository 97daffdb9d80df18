// The Node server's first stop. A request a surface can answer from Node's request and response
// alone (its `fastNode` says which: tRPC's single queries, GraphQL) goes straight to the surface's
// Node handler. It is the app's front door without Hono's router, context and middleware chain
// (~12% of such a call's CPU, bench:gateway), not a second one: what the app's middleware does it
// does by calling the same modules — the request id, logger, client address, metric and log line
// (./basics.ts, ./request-id.ts), CORS (./cors.ts), the body limit (./body-limit.ts), the writer
// (./send.ts) and the error answer (./errors.ts). Anything else — another route, OPTIONS or HEAD,
// a body over the limit or of unknown length, an upload, tracing on — goes to Hono (./app.ts), so
// this path only ever takes requests both would answer alike.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpAppDeps, Surface } from "./app.ts";
import { finishRequest, startRequest } from "./basics.ts";
import { bodyVerdict } from "./body-limit.ts";
import { corsOnNode } from "./cors.ts";
import { sendNodeError } from "./errors.ts";
import { requestHead, type RequestHead } from "./node.ts";
import { stampRequestId } from "./request-id.ts";
import { sendNodeResult } from "./send.ts";

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
    // Over the limit or unmeasured: the app's body limit answers (a 413 in the surface's shape) or reads it.
    const body = bodyVerdict(incoming, surface.bodyLimit ?? deps.bodyLimit);
    if (body === "over" || body === "unmeasured") return false;
    if (surface.ownsBodyLimit?.(head) || !surface.fastNode!(incoming)) return false;
    const route = head.path === surface.path ? surface.path : `${surface.path}/*`;
    void answer(deps, allowed, surface, incoming, outgoing, { route, head }).catch((error: unknown) =>
      // A failure of the request basics themselves, which Hono's onError would have answered.
      sendNodeError(error, deps.logger, incoming, outgoing),
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
  const { env } = basics;
  let status: number;
  try {
    corsOnNode(outgoing, allowed, headers.get("origin") ?? undefined);
    stampRequestId(outgoing, env.requestId);
    status = await sendNodeResult(await surface.handleNode!(incoming, outgoing, env), incoming, outgoing);
  } catch (error) {
    // What the app's onError answers, unless the answer had begun.
    status = await sendNodeError(error, env.log, incoming, outgoing);
  }
  finishRequest(deps, basics, { method: incoming.method ?? "GET", route: request.route, path, status });
}
