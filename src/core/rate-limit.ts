// Per-principal rate limit. With REDIS_URL the counters are shared by every replica;
// without it each process counts on its own.
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { GatewayError } from "./errors.ts";
import type { Logger } from "./logger.ts";

export interface RateLimiter {
  /** Throws RATE_LIMITED (with Retry-After) when `subject` is over its budget. */
  consume(subject: string): Promise<void>;
  close(): Promise<void>;
}

export function createRateLimiter(options: { perMinute: number; redisUrl?: string | undefined; log: Logger }): RateLimiter {
  if (options.perMinute <= 0) return { consume: async () => {}, close: async () => {} };
  let redis: Redis | undefined;
  let limiter: RateLimiterAbstract;
  const common = { points: options.perMinute, duration: 60, keyPrefix: "wg:rl" };
  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on("error", (error) => options.log.warn({ err: error.message }, "redis error"));
    // If Redis is unreachable, fall back to per-process counting rather than refusing every request.
    limiter = new RateLimiterRedis({ ...common, storeClient: redis, insuranceLimiter: new RateLimiterMemory(common) });
  } else {
    limiter = new RateLimiterMemory(common);
  }
  return {
    async consume(subject) {
      try {
        await limiter.consume(subject);
      } catch (result) {
        if (result instanceof RateLimiterRes) {
          const retryAfter = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
          throw new GatewayError("RATE_LIMITED", `Rate limit of ${options.perMinute} requests per minute exceeded`, { retryAfter });
        }
        throw result;
      }
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
