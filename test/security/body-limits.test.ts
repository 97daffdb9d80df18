// Body limits against a client that lies (issue 13: "body limits with lying or chunked lengths"
// held up and must keep holding). Over a raw socket, so the Content-Length can say anything: on
// REST, GraphQL, tRPC and MCP, a Content-Length over the limit, one longer or shorter than the
// body, and a chunked body that runs past the limit each get a clean 4xx — in the surface's own
// error shape whenever a surface sees the request (a message that HTTP framing itself cannot
// complete is refused by Node's parser with a plain 400) — never a 5xx, and the server keeps
// serving.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const LIMIT = 4_096;
/** Header and whole-request timeouts: a Content-Length longer than the body sent ends by then. */
const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1_500;

interface Surface {
  name: string;
  path: string;
  /** A valid create request's body with `markdown` of the given length. */
  body(markdownChars: number): string;
  /** The error code from an answer in the surface's own shape, or undefined if it is not in it. */
  code(status: number, body: unknown): string | undefined;
}

type Json = Record<string, unknown> | undefined;
const get = (value: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (v as Json)?.[k], value);

const surfaces: Surface[] = [
  {
    name: "REST",
    path: "/api/v1/documents",
    body: (n) => JSON.stringify({ name: "lying", markdown: "x".repeat(n) }),
    code: (_status, body) => get(body, "error", "code") as string | undefined,
  },
  {
    name: "GraphQL",
    path: "/graphql",
    body: (n) =>
      JSON.stringify({
        query: 'mutation($m: String!) { createDocument(input: { name: "lying", markdown: $m }) { id } }',
        variables: { m: "x".repeat(n) },
      }),
    code: (_status, body) => get((get(body, "errors") as unknown[] | undefined)?.[0], "extensions", "code") as string | undefined,
  },
  {
    name: "tRPC",
    path: "/trpc/documents.create",
    body: (n) => JSON.stringify({ name: "lying", markdown: "x".repeat(n) }),
    code: (_status, body) => get(body, "error", "data", "gatewayCode") as string | undefined,
  },
  {
    name: "MCP",
    path: "/mcp",
    body: (n) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "docs_create", arguments: { name: "lying", markdown: "x".repeat(n) } },
      }),
    // A JSON-RPC error (numeric code) or the REST error body, as the MCP surface answers HTTP-level refusals.
    code: (_status, body) => {
      const error = get(body, "error");
      if (typeof get(error, "code") === "string") return get(error, "code") as string;
      return typeof get(error, "code") === "number" && get(body, "jsonrpc") === "2.0"
        ? `JSON-RPC ${String(get(error, "code"))}`
        : undefined;
    },
  },
];

interface RawResponse {
  status: number;
  body: unknown;
  text: string;
}

interface Send {
  /** Half-close after the parts (the client says it has nothing more to send). */
  end?: boolean;
  /** Bytes sent only once the server has started to answer. */
  later?: Buffer;
}

/**
 * Sends `head` (request line and headers, without the blank line) then `parts` over one socket,
 * with `Connection: close`; resolves with the first response (or status 0 when the server closed
 * without one).
 */
function raw(url: string, head: string, parts: Buffer[], send: Send = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 10 s: ${Buffer.concat(chunks).toString("latin1").slice(0, 200)}`));
    }, 10_000);
    socket.on("data", (chunk: Buffer) => {
      if (chunks.length === 0 && send.later && !socket.destroyed) socket.write(send.later);
      chunks.push(chunk);
    });
    // The server may close while we still write (it refused the body): that is expected.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString("utf8")));
    });
    socket.on("connect", () => {
      socket.write(`${head}\r\nConnection: close\r\n\r\n`);
      for (const part of parts) if (!socket.destroyed) socket.write(part);
      if (send.end && !socket.destroyed) socket.end();
    });
  });
}

function parseResponse(text: string): RawResponse {
  const split = text.indexOf("\r\n\r\n");
  if (!text.startsWith("HTTP/1.1 ") || split < 0) return { status: 0, body: undefined, text };
  const headers = text.slice(0, split).toLowerCase();
  let payload = text.slice(split + 4);
  if (/\r\ntransfer-encoding: chunked/.test(headers)) {
    let out = "";
    for (let at = 0; ;) {
      const eol = payload.indexOf("\r\n", at);
      const size = parseInt(payload.slice(at, eol), 16);
      if (!size) break;
      out += payload.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    payload = out;
  }
  // An SSE answer (MCP) carries its JSON on a data: line.
  const data = /^data: (.*)$/m.exec(payload)?.[1];
  let body: unknown;
  try {
    body = JSON.parse(data ?? payload);
  } catch {
    body = undefined;
  }
  return { status: Number(text.slice(9, 12)), body, text };
}

const chunk = (data: string) => Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`);

