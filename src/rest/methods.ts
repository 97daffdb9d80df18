// A REST path that exists, asked with a method it does not have: 405 with `Allow` (RFC 9110 §15.5.6),
// not the 404 of a path that does not exist. Registered after a path's real handlers. HEAD is
// allowed wherever GET is (Hono answers it from the GET handler). See docs/api.md.
import type { Context } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { HttpEnv } from "../http/env.ts";
import { errorResponse } from "../http/errors.ts";

export function methodNotAllowed(...methods: string[]): (c: Context<HttpEnv>) => Response {
  const allow = methods.includes("GET") && !methods.includes("HEAD") ? [...methods, "HEAD"] : methods;
  const header = allow.join(", ");
  return (c) => {
    const error = new GatewayError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}; allowed: ${header}`, {
      details: { allow },
    });
    const response = errorResponse(error, c.get("log"));
    response.headers.set("Allow", header);
    return response;
  };
}
