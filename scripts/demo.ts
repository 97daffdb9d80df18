// `npm run demo`: the sandbox upstream plus a gateway wired to it, a demo API key and a demo access
// token, and ready-to-paste curl / GraphiQL / tRPC examples — each one run once before it is
// printed, so what you paste works. Runs until Ctrl-C, then stops both and removes its temp files.
//
//   PORT (gateway, default 4000), SANDBOX_PORT (default 4010), HOST (default 127.0.0.1),
//   LOG_LEVEL (gateway, default warn). A busy port falls back to a free one.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT } from "jose";
import { createApiKey } from "../src/auth/api-keys.ts";
import { createSignInLink, signInLinkUrl } from "../src/auth/sessions.ts";
import { createGatewayClient } from "../src/client/index.ts";
import { loadConfig } from "../src/core/config.ts";
import { createGateway } from "../src/gateway.ts";
import { listen, type RunningServer } from "../src/server.ts";
import { startSandbox, type Sandbox, type SandboxOptions } from "../test/sandbox/index.ts";

const TENANT = "acme";
const USER = "demo-user";
const SCOPES = ["docs:read", "docs:write", "sheets:read", "sheets:write"];

interface Example {
  title: string;
  method: "GET" | "POST" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The answer is right: undefined, or what is wrong with it. */
  check(status: number, body: unknown): string | undefined;
}

/** POSIX shell single quoting. */
const sh = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

export function curlOf(example: Example): string {
  const parts = ["curl", "-sS"];
  if (example.method !== "GET" || example.body !== undefined) parts.push("-X", example.method);
  parts.push(sh(example.url));
  for (const [name, value] of Object.entries(example.headers)) parts.push("-H", sh(`${name}: ${value}`));
  if (example.body !== undefined) parts.push("--data-raw", sh(example.body));
  return parts.join(" ");
}

