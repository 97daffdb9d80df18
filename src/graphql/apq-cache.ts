// Automatic persisted queries (APQ) registered by clients: hash → operation text, least recently
// used dropped first. Each process keeps its own bounded LRU; with REDIS_URL the entries are also
// shared by every replica (a hash registered on one is served by hash alone on the others), in a
// Redis LRU of the same bound (a sorted set of hashes by last use, trimmed on every registration).
// Redis is a helper, never a dependency: while it does not answer (and until the first connection),
// lookups miss (the client sends the text again) and registrations stay local.
import { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import type { Logger } from "../core/logger.ts";

export interface ApqCache {
  /** The text registered for `hash`, or undefined. */
  get(hash: string): Promise<string | undefined>;
  /** Registers `text` under `hash` (the caller has checked that it is the text's sha256). */
  set(hash: string, text: string): void;
  close(): Promise<void>;
}

export interface ApqCacheOptions {
  /** Most entries kept, here and in Redis (GRAPHQL_APQ_CACHE_SIZE). */
  size: number;
  redisUrl?: string | undefined;
  log: Logger;
  /** Checks a text read from Redis against its hash (a shared Redis is not trusted to be ours alone). */
  hashOf: (text: string) => string;
  /** Where the keys live in Redis: `<prefix><hash>` and the index `<prefix>lru`; default "wg:apq:". */
  keyPrefix?: string;
}

/** Characters of operation text one process keeps, all entries together (the LRU drops the oldest past it). */
export const APQ_CACHE_CHARS = 8 * 1024 * 1024;
/** An entry untouched for this long leaves Redis even if the index keeps room for it. */
const REDIS_TTL_SECONDS = 7 * 24 * 3600;

// Sets the text, marks it most recently used, and drops the least recently used past the bound.
const REGISTER = `
redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3], 'EX', tonumber(ARGV[6]))
redis.call('ZADD', KEYS[1], tonumber(ARGV[4]), ARGV[2])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if over > 0 then
  for _, hash in ipairs(redis.call('ZRANGE', KEYS[1], 0, over - 1)) do redis.call('DEL', ARGV[1] .. hash) end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
end
return over`;

type ApqRedis = Redis & {
  apqRegister(index: string, prefix: string, hash: string, text: string, now: number, size: number, ttl: number): Promise<number>;
};

/** A registered text, and when this process last told Redis it was used. */
interface Entry {
  text: string;
  touchedAt: number;
}

/** Redis hears of a use at most this often per hash and process: a hit costs no write. */
const TOUCH_EVERY_MS = 60_000;

export function createApqCache(options: ApqCacheOptions): ApqCache {
  const local = new LRUCache<string, Entry>({
    max: options.size,
    maxSize: APQ_CACHE_CHARS,
    sizeCalculation: (entry) => Math.max(1, entry.text.length),
  });
  const redis = options.redisUrl ? sharedCache(options) : undefined;
  return {
    async get(hash) {
      const entry = local.get(hash);
      if (entry) {
        // A use here is a use there too, so that Redis drops what no replica uses.
        if (redis && Date.now() - entry.touchedAt > TOUCH_EVERY_MS) {
          entry.touchedAt = Date.now();
          redis.touch(hash);
        }
        return entry.text;
      }
      const text = await redis?.get(hash);
      if (text !== undefined) local.set(hash, { text, touchedAt: Date.now() });
      return text;
    },
    set(hash, text) {
      local.set(hash, { text, touchedAt: Date.now() });
      redis?.set(hash, text);
    },
    close: async () => redis?.close(),
  };
}

/** The Redis half: every command fails fast while Redis is away, and a failure is a miss. */
function sharedCache(options: ApqCacheOptions) {
  const redis = new Redis(options.redisUrl!, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) as ApqRedis;
  redis.defineCommand("apqRegister", { numberOfKeys: 1, lua: REGISTER });
  // Redis going away and coming back is logged and shown in /readyz by the rate limits, which use
  // the same REDIS_URL (src/core/rate-limit.ts); here a failure is only a miss.
  redis.on("error", (error) => options.log.debug({ err: error }, "APQ: redis unreachable"));
  const prefix = options.keyPrefix ?? "wg:apq:";
  const index = `${prefix}lru`;
  const quietly = (what: string) => (error: unknown) => options.log.debug({ err: error }, `APQ ${what} in Redis failed`);
  const touch = (hash: string) =>
    void redis
      .multi()
      .zadd(index, "XX", Date.now(), hash)
      .expire(prefix + hash, REDIS_TTL_SECONDS)
      .exec()
      .catch(quietly("touch"));
  return {
    async get(hash: string): Promise<string | undefined> {
      try {
        const text = await redis.get(prefix + hash);
        if (text === null || options.hashOf(text) !== hash) return undefined;
        touch(hash);
        return text;
      } catch (error) {
        quietly("lookup")(error);
        return undefined;
      }
    },
    set(hash: string, text: string): void {
      void redis.apqRegister(index, prefix, hash, text, Date.now(), options.size, REDIS_TTL_SECONDS).catch(quietly("registration"));
    },
    touch,
    close: async () => {
      await redis.quit().catch(() => undefined);
    },
  };
}
