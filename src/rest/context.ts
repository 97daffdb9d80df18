// The request context of a REST route: the gateway's one context factory, fed from Hono's request.
import type { Context } from "hono";
import type { RequestContext } from "../core/context.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { HttpEnv } from "../http/env.ts";
import { requestSignal } from "../http/node.ts";

export const routeContext =
  (createContext: ContextFactory) =>
  (c: Context<HttpEnv>): Promise<RequestContext> =>
    createContext({
      requestId: c.get("requestId"),
      authorization: c.req.header("authorization"),
      signal: requestSignal(c),
      clientAddress: c.get("clientAddress"),
    });
