// The gateway on the machine's real PostgreSQL and Redis: the same documents behaviour on the
// PostgreSQL store, rate limits shared by two replicas through Redis, and logs free of credentials.
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { documentsBehaviour } from "../documents/behaviour.ts";
import { restDriver } from "../documents/rest-driver.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const redisUrl = process.env["TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";
const { databaseUrl } = usePostgresSchema("gw_test");

describe("REST documents behaviour on the PostgreSQL store", () => {
  documentsBehaviour((tg) => restDriver(tg.url), { DATABASE_URL: databaseUrl });
});

describe("rate limits shared through Redis", () => {
  it("two replicas share one principal's budget and answer 429 with Retry-After", async () => {
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, RATE_LIMIT_PER_MINUTE: "6" };
    const a = await startTestGateway(env);
    const b = await startTestGateway(env);
    try {
      // Until a replica's Redis connection is up it counts on its own (/readyz says degraded).
      for (const tg of [a, b]) {
        const deadline = Date.now() + 10_000;
        while (((await (await fetch(`${tg.url}/readyz`)).json()) as { status: string }).status !== "ready") {
          if (Date.now() > deadline) throw new Error("a replica's Redis connection did not come up in 10 s");
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const key = await a.key({ user: `rl-${randomBytes(4).toString("hex")}` });
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 8; i++) {
        const response = await fetch(`${(i % 2 ? b : a).url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } });
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter = response.headers.get("retry-after");
          expect(await response.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("logs", () => {
  it("are JSON lines with the request id and never contain a credential", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
    const tg = await startTestGateway({ LOG_LEVEL: "debug" }, { logTo: stream });
    try {
      const key = await tg.key();
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", "x-request-id": "log-check-1" };
      await fetch(`${tg.url}/api/v1/documents`, { method: "POST", headers, body: JSON.stringify({ name: "n", markdown: "m" }) });
      await fetch(`${tg.url}/api/v1/documents?query=${key}`, { headers });
      await fetch(`${tg.url}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: "{ viewer { id } }" }) });
      await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: "Bearer wgk_wrongwrongwrongwrongwrongwrongwrongwrongwro" } });
      await new Promise((r) => setTimeout(r, 100));
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        expect(entry["level"]).toBeTypeOf("string");
        expect(line).not.toContain(key);
        expect(line).not.toContain(key.slice(4));
        expect(line).not.toContain("wgk_wrong");
      }
      expect(lines.some((l) => l.includes('"requestId":"log-check-1"'))).toBe(true);
    } finally {
      await tg.close();
    }
  });
});
