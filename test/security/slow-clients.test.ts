// Slow clients over raw sockets: headers sent a line at a time (slowloris) and a body sent a byte
// at a time are cut off by HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS (small ones here), and the
// gateway keeps serving others meanwhile.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1_500;

interface Trickle {
  /** Resolves when the server closes the connection: ms since the start and what it sent. */
  closed: Promise<{ ms: number; received: string }>;
  stop(): void;
}

/** Opens a socket, writes `head` at once, then `drip()` every `everyMs` until the server closes it. */
function trickle(url: string, head: string, drip: () => string, everyMs: number): Trickle {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const started = Date.now();
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  socket.on("error", () => undefined);
  socket.write(head);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(drip());
  }, everyMs);
  const closed = new Promise<{ ms: number; received: string }>((resolve) =>
    socket.once("close", () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - started, received });
    }),
  );
  return {
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms))]);

describe("slow clients", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway({ HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    key = await tg.key();
  });
  afterAll(() => tg.close());

  it("headers sent a line every 100 ms (slowloris) are cut off after HEADERS_TIMEOUT_MS", async () => {
    let n = 0;
    const slow = trickle(tg.url, "GET /api/v1/documents HTTP/1.1\r\nHost: localhost\r\n", () => `X-Slow-${n++}: a\r\n`, 100);
    try {
      const { ms, received } = await within(slow.closed, HEADERS_TIMEOUT_MS * 5);
      expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
      expect(received === "" || received.startsWith("HTTP/1.1 408")).toBe(true);
    } finally {
      slow.stop();
    }
  });

  it.each([
    ["REST", "/api/v1/documents"],
    ["GraphQL", "/graphql"],
    ["tRPC", "/trpc/documents.create"],
    ["MCP", "/mcp"],
  ])("a %s body sent a byte every 100 ms is cut off after REQUEST_TIMEOUT_MS", async (_surface, path) => {
    const head =
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{`;
    const slow = trickle(tg.url, head, () => " ", 100);
    try {
      const { ms } = await within(slow.closed, REQUEST_TIMEOUT_MS * 4);
      expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    } finally {
      slow.stop();
    }
  });

  it("a connection that sends nothing after its headers start is cut off too", async () => {
    const idle = trickle(tg.url, "POST /api/v1/documents HTTP/1.1\r\nHost: localhost\r\n", () => "", 100);
    try {
      await within(idle.closed, HEADERS_TIMEOUT_MS * 5);
    } finally {
      idle.stop();
    }
  });

  it("other clients are served while slow ones are connected", async () => {
    const slow = Array.from({ length: 20 }, (_, i) =>
      trickle(tg.url, `GET /healthz HTTP/1.1\r\nHost: localhost\r\n`, () => `X-${i}: a\r\n`, 100),
    );
    try {
      const response = await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      await Promise.all(slow.map((s) => within(s.closed, HEADERS_TIMEOUT_MS * 5)));
    } finally {
      for (const s of slow) s.stop();
    }
  });
});
