// Builds the RequestContext: authenticate once, rate-limit once, attach request id and logger.
import { createHash } from "node:crypto";
import type { Authenticator } from "../auth/authenticate.ts";
import type { RequestContext } from "./context.ts";
import { lazyChild, type Logger } from "./logger.ts";
import type { RateLimiter } from "./rate-limit.ts";

export interface ContextInput {
  requestId: string;
  authorization: string | null | undefined;
  signal: AbortSignal;
}

export type ContextFactory = (input: ContextInput) => Promise<RequestContext>;

export function createContextFactory(deps: { authenticator: Authenticator; rateLimiter: RateLimiter; logger: Logger }): ContextFactory {
  return async ({ requestId, authorization, signal }) => {
    const principal = await deps.authenticator.authenticate(authorization);
    const subject =
      principal.keyId ??
      (principal.userId
        ? `user:${principal.userId}`
        : `token:${createHash("sha256").update(principal.accessToken ?? "").digest("base64url").slice(0, 22)}`);
    await deps.rateLimiter.consume(subject);
    return {
      requestId,
      principal,
      signal,
      log: lazyChild(deps.logger, { requestId, principal: principal.keyId ?? principal.userId ?? undefined }),
      memo: new Map(),
    };
  };
}
