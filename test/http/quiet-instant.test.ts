// The listener closes at a quiet instant (src/http/quiet-instant.ts): after an event-loop turn that
// was short and accepted no connection, or at the latest after its wait.
import { Server } from "node:net";
import { describe, expect, it } from "vitest";
import { quietInstant } from "../../src/http/quiet-instant.ts";

/** Runs `each` once per event-loop turn (an immediate that queues itself) until stopped. */
function everyTurn(each: () => void): () => void {
  let running = true;
  const turn = () => {
    if (!running) return;
    each();
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => (running = false);
}

describe("quietInstant", () => {
  it("resolves at a quiet turn on an idle loop, long before its wait", async () => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((resolve) => (timer = setTimeout(resolve, 2_000, "waited")));
    const first = await Promise.race([quietInstant(new Server(), 60_000).then(() => "quiet"), waited]);
    clearTimeout(timer);
    expect(first).toBe("quiet");
  });

  it("waits while every turn is busy (longer than a quiet turn), then resolves at its wait", async () => {
    const stop = everyTurn(() => {
      const until = performance.now() + 2;
      while (performance.now() < until);
    });
    const started = performance.now();
    await quietInstant(new Server(), 150);
    stop();
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("waits while every turn accepts a connection, however short, and stops listening for them after", async () => {
    const server = new Server();
    const stop = everyTurn(() => server.emit("connection"));
    const started = performance.now();
    await quietInstant(server, 150, 1_000);
    stop();
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect(server.listenerCount("connection")).toBe(0);
  });
});
