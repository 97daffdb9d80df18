// When to close a listening socket without resetting a request already on its way (src/server.ts stop).
import type { Server } from "node:net";

/** An event-loop turn shorter than this that accepted no connection is a quiet instant. */
const QUIET_TURN_MS = 0.5;

/**
 * Resolves at a quiet instant to close the listener. Closing it makes the kernel reset the
 * connections it has completed but Node has not accepted yet: the request a balancer just sent on
 * a fresh connection is reset, and a passive one (nginx) cannot tell it was never read, so it
 * never resends a POST (test/deploy/rolling.test.ts failed half its runs on this). So the listener
 * closes right after an event-loop turn that accepted no connection and was short: its poll found
 * no connection waiting, a moment ago. Checked once per turn with setImmediate (the loop then
 * polls without waiting); after `maxWaitMs` it closes regardless.
 */
export function quietInstant(server: Server, maxWaitMs: number, quietTurnMs = QUIET_TURN_MS): Promise<void> {
  return new Promise((resolve) => {
    let accepted = 0;
    const count = () => void accepted++;
    server.on("connection", count);
    const until = performance.now() + maxWaitMs;
    let last = performance.now();
    let seen = 0;
    const turn = () => {
      const now = performance.now();
      const quiet = accepted === seen && now - last < quietTurnMs;
      seen = accepted;
      last = now;
      if (!quiet && now < until) return void setImmediate(turn);
      server.off("connection", count);
      resolve();
    };
    setImmediate(turn);
  });
}
