// MCP over stdio (`workspace-gateway mcp`, spawned for real against a test gateway): what
// docs/security.md claims for it beyond matrix.test.ts's two cases — the scope × operation matrix,
// another tenant's document NOT_FOUND without leaking it, and malformed tools/call params as
// JSON-RPC -32602 with a short message, as over HTTP (mcp.test.ts). Raw JSON-RPC lines, so the
// answers are read exactly as a client would get them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { packageBin, rawExchange } from "../mcp/stdio-client.ts";
import { call } from "./surfaces.ts";

interface Answer {
  id: number;
  result?: { isError?: boolean; content?: Array<{ text?: string }> };
  error?: { code: number; message: string };
}

const handshake = [
  {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "security", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/** Runs the tool calls (ids 1…n) in one stdio session with `key`; the answers by id. */
async function session(tg: TestGateway, key: string, calls: Array<{ params: unknown }>, args?: string[]): Promise<Map<number, Answer>> {
  const messages = [...handshake, ...calls.map((c, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: c.params }))];
  const { stdout } = await rawExchange({ GATEWAY_URL: tg.url, GATEWAY_API_KEY: key }, messages, args);
  const answers = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Answer);
  return new Map(answers.map((a) => [a.id, a]));
}

/** "OK", the gateway code of a tool error, or `JSON-RPC <code>`. */
function outcome(answer: Answer | undefined): string {
  if (!answer) return "no answer";
  if (answer.error) return `JSON-RPC ${answer.error.code}`;
  if (answer.result?.isError) return /^([A-Z_]+):/.exec(answer.result.content?.[0]?.text ?? "")?.[1] ?? "?";
  return "OK";
}

let tg: TestGateway;
beforeAll(async () => {
  tg = await startTestGateway();
});
afterAll(() => tg.close());

describe("MCP over stdio: scope × operation", () => {
  const keys: Array<[string, string[], Record<string, string>]> = [
    ["docs:read", ["docs:read"], { docs_list: "OK", docs_read: "OK", docs_create: "FORBIDDEN" }],
    ["docs:write", ["docs:write"], { docs_list: "FORBIDDEN", docs_read: "FORBIDDEN", docs_create: "OK" }],
    ["docs:read docs:write", ["docs:read", "docs:write"], { docs_list: "OK", docs_read: "OK", docs_create: "OK" }],
  ];

  it.each(keys)("a key with %s", async (_label, scopes, expected) => {
    const user = `stdio-${scopes.join("-").replace(/:/g, "")}`;
    const full = await tg.key({ user });
    const own = ((await call(tg.url, "rest", `Bearer ${full}`, { op: "create", name: "own", markdown: "# own" })).value as { id: string })
      .id;
    const answers = await session(tg, await tg.key({ user, scopes }), [
      { params: { name: "docs_list", arguments: {} } },
      { params: { name: "docs_read", arguments: { id: own } } },
      { params: { name: "docs_create", arguments: { name: "by stdio", markdown: "# x" } } },
    ]);
    expect({ docs_list: outcome(answers.get(1)), docs_read: outcome(answers.get(2)), docs_create: outcome(answers.get(3)) }).toEqual(
      expected,
    );
  });
});

describe("MCP over stdio: other users and tenants", () => {
  it("another tenant's document (same user id) and another user's are NOT_FOUND, and nothing of them leaks", async () => {
    const tenantKey = await tg.key({ user: "alice", tenant: "acme" });
    const tenantDoc = (
      (await call(tg.url, "rest", `Bearer ${tenantKey}`, { op: "create", name: "acme-secret-name", markdown: "# acme secret text" }))
        .value as { id: string }
    ).id;
    const bobKey = await tg.key({ user: "bob" });
    const bobDoc = (
      (await call(tg.url, "rest", `Bearer ${bobKey}`, { op: "create", name: "bob-secret-name", markdown: "# bob secret text" })).value as {
        id: string;
      }
    ).id;

    const answers = await session(tg, await tg.key({ user: "alice" }), [
      { params: { name: "docs_read", arguments: { id: tenantDoc } } },
      { params: { name: "docs_read", arguments: { id: bobDoc } } },
      { params: { name: "docs_list", arguments: {} } },
    ]);
    expect(outcome(answers.get(1))).toBe("NOT_FOUND");
    expect(outcome(answers.get(2))).toBe("NOT_FOUND");
    expect(outcome(answers.get(3))).toBe("OK");
    const all = JSON.stringify([...answers.values()]);
    expect(all).not.toMatch(/secret/);
  });
});

describe("MCP over stdio: malformed tools/call params", () => {
  const malformed: unknown[] = [
    { name: "docs_list", arguments: "oops" },
    { name: "docs_list", arguments: "x" },
    { name: "docs_list", arguments: 42 },
    { name: "docs_list", arguments: [1, 2] },
    { name: "docs_list", arguments: null },
    { name: 5, arguments: {} },
  ];
  // `workspace-gateway mcp`, and the npm package workspace-gateway-mcp (issue 37 F9: it answered
  // -32603 with a multi-line dump), each spawned for real.
  it.each([
    ["workspace-gateway mcp", undefined],
    ["workspace-gateway-mcp (the package)", packageBin],
  ])(
    "%s: non-object arguments and a non-string tool name → JSON-RPC -32602 with a one-line message",
    async (_label, args) => {
      const answers = await session(
        tg,
        await tg.key({ user: "malformed" }),
        malformed.map((params) => ({ params })),
        args,
      );
      for (let id = 1; id <= malformed.length; id++) {
        const answer = answers.get(id);
        expect(outcome(answer), JSON.stringify(malformed[id - 1])).toBe("JSON-RPC -32602");
        expect(answer?.error?.message.length).toBeLessThan(200);
        expect(answer?.error?.message).not.toMatch(/\n|"code":|invalid_type|\[\s*\{/);
      }
      // A well-formed call after them is served.
      const fine = await session(tg, await tg.key({ user: "malformed" }), [{ params: { name: "docs_list", arguments: {} } }], args);
      expect(outcome(fine.get(1))).toBe("OK");
    },
    60_000,
  );
});
