// Shutdown closes only the listener at its quiet instant (src/server.ts): a connection the gateway
// had already accepted, whose request was still on its way, is answered. Node's http.Server close()
// also closes every idle connection at once, that one included, and a balancer's request on it
// then found it closed unanswered (test/deploy/rolling.test.ts: "socket hang up (POST, new connection)").
import { mkdtemp, rm } from "node:fs/promises";
import { once } from "node:events";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { createGateway } from "../../src/gateway.ts";
import { listen } from "../../src/server.ts";

/** Resolves once `check` holds, checked every event-loop turn (at most `ms`). */
async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

it("a connection accepted before the listener closes, its request sent just after, is answered", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-close-"));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0" });
  const running = await listen(await createGateway(config), { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  try {
    const socket = connect(running.port, "127.0.0.1");
    socket.on("error", () => {}); // a write on a connection the server closed: the answer below says so
    await once(socket, "connect");
    const connections = () => new Promise<number>((resolve) => running.server.getConnections((_, n) => resolve(n)));
    await until(async () => (await connections()) === 1);

    const stopped = running.stop();
    await until(() => !running.server.listening);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    const closed = once(socket, "close");
    socket.write("GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n");
    await closed;
    await stopped;

    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // While draining, an answer asks its client to close the connection.
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  } finally {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
