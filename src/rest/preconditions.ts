// Conditional requests on a document (RFC 9110 §13): If-Match names the version a change is based
// on, If-None-Match lets a reader skip a body it already has. ETags are strong: "v<version>".
import type { Context } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { HttpEnv } from "../http/env.ts";

const ETAG = /^"v([1-9]\d{0,9})"$/;

/** The strong ETag of a record's version (docs/api.md "Living documents"). */
export const etagOf = (version: number): string => `"v${version}"`;

/**
 * The version an If-Match header requires, for the service's expectedVersion. `*` means "any
 * current version" (the service's not-found check covers it). Several tags, a weak tag or one this
 * API never issued can match no current version: 412, nothing written.
 */
export function expectedVersionOf(c: Context<HttpEnv>): number | undefined {
  const header = c.req.header("if-match")?.trim();
  if (header === undefined || header === "" || header === "*") return undefined;
  const match = ETAG.exec(header);
  if (!match) {
    throw new GatewayError(
      "PRECONDITION_FAILED",
      `If-Match ${header.slice(0, 80)} matches no version (ETags are "v<n>"); nothing was written`,
    );
  }
  return Number(match[1]);
}

/** Whether If-None-Match already names this version (then the answer is 304 without a body). */
export function notModified(c: Context<HttpEnv>, version: number): boolean {
  const header = c.req.header("if-none-match");
  if (!header) return false;
  const tag = `"v${version}"`;
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    // Weak comparison, as If-None-Match asks: W/"v3" matches "v3".
    return value === "*" || value === tag || value === `W/${tag}`;
  });
}
