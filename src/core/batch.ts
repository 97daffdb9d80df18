// How many calls one request may carry: a tRPC batch's procedures, an MCP JSON-RPC batch's
// messages (BATCH_MAX_CALLS, default 20; docs/security.md "Batches"). A batch over it runs none of
// its calls and spends none of the rate limit: PAYLOAD_TOO_LARGE, as for any request that asks too
// much at once, since the same calls in smaller batches succeed. GraphQL takes one operation per
// request (an array of operations is refused by the server before this is asked).
import { GatewayError } from "./errors.ts";

export const DEFAULT_BATCH_MAX_CALLS = 20;

export const batchTooLarge = (calls: number, limit: number): GatewayError =>
  new GatewayError(
    "PAYLOAD_TOO_LARGE",
    `One request may carry at most ${limit} calls (BATCH_MAX_CALLS); this batch has ${calls}: send them in smaller batches`,
    { details: { limit, calls } },
  );
