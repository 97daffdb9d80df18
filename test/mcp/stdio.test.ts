// `workspace-gateway mcp` spawned for real, talking to a gateway on an ephemeral port over tRPC.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { expectDocumentRoundTrip, expectToolErrors, expectToolList } from "./mcp-cases.ts";

const bin = fileURLToPath(new URL("../../bin/workspace-gateway.js", import.meta.url));
let tg: TestGateway;
let client: Client;
let key: string;
const stderr: string[] = [];

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "stdio-agent" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp"],
    env: { PATH: process.env["PATH"] ?? "", GATEWAY_URL: tg.url, GATEWAY_API_KEY: key },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await tg.close();
});

describe("MCP over stdio (workspace-gateway mcp)", () => {
  it("lists the tools", async () => {
    await expectToolList(client);
  });

  it("round-trips a document through the running gateway", async () => {
    const id = await expectDocumentRoundTrip(client, "stdio kitchen sink");
    const rest = await fetch(`${tg.url}/api/v1/documents/${id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(rest.status).toBe(200);
  });

  it("reports errors with the gateway code", async () => {
    await expectToolErrors(client);
  });

  it("logs only to stderr", () => {
    expect(stderr.join("")).toContain("serving on stdio");
  });

  it("a missing variable is a clear message and a non-zero exit", () => {
    const run = spawnSync(process.execPath, [bin, "mcp"], {
      env: { PATH: process.env["PATH"] ?? "", GATEWAY_URL: "not a url" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/GATEWAY_URL/);
    expect(run.stderr).toMatch(/GATEWAY_API_KEY is required/);
  });
});