describe("body limits against lying and chunked lengths", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway({
      BODY_LIMIT_BYTES: String(LIMIT),
      GRAPHQL_BODY_LIMIT_BYTES: String(LIMIT),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    key = await tg.key();
  });
  afterAll(() => tg.close());

  const headFor = (surface: Surface, length: string) =>
    `POST ${surface.path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\n${length}`;

  /** A clean refusal: 4xx, in the surface's shape, with `status` and `code` when given (MCP has JSON-RPC codes). */
  function expectRefusal(surface: Surface, response: RawResponse, expected: { status?: number; code?: string } = {}): void {
    const text = response.text.slice(0, 300);
    expect(response.status, text).toBeGreaterThanOrEqual(400);
    expect(response.status, text).toBeLessThan(500);
    if (expected.status) expect(response.status, text).toBe(expected.status);
    const code = surface.code(response.status, response.body);
    expect(code, text).toBeDefined();
    if (expected.code && surface.name !== "MCP") expect(code, text).toBe(expected.code);
  }
  const tooLarge = { status: 413, code: "PAYLOAD_TOO_LARGE" };

  describe.each(surfaces)("$name", (surface) => {
    it("control: an honest body under the limit is served, also chunked", async () => {
      const body = surface.body(100);
      const plain = await raw(tg.url, headFor(surface, `Content-Length: ${Buffer.byteLength(body)}`), [Buffer.from(body)]);
      expect(plain.status, plain.text.slice(0, 300)).toBeLessThan(300);
      const chunked = await raw(tg.url, headFor(surface, "Transfer-Encoding: chunked"), [
        chunk(body.slice(0, 50)),
        chunk(body.slice(50)),
        Buffer.from("0\r\n\r\n"),
      ]);
      expect(chunked.status, chunked.text.slice(0, 300)).toBeLessThan(300);
    });

    it("a Content-Length over the limit is refused from the header, without waiting for the body", async () => {
      const response = await raw(tg.url, headFor(surface, `Content-Length: ${LIMIT * 100}`), [Buffer.from('{"na')]);
      expectRefusal(surface, response, tooLarge);
    });

    it("a Content-Length shorter than the body: the cut JSON is refused as bad input, in the surface's shape", async () => {
      const body = Buffer.from(surface.body(200));
      const cut = Math.floor(body.length / 2);
      // The rest of the body follows once the server has answered what the Content-Length covered.
      const response = await raw(tg.url, headFor(surface, `Content-Length: ${cut}`), [body.subarray(0, cut)], {
        later: body.subarray(cut),
      });
      expectRefusal(surface, response, { status: 400 });
    });

    it("a Content-Length shorter than the body, sent in one go: the excess is a malformed next request, a plain 400", async () => {
      // Node's HTTP parser may meet the excess before the handler answers: its 400 then goes first.
      const body = surface.body(200);
      const response = await raw(tg.url, headFor(surface, `Content-Length: ${Math.floor(Buffer.byteLength(body) / 2)}`), [
        Buffer.from(body),
      ]);
      expect(response.status, response.text.slice(0, 300)).toBe(400);
      if (response.body !== undefined) expectRefusal(surface, response, { status: 400 });
    });

    it("a Content-Length longer than the body, then the client stops sending: 408 or closed at the request timeout, never a 5xx", async () => {
      const body = surface.body(200);
      const start = performance.now();
      const held = await raw(tg.url, headFor(surface, `Content-Length: ${Buffer.byteLength(body) + 1_000}`), [Buffer.from(body)]);
      expect(held.status === 0 || held.status === 408, held.text.slice(0, 300)).toBe(true);
      expect(performance.now() - start).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
    });

    it("a Content-Length longer than the body, then the client half-closes: no 5xx", async () => {
      const body = surface.body(200);
      const response = await raw(tg.url, headFor(surface, `Content-Length: ${Buffer.byteLength(body) + 1_000}`), [Buffer.from(body)], {
        end: true,
      });
      // The body can never be complete: Node's HTTP parser refuses the cut message (a plain 400,
      // before any surface sees it) or the server just closes.
      expect([0, 400], response.text.slice(0, 300)).toContain(response.status);
    });

    it("a chunked body that runs past the limit is refused", async () => {
      const piece = "x".repeat(1_000);
      const parts = [chunk(`${surface.body(0).slice(0, -2)}`), ...Array.from({ length: 10 }, () => chunk(piece)), Buffer.from("0\r\n\r\n")];
      const response = await raw(tg.url, headFor(surface, "Transfer-Encoding: chunked"), parts);
      expectRefusal(surface, response, tooLarge);
    });
  });

  it("the server is still up and serving after all of it", async () => {
    expect((await fetch(`${tg.url}/healthz`)).status).toBe(200);
    const response = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "after", markdown: "# still here" }),
    });
    expect(response.status).toBe(201);
  });
});
