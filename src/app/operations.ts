// How a page runs an operation: through the one runner every surface calls
// (services.operations.run), as the signed-in person — the session's user and the scopes of the
// key or token that opened it. The request context is made once per request.
import type { Context } from "hono";
import { principalOfSession } from "../auth/sessions.ts";
import type { RequestContext } from "../core/context.ts";
import { unauthenticated } from "../core/errors.ts";
import { requestSignal } from "../http/node.ts";
import type { OperationName } from "../services/operations/index.ts";
import type { OperationOutput } from "../services/runner.ts";
import type { AppDeps, AppEnv } from "./env.ts";

export async function contextOf(c: Context<AppEnv>, deps: AppDeps): Promise<RequestContext> {
  const made = c.get("requestContext");
  if (made) return made;
  const session = c.get("session");
  if (!session) throw unauthenticated("Sign in first");
  const ctx = await deps.createContext({
    requestId: c.get("requestId"),
    authorization: null,
    signal: requestSignal(c),
    clientAddress: c.get("clientAddress"),
    principal: principalOfSession(session),
  });
  c.set("requestContext", ctx);
  return ctx;
}

/** Runs the operation `name` for the signed-in person. */
export async function run<N extends OperationName>(
  c: Context<AppEnv>,
  deps: AppDeps,
  name: N,
  input: unknown,
): Promise<OperationOutput<N>> {
  return deps.services.operations.run(name, await contextOf(c, deps), input);
}

/** The CSRF token of this request's session, for the page's forms. */
export const csrfOf = (c: Context<AppEnv>, deps: AppDeps): string | undefined => {
  const token = c.get("sessionToken");
  return token ? deps.sessions.csrfToken(token) : undefined;
};
