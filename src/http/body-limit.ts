// The body limit, one implementation for both front doors. A declared length is checked without
// touching the body; only a body of unknown length (chunked) must be read to be measured, which
// hono's bodyLimit does under the app (./app.ts); the Node fast path (./fast-path.ts) takes only
// bodies whose verdict is "none" or "within" and leaves the rest to the app, which answers 413.
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { GatewayError } from "../core/errors.ts";
import type { HttpEnv } from "./env.ts";
import { errorResponse } from "./errors.ts";
import { declaredBody, fetchRequestHead, nodeBindings, requestHead, type RequestHead } from "./node.ts";

/** What the request's headers say about its body against `limit`; "unmeasured": it must be read to know. */
export type BodyVerdict = "none" | "within" | "over" | "unmeasured";

export function bodyVerdict(incoming: IncomingMessage | undefined, limit: number): BodyVerdict {
  const body = incoming ? declaredBody(incoming) : "unknown";
  if (body === "none") return "none";
  if (body === "unknown") return "unmeasured";
  return body > limit ? "over" : "within";
}

/** Answers a request that failed before its surface ran, in that surface's error shape (a surface's `fail`). */
export type LimitFailure = (error: GatewayError, c: Context<HttpEnv>) => Response | Promise<Response>;

/** The 413, in the surface's error shape when it has one, else the REST error body. */
function payloadTooLarge(limit: number, fail: LimitFailure | undefined) {
  return async (c: Context<HttpEnv>) => {
    const error = new GatewayError("PAYLOAD_TOO_LARGE", `The request body is over the ${limit}-byte limit`, { details: { limit } });
    const response = fail ? await fail(error, c) : errorResponse(error, c.get("log"));
    // The rest of the body is never read, so the connection cannot be reused.
    response.headers.set("Connection", "close");
    return response;
  };
}

/** The app's middleware: a declared length judged by `bodyVerdict`; an unknown one read by hono's bodyLimit. */
export function bodyLimitMiddleware(limit: number, fail?: LimitFailure): MiddlewareHandler<HttpEnv> {
  const tooLarge = payloadTooLarge(limit, fail);
  const measured = bodyLimit({ maxSize: limit, onError: tooLarge });
  return async (c, next) => {
    const verdict = bodyVerdict(nodeBindings(c)?.incoming, limit);
    if (verdict === "unmeasured") return measured(c, next);
    return verdict === "over" ? tooLarge(c) : next();
  };
}

const headOf = (c: Context<HttpEnv>): RequestHead => {
  const node = nodeBindings(c);
  return node ? requestHead(node.incoming) : fetchRequestHead(c.req.raw);
};

/** The body limit, except for requests the route or surface limits itself (uploads it streams). */
export function limitUnlessOwned(
  limit: MiddlewareHandler<HttpEnv>,
  owns: ((request: RequestHead) => boolean) | undefined,
): MiddlewareHandler<HttpEnv> {
  return owns ? (c, next) => (owns(headOf(c)) ? next() : limit(c, next)) : limit;
}
