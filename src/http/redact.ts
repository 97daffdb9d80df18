// Paths as the request log and the server span record them. A share link's token is its
// credential and sits in the path (/api/v1/shared/{token}), so it is replaced there, as keys and
// JWTs are kept out of logs (src/core/logger.ts). What is left, `[redacted:<8 hex>]`, is the start
// of the token's SHA-256 — the start of the `token_hash` the store keeps — so an operator can
// tell requests for one link from another's and find its share, without the token.
import { createHash } from "node:crypto";

/** After `/shared/` (any case, any run of slashes: a path the router did not match still logs), or a segment that looks like a share token. */
const TOKEN_IN_PATH = /(\/shared\/+)([^/]+)|(^|\/)(wgs_[^/]*)/gi;

const redacted = (token: string): string => `[redacted:${createHash("sha256").update(token).digest("hex").slice(0, 8)}]`;

/** The path with every share-link token replaced; any other path as it is (one regex test). */
export function redactPath(path: string): string {
  if (!/shared|wgs_/i.test(path)) return path;
  return path.replace(TOKEN_IN_PATH, (_match, shared: string | undefined, afterShared: string | undefined, lead: string, token: string) =>
    shared !== undefined ? `${shared}${redacted(afterShared!)}` : `${lead}${redacted(token)}`,
  );
}
