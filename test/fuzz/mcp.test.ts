// MCP fuzzing: random `tools/call` arguments through the real MCP SDK client over Streamable
// HTTP (known tools with arguments shaped like theirs or not, unknown tools), and random
// JSON-RPC messages posted raw to /mcp. A tool failure must be an isError result whose text is
// `CODE: message` with a known code, or a JSON-RPC error; never INTERNAL, never a 5xx.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyValue, expectCode, fuzzParams, invariant, KNOWN_CODES, nastyString, parseJson, startFuzzEnv, type FuzzEnv } from "./harness.ts";

let env: FuzzEnv;
/** One connected client per credential kind: API key (docs tools), access token (drive tools). */
let clients: Client[] = [];

async function connect(authorization: string): Promise<Client> {
  const client = new Client({ name: "fuzz", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${env.url}/mcp`), { requestInit: { headers: { authorization } } }));
  return client;
}

beforeAll(async () => {
  env = await startFuzzEnv();
  clients = [await connect(`Bearer ${env.apiKey}`), await connect(`Bearer ${env.products.token}`)];
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await env?.close();
});

const id = fc.oneof(fc.constantFrom("f1", "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A", "doc_", "\ud800"), nastyString(30));
const count = fc.oneof(fc.integer({ min: -2, max: 1_000_001 }), anyValue);
const shaped: Record<string, fc.Arbitrary<unknown>> = {
  docs_list: fc.record({ query: nastyString(), limit: count, cursor: nastyString() }, { requiredKeys: [] }),
  docs_read: fc.record({ id, maxChars: count }, { requiredKeys: [] }),
  docs_create: fc.record(
    {
      name: nastyString(300),
      markdown: fc.oneof(fc.string({ maxLength: 300 }), nastyString(), anyValue),
      idempotencyKey: nastyString(300),
    },
    { requiredKeys: [] },
  ),
  drive_search: fc.record({ query: nastyString(1100) }, { requiredKeys: [] }),
  drive_get: fc.record({ id }, { requiredKeys: [] }),
};
const toolCall = fc.oneof(
  {
    arbitrary: fc
      .constantFrom(...Object.keys(shaped))
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.oneof(
            { arbitrary: shaped[name] as fc.Arbitrary<unknown>, weight: 5 },
            { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 3 }), weight: 1 },
          ),
        ),
      ),
    weight: 9,
  },
  {
    arbitrary: fc.tuple(
      fc.oneof(fc.constantFrom("docs_delete", "", "__proto__"), nastyString(20)),
      fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 3 }),
    ),
    weight: 1,
  },
);

const textOf = (result: Record<string, unknown>): string =>
  ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? "").join("\n");

describe("MCP fuzz", () => {
  it("answers random tools/call arguments with a coded isError result or a JSON-RPC error", async () => {
    let errors = 0;
    let ok = 0;
    await fc.assert(
      fc.asyncProperty(toolCall, fc.nat(), async ([name, args], which) => {
        const client = clients[which % clients.length] as Client;
        const where = `tools/call ${name} ${JSON.stringify(args)?.slice(0, 300)}`;
        let result;
        try {
          result = await client.callTool({ name, arguments: args as Record<string, unknown> });
        } catch (error) {
          // A JSON-RPC error (unknown tool, arguments the SDK refuses): fine, if it is one.
          invariant(error instanceof McpError, `${where}: ${String(error)}`);
          invariant(!/INTERNAL|Internal error/.test(error.message), `${where}: ${error.message}`);
          errors++;
          return;
        }
        const text = textOf(result as Record<string, unknown>);
        if (result.isError) {
          const code = /^([A-Z_]+): ./.exec(text)?.[1];
          // The SDK's own argument validation answers `MCP error -32602: …` as a tool error.
          if (code === undefined) invariant(/^MCP error -\d+: /.test(text), `${where}: isError text ${JSON.stringify(text.slice(0, 300))}`);
          else expectCode(code, undefined, where);
          errors++;
        } else {
          invariant(!text.startsWith("INTERNAL"), `${where}: ${text.slice(0, 300)}`);
          ok++;
        }
      }),
      fuzzParams(0x3c9, 150),
    );
    expect(ok).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(0);
  });

  const message = fc.oneof(
    fc.record(
      {
        jsonrpc: fc.constantFrom("2.0", "2.0", "1.0", 2),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)),
        method: fc.constantFrom(
          "tools/call",
          "tools/call",
          "tools/list",
          "initialize",
          "ping",
          "resources/list",
          "prompts/get",
          "notifications/initialized",
          "nope",
        ),
        params: fc.oneof(
          toolCall.map(([name, args]) => ({ name, arguments: args })),
          anyValue,
          fc.constant({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } }),
        ),
      },
      { requiredKeys: ["jsonrpc", "method"] },
    ),
    anyValue,
  );
  const rawBody = fc.oneof(
    { arbitrary: message.map((m) => JSON.stringify(m) ?? "null"), weight: 6 },
    { arbitrary: fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)), weight: 1 },
    { arbitrary: fc.constantFrom("", "{", "[", '{"jsonrpc":"2.0"}', "null"), weight: 1 },
  );

  it("answers raw JSON-RPC posts without a 5xx, with JSON-RPC errors or coded tool errors", async () => {
    await fc.assert(
      fc.asyncProperty(
        rawBody,
        fc.constantFrom("application/json, text/event-stream", "application/json", "text/event-stream", "*/*", undefined),
        fc.constantFrom("application/json", "application/json", "text/plain", undefined),
        fc.boolean(),
        async (body, accept, contentType, apiKey) => {
          const headers: Record<string, string> = { authorization: `Bearer ${apiKey ? env.apiKey : env.products.token}` };
          if (accept !== undefined) headers["accept"] = accept;
          if (contentType !== undefined) headers["content-type"] = contentType;
          const response = await fetch(`${env.url}/mcp`, { method: "POST", headers, body });
          const text = await response.text();
          const where = `POST /mcp ${body.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
          invariant(response.status < 500, where);
          invariant(!/"INTERNAL|Internal error/.test(text), where);
          if (!text) return;
          const answer = parseJson(text, where) as unknown;
          for (const item of Array.isArray(answer) ? answer : [answer]) {
            const reply = item as {
              error?: { code?: unknown; data?: { code?: unknown } };
              result?: { isError?: boolean; content?: { text?: string }[] };
            };
            if (reply.error) {
              invariant(typeof reply.error.code === "number", `${where}: JSON-RPC error without a numeric code`);
              if (reply.error.data?.code !== undefined) invariant(KNOWN_CODES.has(String(reply.error.data.code)), where);
            } else if (reply.result?.isError) {
              const first = reply.result.content?.[0]?.text ?? "";
              const code = /^([A-Z_]+): ./.exec(first)?.[1];
              if (code !== undefined) expectCode(code, undefined, where);
              else invariant(/^MCP error -\d+: /.test(first), where);
            }
          }
        },
      ),
      fuzzParams(0x3ca, 100),
    );
  });
});
