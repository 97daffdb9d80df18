// Builds the RequestContext: authenticate once, rate-limit once, attach request id, logger and read budget.
// Limits (docs/security.md): failed authentications per client address; every request per
// principal; requests with an unverified access token per client address as well.
import { createHash } from "node:crypto";
import { batchTooLarge, DEFAULT_BATCH_MAX_CALLS } from "./batch.ts";
import type { RequestContext } from "./context.ts";
import { isGatewayError } from "./errors.ts";
import { lazyChild, type Logger } from "./logger.ts";
import type { Principal } from "./principal.ts";
import type { RateLimiters } from "./rate-limit.ts";

/** What turns a credential into a principal (src/auth/authenticate.ts implements it; core does not import auth). */
export interface Authenticator {
  /** `accessToken`: X-Access-Token, a product access token beside a personal API key (contract §2). */
  authenticate(authorization: string | null | undefined, accessToken?: string | null): Promise<Principal>;
}

export interface ContextInput {
  requestId: string;
  authorization: string | null | undefined;
  /** The X-Access-Token header: product operations forward it when the bearer is a personal API key. */
  accessToken?: string | null | undefined;
  signal: AbortSignal;
  /** The client's address (src/auth/client-address.ts): the bucket of limits no credential can dodge. */
  clientAddress: string;
  /** Operations this request carries (a tRPC batch's calls), each counted against the limits; default 1. */
  calls?: number;
  /**
   * A route that takes no credential (a share link: its token is the credential). Nothing is
   * authenticated; the request counts against its client address's limit, like an unverified token.
   */
  anonymous?: boolean;
  /**
   * A principal already established by other means (the owner's application's session cookie):
   * nothing is authenticated, and the request counts against the principal's limit as usual.
   */
  principal?: Principal;
}

/** The principal of a credential-free route: no user, no scope, nothing to forward. */
const ANONYMOUS: Principal = { kind: "access_token", userId: null, tenant: null, scopes: new Set(), verified: false };

export type ContextFactory = (input: ContextInput) => Promise<RequestContext>;

export function createContextFactory(deps: {
  authenticator: Authenticator;
  limits: RateLimiters;
  logger: Logger;
  /** REQUEST_READ_BUDGET_CHARS (./read-budget.ts); its default when absent. */
  readBudgetChars?: number;
  /** REQUEST_READ_BUDGET_CELLS (./read-budget.ts); its default when absent. */
  readBudgetCells?: number;
  /** BATCH_MAX_CALLS: the calls one request may carry; default 20. */
  batchMaxCalls?: number;
}): ContextFactory {
  const { limits } = deps;
  const budget = {
    ...(deps.readBudgetChars === undefined ? {} : { readBudgetChars: deps.readBudgetChars }),
    ...(deps.readBudgetCells === undefined ? {} : { readBudgetCells: deps.readBudgetCells }),
  };
  const batchMax = deps.batchMaxCalls ?? DEFAULT_BATCH_MAX_CALLS;
  const authenticate = async (
    authorization: string | null | undefined,
    accessToken: string | null | undefined,
    clientAddress: string,
  ): Promise<Principal> => {
    // An address over its failed-authentication budget is refused before its credential is looked at.
    if (authorization) limits.failures.check(clientAddress);
    try {
      return await deps.authenticator.authenticate(authorization, accessToken ?? null);
    } catch (error) {
      // A credential was presented and refused (no credential at all is not a guess).
      if (authorization && isGatewayError(error) && error.code === "UNAUTHENTICATED") await limits.failures.record(clientAddress);
      throw error;
    }
  };
  return async ({ requestId, authorization, accessToken, signal, clientAddress, calls = 1, anonymous = false, principal: established }) => {
    // Before anything is counted or looked up: a batch over the bound runs none of its calls.
    if (calls > batchMax) throw batchTooLarge(calls, batchMax);
    if (anonymous) {
      await limits.addresses.consume(clientAddress, calls);
      return { requestId, principal: ANONYMOUS, signal, log: lazyChild(deps.logger, { requestId }), memo: new Map(), ...budget };
    }
    const principal = established ?? (await authenticate(authorization, accessToken, clientAddress));
    const subject =
      principal.keyId ??
      (principal.userId
        ? `user:${principal.userId}`
        : `token:${createHash("sha256")
            .update(principal.accessToken ?? "")
            .digest("base64url")
            .slice(0, 22)}`);
    // Anyone can mint a new unverified token per request: the address bounds them all together.
    if (!principal.verified) await limits.addresses.consume(clientAddress, calls);
    try {
      await limits.requests.consume(subject, calls);
    } catch (error) {
      // Refused by the credential's budget: nothing ran, so the address's budget gets its calls back.
      if (!principal.verified) await limits.addresses.refund(clientAddress, calls);
      throw error;
    }
    return {
      requestId,
      principal,
      signal,
      log: lazyChild(deps.logger, { requestId, principal: principal.keyId ?? principal.userId ?? undefined }),
      memo: new Map(),
      ...budget,
    };
  };
}
