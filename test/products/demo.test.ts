// `npm run demo` end to end: start it, wait for its ready line, run the printed curl commands
// (parsed and sent with fetch), then Ctrl-C it and check it stopped cleanly.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { waitFor } from "./harness.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
let child: ChildProcess;
let stdout = "";
let stderr = "";
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", SANDBOX_PORT: "0", LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  await waitFor(() => stdout.includes("Demo ready") || child.exitCode !== null, 45_000, "the demo's ready line").catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  });
  if (!stdout.includes("Demo ready")) throw new Error(`the demo exited early (${child.exitCode})\nstdout:\n${stdout}\nstderr:\n${stderr}`);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exit;
  }
});

/** Shell words of one printed command: single quotes (with '\'' escapes), backslashes, spaces. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unbalanced quote in: ${line}`);
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === "\\") {
      word += line[i + 1] ?? "";
      i += 1;
      inWord = true;
    } else if (ch === " ") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The fetch a printed `curl -sS [-X M] 'url' [-H 'k: v']… [--data-raw 'body']` line stands for. */
function curlToFetch(line: string): { url: string; init: RequestInit } {
  const words = shellWords(line);
  expect(words[0]).toBe("curl");
  let url: string | undefined;
  let method: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "-sS") continue;
    if (word === "-X") method = words[++i];
    else if (word === "-H") {
      const header = words[++i] as string;
      const colon = header.indexOf(":");
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (word === "--data-raw") body = words[++i];
    else if (word.startsWith("-")) throw new Error(`unexpected curl option ${word}`);
    else url = word;
  }
  if (!url) throw new Error(`no URL in: ${line}`);
  return { url, init: { method: method ?? (body === undefined ? "GET" : "POST"), headers, ...(body === undefined ? {} : { body }) } };
}

const printedCurls = () => stdout.split("\n").filter((l) => l.startsWith("curl "));

it("prints the gateway, the sandbox, an API key and an access token", () => {
  expect(stdout).toMatch(/Gateway {3}http:\/\/127\.0\.0\.1:\d+/);
  expect(stdout).toMatch(/Sandbox {3}http:\/\/127\.0\.0\.1:\d+/);
  expect(stdout).toMatch(/\bwgk_[A-Za-z0-9_-]{43}\b/);
  const token = /Access token[^\n]*\n {2}(\S+)/.exec(stdout)?.[1] ?? "";
  const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
  expect(payload).toMatchObject({ sub: "demo-user", scope: "docs:read docs:write sheets:read sheets:write", tenant: "acme" });
  expect(printedCurls().length).toBeGreaterThanOrEqual(5);
});

it("a printed GraphQL curl works as printed", async () => {
  const line = printedCurls().find((l) => l.includes("/graphql") && l.includes("messages("));
  if (!line) throw new Error(`no GraphQL messages curl in:\n${stdout}`);
  const { url, init } = curlToFetch(line);
  const response = await fetch(url, init);
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    data?: { viewer: { id: string; tenant: string }; messages: { edges: unknown[] } };
    errors?: unknown;
  };
  expect(body.errors).toBeUndefined();
  expect(body.data?.viewer).toMatchObject({ id: "demo-user", tenant: "acme" });
  expect(body.data?.messages.edges).toHaveLength(3);
});

it("a printed tRPC curl and a printed REST curl work as printed", async () => {
  const trpc = printedCurls().find((l) => l.includes("/trpc/messages.list"));
  const rest = printedCurls().find((l) => l.includes("/api/v1/documents?"));
  if (!trpc || !rest) throw new Error(`missing curls in:\n${stdout}`);
  for (const line of [trpc, rest]) {
    const { url, init } = curlToFetch(line);
    const response = await fetch(url, init);
    expect(response.status, line).toBe(200);
  }
});

it("the printed MCP client configurations work as printed (issue 26 point 6)", async () => {
  const section = stdout.split("## MCP client configuration")[1]?.split("\nDemo ready")[0];
  if (!section) throw new Error(`no MCP client configuration in:\n${stdout}`);
  // The two JSON blocks, each after its comment line.
  const blocks = section
    .split(/\n# [^\n]*\n/)
    .slice(1)
    .map((block) => JSON.parse(block.trim()) as { mcpServers: { workspace: Record<string, unknown> } });
  expect(blocks).toHaveLength(2);
  const http = blocks[0]!.mcpServers.workspace as { type: string; url: string; headers: Record<string, string> };
  expect(http).toMatchObject({
    type: "http",
    url: expect.stringMatching(/\/mcp$/),
    headers: { Authorization: expect.stringMatching(/^Bearer /) },
  });
  const client = new Client({ name: "demo-config", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: http.headers } }));
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["mail_list", "docs_read"]));
  await client.close();
  const stdio = blocks[1]!.mcpServers.workspace as { command: string; args: string[]; env: Record<string, string> };
  expect(stdio.args.at(-1)).toBe("mcp");
  expect(existsSync(stdio.args[0]!)).toBe(true);
  expect(stdio.env).toMatchObject({ GATEWAY_URL: http.url.replace(/\/mcp$/, ""), GATEWAY_TOKEN: http.headers["Authorization"]!.slice(7) });
});

it("Ctrl-C stops the gateway and the sandbox and removes the temp data", async () => {
  const dataDir = /Data dir {2}(\S+)/.exec(stdout)?.[1];
  expect(dataDir && existsSync(dataDir)).toBe(true);
  const gateway = /Gateway {3}(\S+)/.exec(stdout)?.[1] as string;
  child.kill("SIGINT");
  const { code } = await exit;
  expect(code).toBe(0);
  expect(stdout).toContain("Stopped.");
  expect(existsSync(dataDir as string)).toBe(false);
  await expect(fetch(`${gateway}/healthz`)).rejects.toThrow();
});