async function verify(example: Example): Promise<void> {
  const response = await fetch(example.url, {
    method: example.method,
    headers: example.headers,
    ...(example.body !== undefined ? { body: example.body } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the check sees the text
  }
  const problem = example.check(response.status, body);
  if (problem)
    throw new Error(`demo example "${example.title}" does not work: ${problem}\n  HTTP ${response.status}: ${text.slice(0, 500)}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";
const expectStatus = (want: number) => (status: number) => (status === want ? undefined : `expected HTTP ${want}`);
const graphqlOk = (status: number, body: unknown) => {
  if (status !== 200) return "expected HTTP 200";
  if (!isObject(body) || body["errors"] !== undefined || !isObject(body["data"])) return "expected data and no errors";
  return undefined;
};
const trpcOk = (status: number, body: unknown) => {
  if (status !== 200) return "expected HTTP 200";
  if (!isObject(body) || !isObject(body["result"]) || body["result"]["data"] === undefined) return "expected {result:{data}}";
  return undefined;
};

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name}: not a port: ${raw}`);
  return port;
}

const inUse = (error: unknown) => (error as { code?: unknown } | null)?.code === "EADDRINUSE";

async function startSandboxOn(port: number, options: SandboxOptions): Promise<Sandbox> {
  try {
    return await startSandbox({ ...options, port });
  } catch (error) {
    if (!inUse(error) || port === 0) throw error;
    process.stdout.write(`(port ${port} is busy; the sandbox takes a free one)\n`);
    return startSandbox({ ...options, port: 0 });
  }
}

type Section = { heading: string; note?: string; examples: Example[] };

/** The GraphQL section: the viewer, the inbox with threads, and tenant acme's data. */
function graphqlSection(gw: string, accessToken: string): Section {
  const bearer = { Authorization: `Bearer ${accessToken}` };
  const json = { "Content-Type": "application/json" };
  const graphql = (query: string) => JSON.stringify({ query });
  return {
    heading: "GraphQL (access token: mail, drive, search, meetings, and tenant acme)",
    examples: [
      {
        title: "viewer and the inbox, with each message's thread",
        method: "POST",
        url: `${gw}/graphql`,
        headers: { ...bearer, ...json },
        body: graphql(`
          {
            viewer {
              id
              tenant
              scopes
              credentialKind
            }
            messages(folder: "inbox", first: 3) {
              edges {
                node {
                  subject
                  from {
                    email
                  }
                  thread {
                    subject
                  }
                }
              }
              pageInfo {
                hasNextPage
                endCursor
              }
            }
          }
        `),
        check: graphqlOk,
      },
      {
        title: "tenant acme: open invoices and a data question",
        method: "POST",
        url: `${gw}/graphql`,
        headers: { ...bearer, ...json },
        body: graphql(`
          {
            invoices(status: "open", first: 3) {
              edges {
                node {
                  number
                  customer {
                    name
                  }
                  total
                  currency
                }
              }
            }
            dataQuery(question: "invoice totals by customer") {
              answer
            }
          }
        `),
        check: graphqlOk,
      },
    ],
  };
}

/** The sections of examples the demo runs once and prints, against gateway `gw` and the sandbox at `sandboxUrl`. */
function demoSections(gw: string, apiKey: string, accessToken: string, sandboxUrl: string): Section[] {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const json = { "Content-Type": "application/json" };
  const trpcInput = (input: unknown) => encodeURIComponent(JSON.stringify(input));

  return [
    {
      heading: "REST documents (personal API key)",
      examples: [
        {
          title: "create a document",
          method: "POST",
          url: `${gw}/api/v1/documents`,
          headers: { ...bearer(apiKey), ...json },
          body: JSON.stringify({ name: "Demo notes", markdown: "# Demo\n\nThe gateway renders **markdown** to .docx.\n\n- one\n- two" }),
          check: expectStatus(201),
        },
        {
          title: "list documents",
          method: "GET",
          url: `${gw}/api/v1/documents?limit=5`,
          headers: bearer(apiKey),
          check: expectStatus(200),
        },
      ],
    },
    graphqlSection(gw, accessToken),
    {
      heading: "tRPC over plain HTTP (queries are GET with ?input=<JSON>, mutations POST the JSON input)",
      examples: [
        {
          title: "messages.list",
          method: "GET",
          url: `${gw}/trpc/messages.list?input=${trpcInput({ folder: "inbox", limit: 2 })}`,
          headers: bearer(accessToken),
          check: trpcOk,
        },
        {
          title: "search.chat",
          method: "POST",
          url: `${gw}/trpc/search.chat`,
          headers: { ...bearer(accessToken), ...json },
          body: JSON.stringify({ message: "What is on the offsite agenda?" }),
          check: trpcOk,
        },
        {
          title: "documents.list (API key)",
          method: "GET",
          url: `${gw}/trpc/documents.list?input=${trpcInput({ limit: 5 })}`,
          headers: bearer(apiKey),
          check: trpcOk,
        },
      ],
    },
    {
      heading: "Make the upstream fail (sandbox control API, no auth)",
      note: "then rerun the GraphQL inbox example: UPSTREAM_ERROR after two retries; clear the fault with the second command",
      examples: [
        {
          title: "every mail list call answers 503",
          method: "POST",
          url: `${sandboxUrl}/__sandbox/faults`,
          headers: json,
          body: JSON.stringify({ type: "status", path: "/email/v1/messages", status: 503 }),
          check: expectStatus(200),
        },
        { title: "clear the faults", method: "DELETE", url: `${sandboxUrl}/__sandbox/faults`, headers: {}, check: expectStatus(200) },
      ],
    },
  ];
}

/** An MCP client's configuration for the gateway's /mcp (Streamable HTTP) with a bearer credential. */
function mcpHttpConfig(gw: string, token: string) {
  return { mcpServers: { workspace: { type: "http", url: `${gw}/mcp`, headers: { Authorization: `Bearer ${token}` } } } };
}

/** The same over stdio: this checkout's bin, `workspace-gateway mcp`, talking to the gateway. */
function mcpStdioConfig(gw: string, token: string) {
  const bin = fileURLToPath(new URL("../bin/workspace-gateway.js", import.meta.url));
  return { mcpServers: { workspace: { command: process.execPath, args: [bin, "mcp"], env: { GATEWAY_URL: gw, GATEWAY_TOKEN: token } } } };
}

/** What the demo prints once everything it prints has been run. */
function readyText(
  info: { gw: string; sandboxUrl: string; tenantUrl: string; dataDir: string; apiKey: string; accessToken: string; signInLink: string },
  sections: Section[],
): string {
  const { gw, sandboxUrl, tenantUrl, dataDir, apiKey, accessToken, signInLink } = info;
  const out: string[] = [];
  out.push("", "workspace-gateway demo", "======================", "");
  out.push(`Application  ${gw}/app   (your documents and spreadsheets in a browser)`);
  out.push(`  Sign in as ${USER} with this one-time link (valid 1 hour): ${signInLink}`, "");
  out.push(`Gateway   ${gw}   (GraphiQL: open ${gw}/graphql in a browser)`);
  out.push(`Sandbox   ${sandboxUrl}   (mail, drive, search, meetings; tenant ${TENANT} at ${tenantUrl})`);
  out.push(`Data dir  ${dataDir} (removed on exit)`, "");
  out.push(`API key (user ${USER}, tenant ${TENANT}, scopes ${SCOPES.join(",")}) — documents and spreadsheets:`);
  out.push(`  ${apiKey}`);
  out.push(
    `Access token (HS256 JWT: sub ${USER}, scope "${SCOPES.join(" ")}", tenant ${TENANT}, 24 h) — products, documents and spreadsheets:`,
  );
  out.push(`  ${accessToken}`, "");
  out.push("Shell variables:", `  export GATEWAY=${sh(gw)} KEY=${sh(apiKey)} TOKEN=${sh(accessToken)}`, "");
  for (const section of sections) {
    out.push(`## ${section.heading}`);
    if (section.note) out.push(`# ${section.note}`);
    for (const example of section.examples) out.push(`# ${example.title}`, curlOf(example));
    out.push("");
  }
  out.push("## GraphiQL headers (the Headers tab)", JSON.stringify({ Authorization: `Bearer ${accessToken}` }), "");
  out.push(
    "## Typed tRPC client (TypeScript)",
    `import { createGatewayClient } from "workspace-gateway/client";`,
    `const gateway = createGatewayClient({ url: ${JSON.stringify(gw)}, token: process.env.TOKEN! });`,
    `const page = await gateway.messages.list.query({ folder: "inbox", limit: 3 });`,
    `const invoices = await gateway.enterprise.invoices.query({ status: "open", limit: 3 });`,
    "",
  );
  out.push(
    "## MCP client configuration (the JSON an IDE or desktop assistant takes, e.g. its mcp.json)",
    "# Streamable HTTP, with the access token (documents and products tools):",
    JSON.stringify(mcpHttpConfig(gw, accessToken), null, 2),
    "# stdio, through this checkout's CLI (workspace-gateway mcp) talking to the gateway:",
    JSON.stringify(mcpStdioConfig(gw, accessToken), null, 2),
    "",
  );
  out.push(`Demo ready: gateway ${gw}, sandbox ${sandboxUrl}. Every command above was run once and worked. Ctrl-C to stop.`);
  return `${out.join("\n")}\n`;
}

async function main(): Promise<void> {
  const host = process.env["HOST"] || "127.0.0.1";
  const gatewayPort = portFrom("PORT", 4000);
  const sandboxPort = portFrom("SANDBOX_PORT", 4010);
  const secret = randomBytes(32).toString("base64url");
  const accessToken = await new SignJWT({ scope: SCOPES.join(" "), tenant: TENANT })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(USER)
    .setIssuedAt()
    .setExpirationTime("24h")
    .sign(new TextEncoder().encode(secret));

  const workDir = await mkdtemp(join(tmpdir(), "wg-demo-"));
  const tenantsFile = join(workDir, "tenants.json");
  let sandbox: Sandbox | undefined;
  let running: RunningServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await running?.stop().catch(() => undefined);
      await sandbox?.close().catch(() => undefined);
      await rm(workDir, { recursive: true, force: true });
    })());

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stdout.write(`\n${signal} again: exiting now.\n`);
      process.exit(1);
    }
    process.stdout.write(`\n${signal}: stopping the gateway and the sandbox…\n`);
    stop().then(
      () => {
        process.stdout.write("Stopped.\n");
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    // The sandbox accepts exactly the demo token, at the API base and at tenant acme.
    sandbox = await startSandboxOn(sandboxPort, { host, tokens: [accessToken], tenants: { [TENANT]: { tokens: [accessToken] } } });
    await writeFile(tenantsFile, JSON.stringify({ [TENANT]: sandbox.tenantBaseUrl(TENANT) }, null, 2));

    const config = loadConfig({
      PORT: String(gatewayPort),
      HOST: host,
      DATA_DIR: join(workDir, "data"),
      API_URL: sandbox.url,
      TENANTS_FILE: tenantsFile,
      JWT_SECRET: secret,
      LOG_LEVEL: process.env["LOG_LEVEL"] || "warn",
      SHUTDOWN_TIMEOUT_MS: "3000",
    });
    const gateway = await createGateway(config);
    try {
      running = await listen(gateway, { port: gatewayPort, host, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    } catch (error) {
      if (!inUse(error) || gatewayPort === 0) {
        await gateway.close();
        throw error;
      }
      process.stdout.write(`(port ${gatewayPort} is busy; the gateway takes a free one)\n`);
      running = await listen(gateway, { port: 0, host, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    }
    const { key: apiKey } = await createApiKey(gateway.store, { userId: USER, tenant: TENANT, scopes: SCOPES, expiresInMs: null });
    const link = await createSignInLink(gateway.store, { userId: USER, tenant: TENANT, scopes: SCOPES, expiresInMs: 3_600_000 });

    const gw = running.url;
    const sections = demoSections(gw, apiKey, accessToken, sandbox.url);
    // Every printed command, run once, in order (the fault is set and then cleared again).
    for (const section of sections) for (const example of section.examples) await verify(example);
    // And the typed client exactly as the snippet below uses it.
    const client = createGatewayClient({ url: gw, token: accessToken });
    const page = await client.messages.list.query({ folder: "inbox", limit: 3 });
    if (page.data.length === 0) throw new Error("demo tRPC client example returned no messages");
    // And the MCP client configuration: tools/list over /mcp with its URL and header, as a client sends it.
    const mcp = mcpHttpConfig(gw, accessToken).mcpServers.workspace;
    const listed = await fetch(mcp.url, {
      method: "POST",
      headers: { ...mcp.headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const tools = ((await listed.json()) as { result?: { tools?: unknown[] } }).result?.tools;
    if (!listed.ok || !tools?.length) throw new Error(`demo MCP configuration: tools/list answered ${listed.status}`);
    sandbox.clearRequests();

    process.stdout.write(
      readyText(
        {
          gw,
          sandboxUrl: sandbox.url,
          tenantUrl: sandbox.tenantBaseUrl(TENANT),
          dataDir: config.DATA_DIR,
          apiKey,
          accessToken,
          signInLink: signInLinkUrl(gw, link.token),
        },
        sections,
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
