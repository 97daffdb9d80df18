// Redis down (docs/deploy.md#when-postgresql-or-redis-is-down): the test starts its own
// redis-server on a free port of its own (never the machine's 6379), sends traffic through two
// gateways sharing it, SIGKILLs it mid-traffic and restarts it on the same port. While it is down
// every request is still served (rate limits fail open: counted per process, with a metric), one
// log line says so, /readyz is 200 "degraded" with the reason; once it is back the gateways
// reconnect by themselves: /readyz "ready" and the limit shared by both again.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { requireProgram } from "../helpers/external.ts";

const redisServer = requireProgram("redis-server", {
  install: "apt-get install redis-server",
  purpose: "the Redis outage test (test/deploy/redis-outage.test.ts)",
});

const LIMIT = 200;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A port nothing listens on right now (the OS's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** redis-server on `port`, no persistence (a restart starts empty, as a crashed cache would); resolves once it accepts connections. */
function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(redisServer!, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

/** Polls `check` until it passes (the events here are reconnects on ioredis's own schedule). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const readyz = async (tg: TestGateway) => {
  const response = await fetch(`${tg.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string; reasons?: string[] } };
};

/** gateway_rate_limit_fail_open_total{limiter="requests"} (0 before its first increment). */
async function failOpenCount(tg: TestGateway): Promise<number> {
  const text = await (await fetch(`${tg.url}/metrics`)).text();
  return Number(/^gateway_rate_limit_fail_open_total\{limiter="requests"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

describe.skipIf(!redisServer)("Redis killed mid-traffic, then restarted on the same port", () => {
  it("serves every request, says so once in the log, in /readyz and in a metric; recovers without a restart", async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    // One store for both, so one API key is one principal on both.
    const dataDir = await mkdtemp(join(tmpdir(), "wg-redis-outage-"));
    const env = { DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: String(LIMIT), LOG_LEVEL: "info" };
    const log = new PassThrough();
    let logText = "";
    log.on("data", (chunk: Buffer) => (logText += chunk.toString()));
    const redisLines = () =>
      logText
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string })
        .filter((line) => /redis/i.test(line.msg));
    const a = await startTestGateway(env, { logTo: log });
    const b = await startTestGateway({ ...env, LOG_LEVEL: "silent" });
    try {
      for (const tg of [a, b]) await eventually(async () => expect((await readyz(tg)).body.status).toBe("ready"));
      expect(await failOpenCount(a)).toBe(0);

      // Traffic: one request after another on A for as long as `traffic` runs.
      const trafficKey = await a.key({ user: "traffic" });
      const statuses: number[] = [];
      let stop = false;
      const traffic = (async () => {
        while (!stop) {
          const response = await fetch(`${a.url}/api/v1/documents`, { headers: { authorization: `Bearer ${trafficKey}` } });
          statuses.push(response.status);
          await response.arrayBuffer();
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      await eventually(async () => expect(statuses.length).toBeGreaterThan(10));

      await killed(redis);
      const sentBeforeKill = statuses.length;
      const degraded = await eventually(async () => {
        const ready = await readyz(a);
        expect(ready).toMatchObject({ status: 200, body: { status: "degraded" } });
        return ready.body;
      });
      expect(degraded.reasons).toEqual([expect.stringMatching(/^redis: /)]);
      // Traffic goes on while Redis is down: give it time for many reconnect attempts.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(statuses.length).toBeGreaterThan(sentBeforeKill + 20);
      expect(await failOpenCount(a)).toBeGreaterThan(0);
      expect(redisLines()).toEqual([expect.objectContaining({ msg: expect.stringMatching(/^redis unreachable/) })]);

      redis = await startRedis(port);
      for (const tg of [a, b]) await eventually(async () => expect((await readyz(tg)).body).toEqual({ status: "ready" }));
      stop = true;
      await traffic;
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(redisLines().map((l) => l.msg)).toEqual([
        expect.stringMatching(/^redis unreachable/),
        expect.stringMatching(/^redis reachable again/),
      ]);

      // Shared again: the restarted Redis counts one budget for A and B together, and no check fails open.
      const failOpenAfter = await failOpenCount(a);
      const sharedKey = await a.key({ user: "shared" });
      const get = (tg: TestGateway) =>
        fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${sharedKey}` } }).then((r) => r.status);
      const half = await Promise.all(Array.from({ length: LIMIT / 2 }, () => get(a)));
      const otherHalf = await Promise.all(Array.from({ length: LIMIT / 2 }, () => get(b)));
      expect([...half, ...otherHalf].every((s) => s === 200)).toBe(true);
      expect(await get(a)).toBe(429);
      expect(await get(b)).toBe(429);
      expect(await failOpenCount(a)).toBe(failOpenAfter);
    } finally {
      await b.close();
      await a.close(); // removes dataDir
    }
  });
});
