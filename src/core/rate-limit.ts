// Rate limits (docs/security.md). With REDIS_URL the counters are shared by every replica;
// without it each process counts on its own. Three budgets:
//   requests  — per principal (API key, user, or an unverified token's hash), RATE_LIMIT_PER_MINUTE;
//   addresses — per client address, the same budget, for unverified access tokens: without JWT
//               verification every new random string would otherwise be a fresh principal;
//   failures  — failed authentications per client address, AUTH_FAILURES_PER_MINUTE.
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { GatewayError } from "./errors.ts";
import type { Logger } from "./logger.ts";

export interface RateLimiter {
  /**
   * Throws RATE_LIMITED (with Retry-After) when `subject` is over its budget; `points` (default 1)
   * are the calls this request makes. A refused request spends nothing: a tRPC batch refused
   * whole leaves the budget as it found it.
   */
  consume(subject: string, points?: number): Promise<void>;
  /** Gives back what `consume` took, for a request refused by a later budget (the address's, then the credential's). */
  refund(subject: string, points?: number): Promise<void>;
  close(): Promise<void>;
}

export interface AuthFailureLimiter {
  /** Throws RATE_LIMITED when `address` has used up its failed authentications (known to this process). */
  check(address: string): void;
  /** Counts one failed authentication; throws RATE_LIMITED once `address` is over the budget. */
  record(address: string): Promise<void>;
}

export interface RateLimiters {
  requests: RateLimiter;
  addresses: RateLimiter;
  failures: AuthFailureLimiter;
  /** Why the limiters are degraded ("redis: …", Redis unreachable: counting per process), or undefined. */
  degraded(): string | undefined;
  close(): Promise<void>;
}

const unlimited: RateLimiter = { consume: async () => {}, refund: async () => {}, close: async () => {} };

function rateLimited(error: unknown, message: string): never {
  if (error instanceof RateLimiterRes) {
    const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new GatewayError("RATE_LIMITED", message, { retryAfter });
  }
  throw error;
}

/** Which budget fell back to per-process counting: the label of gateway_rate_limit_fail_open_total. */
export type LimiterName = "requests" | "addresses" | "auth_failures";

/**
 * The fallback while Redis does not answer: rate-limiter-flexible calls it only when a Redis
 * command failed, so each call is one check that failed open (counted here, not shared).
 */
class FailOpenLimiter extends RateLimiterMemory {
  constructor(
    opts: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly onFailOpen: () => void,
  ) {
    super(opts);
  }
  override consume(...args: Parameters<RateLimiterMemory["consume"]>): ReturnType<RateLimiterMemory["consume"]> {
    this.onFailOpen();
    return super.consume(...args);
  }
}

function limiterFor(points: number, keyPrefix: string, redis: Redis | undefined, onFailOpen: () => void): RateLimiterAbstract {
  const common = { points, duration: 60, keyPrefix };
  // If Redis is unreachable, fall back to per-process counting rather than refusing every request.
  return redis
    ? new RateLimiterRedis({ ...common, storeClient: redis, insuranceLimiter: new FailOpenLimiter(common, onFailOpen) })
    : new RateLimiterMemory(common);
}

export function createRateLimiters(options: {
  perMinute: number;
  authFailuresPerMinute: number;
  redisUrl?: string | undefined;
  log: Logger;
  /** Called for each check counted per process because Redis did not answer (the fail-open metric). */
  onFailOpen?: (limiter: LimiterName) => void;
}): RateLimiters {
  const failOpen = (limiter: LimiterName) => () => options.onFailOpen?.(limiter);
  let redis: Redis | undefined;
  let redisDown: string | undefined;
  // Until the first connection is made, commands fail fast (no offline queue) and are counted per
  // process: /readyz says so rather than "ready" (a replica just started is not yet sharing limits).
  let connected = false;
  if (options.redisUrl && (options.perMinute > 0 || options.authFailuresPerMinute > 0)) {
    redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    // ioredis reports every failed reconnect attempt (several a second): the log says when Redis
    // goes away and when it is back, and /readyz says "degraded" in between (docs/configuration.md).
    redis.on("error", (error) => {
      const reason = `redis: ${error.message || (error as NodeJS.ErrnoException).code || String(error)}`;
      if (redisDown === undefined) {
        options.log.warn({ reason }, "redis unreachable: rate limits are counted per process until it is back");
      }
      redisDown = reason;
    });
    redis.on("ready", () => {
      if (redisDown !== undefined) options.log.info("redis reachable again: rate limits are shared again");
      redisDown = undefined;
      connected = true;
    });
  }
  const budget = (name: LimiterName, keyPrefix: string, what: string): RateLimiter => {
    if (options.perMinute <= 0) return unlimited;
    const limiter = limiterFor(options.perMinute, keyPrefix, redis, failOpen(name));
    const message = `Rate limit of ${options.perMinute} requests per minute ${what} exceeded`;
    // rate-limiter-flexible counts the points of a refused consume too: they are given back, so
    // that only what was served is spent (a batch over the budget must not use up the rest of it).
    const refund = async (subject: string, points = 1) => {
      await limiter.reward(subject, points).catch(() => undefined);
    };
    return {
      consume: (subject, points = 1) =>
        limiter.consume(subject, points).then(
          () => undefined,
          async (error: unknown) => {
            if (error instanceof RateLimiterRes) await refund(subject, points);
            return rateLimited(error, message);
          },
        ),
      refund,
      close: async () => {},
    };
  };
  return {
    requests: budget("requests", "wg:rl", "per credential"),
    addresses: budget("addresses", "wg:rl:addr", "per client address for unverified access tokens"),
    failures: failureLimiter(options.authFailuresPerMinute, redis, failOpen("auth_failures")),
    degraded: () => redisDown ?? (redis && !connected ? "redis: not connected yet" : undefined),
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}

/**
 * Failed authentications per address. Once an address is over its budget it is refused before its
 * credential is even looked at, so guessing cannot go on behind the 429s; that block is kept in
 * process (a bounded map) until the window ends, so checking it costs no Redis round trip.
 */
function failureLimiter(perMinute: number, redis: Redis | undefined, onFailOpen: () => void): AuthFailureLimiter {
  if (perMinute <= 0) return { check: () => {}, record: async () => {} };
  const limiter = limiterFor(perMinute, "wg:rl:authfail", redis, onFailOpen);
  const message = `Too many failed authentications from this address (${perMinute} per minute)`;
  const blockedUntil = new Map<string, number>();
  const MAX_BLOCKED = 10_000;
  return {
    check(address) {
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      const left = until - Date.now();
      if (left <= 0) {
        blockedUntil.delete(address);
        return;
      }
      throw new GatewayError("RATE_LIMITED", message, { retryAfter: Math.max(1, Math.ceil(left / 1000)) });
    },
    async record(address) {
      try {
        await limiter.consume(address);
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value as string);
          blockedUntil.set(address, Date.now() + error.msBeforeNext);
        }
        rateLimited(error, message);
      }
    },
  };
}
