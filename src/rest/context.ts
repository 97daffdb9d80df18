// The request context of a REST route: the gateway's one context factory, fed from Hono's request.
import type { Context } from "hono";
import type { RequestContext } from "../core/context.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { HttpEnv } from "../http/env.ts";

export const routeContext =
  (createContext: ContextFactory) =>
  (c: Context<HttpEnv>): Promise<RequestContext> =>
    createContext({
      requestId: c.get("requestId"),
      authorization: c.req.header("authorization"),
      signal: c.req.raw.signal,
      clientAddress: c.get("clientAddress"),
    });
