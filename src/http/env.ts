import type { Logger } from "../core/logger.ts";

/** Hono variables every route can rely on. */
export interface HttpEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** The client's address (src/auth/client-address.ts). */
    clientAddress: string;
    /** Set when a surface sent its response itself (the Node fast path, see ./node.ts). */
    sentStatus?: number;
  };
}
