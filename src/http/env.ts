import type { Logger } from "../core/logger.ts";

/** Hono variables every route can rely on. */
export interface HttpEnv {
  Variables: { requestId: string; log: Logger };
}
