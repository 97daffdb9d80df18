// Replies, route tables and matching, shared by every product's routes.
import type { Readable } from "node:stream";
import type { BodyState } from "./body.ts";
import { HttpError, errorBody } from "./errors.ts";
import type { SandboxStore } from "./store.ts";

export type Reply =
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "stream"; status: number; stream: Readable; headers: Record<string, string> }
  | { kind: "empty"; status: number; headers?: Record<string, string> };

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  kind: "json",
  status,
  body,
  ...(headers ? { headers } : {}),
});

export function errorReply(error: HttpError): Reply {
  return json(error.status, errorBody(error.code, error.message), error.headers);
}

export interface RouteContext {
  method: string;
  /** The path under the scope's base: for tenants, without `/tenants/<id>`. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: BodyState;
  tenant?: string;
  store: SandboxStore;
}

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
}

export const route = (method: string, pattern: string, handler: Handler): Route => ({ method, pattern, handler });

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(":")) {
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) {
      return null;
    }
  }
  return params;
}

/** Finds the route for a request; 404 for an unknown path, 405 for a known path with another method. */
export function findRoute(routes: readonly Route[], method: string, path: string): { route: Route; params: Record<string, string> } {
  let pathKnown = false;
  const allowed: string[] = [];
  for (const r of routes) {
    const params = matchPattern(r.pattern, path);
    if (!params) continue;
    pathKnown = true;
    allowed.push(r.method);
    if (r.method === method) return { route: r, params };
  }
  if (pathKnown) throw new HttpError(405, `method ${method} not allowed on ${path}`, "method_not_allowed", { allow: allowed.join(", ") });
  throw new HttpError(404, `no route for ${method} ${path}`);
}
