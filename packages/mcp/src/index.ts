// workspace-gateway-mcp: an MCP server on stdio that forwards to a running gateway's Streamable
// HTTP endpoint (/mcp). The tools, their schemas, the credential's filtering and the server
// instructions are the gateway's own: tools/list and tools/call are passed through unchanged.
// Bundled by scripts/build-mcp.mjs into one file with no runtime dependency, so that
// `npx -y workspace-gateway-mcp` installs one package. It imports nothing from the gateway's src/.
// stdout carries only MCP messages; every log line goes to stderr.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ListToolsResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolCallGuard } from "./guard.ts";

declare const PACKAGE_VERSION: string;
const version = typeof PACKAGE_VERSION === "string" ? PACKAGE_VERSION : "0.0.0-dev";

export class ConfigError extends Error {
  override name = "ConfigError";
}

export interface ProxyConfig {
  /** The gateway's /mcp endpoint. */
  endpoint: URL;
  /** The gateway's base URL as given. */
  url: string;
  /** The bearer: GATEWAY_API_KEY, else GATEWAY_TOKEN. */
  token: string;
  /** GATEWAY_TOKEN beside GATEWAY_API_KEY: sent as X-Access-Token, what the product tools forward. */
  accessToken: string | undefined;
  tokenVar: "GATEWAY_API_KEY" | "GATEWAY_TOKEN" | "GATEWAY_API_KEY or GATEWAY_TOKEN";
  timeoutMs: number;
  /** MCP_TOOLS: tool names and/or `read-only`, narrowing what the gateway offers; undefined = all. */
  toolNames: string[] | undefined;
}

const tokenHelp =
  "a personal API key wgk_… for the documents and spreadsheet tools, an access token (GATEWAY_TOKEN) for the product tools, or both";

/** The same variables as `workspace-gateway mcp` (src/mcp/stdio.ts); empty ones count as unset. */
export function readConfig(env: Record<string, string | undefined>): ProxyConfig {
  const get = (name: string) => (env[name] === "" ? undefined : env[name]);
  const problems: string[] = [];
  const url = get("GATEWAY_URL");
  let endpoint: URL | undefined;
  if (!url) problems.push("GATEWAY_URL is required: the gateway's http(s) base URL, e.g. http://127.0.0.1:4000");
  else {
    try {
      endpoint = new URL(url);
      if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") throw new Error("not http(s)");
      endpoint = new URL("mcp", endpoint.href.endsWith("/") ? endpoint.href : `${endpoint.href}/`);
    } catch {
      problems.push(`GATEWAY_URL must be the gateway's http(s) base URL, e.g. http://127.0.0.1:4000 (got ${JSON.stringify(url)})`);
    }
  }
  const apiKey = get("GATEWAY_API_KEY");
  const token = get("GATEWAY_TOKEN");
  if (!apiKey && !token) problems.push(`GATEWAY_API_KEY or GATEWAY_TOKEN is required: ${tokenHelp}`);
  const rawTimeout = get("GATEWAY_STARTUP_TIMEOUT_MS") ?? "10000";
  const timeoutMs = Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
    problems.push("GATEWAY_STARTUP_TIMEOUT_MS must be a number of milliseconds (1 to 600000)");
  }
  const toolNames = get("MCP_TOOLS")
    ?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (toolNames?.length === 0) problems.push("MCP_TOOLS names no tool; leave it unset to offer every tool");
  if (problems.length > 0 || !endpoint || !url) throw new ConfigError(problems.join("\n"));
  return {
    endpoint,
    url,
    token: (apiKey ?? token)!,
    // Both: the key is the bearer and the token goes beside it, as the gateway takes them (X-Access-Token).
    accessToken: apiKey ? token : undefined,
    tokenVar: apiKey && token ? "GATEWAY_API_KEY or GATEWAY_TOKEN" : apiKey ? "GATEWAY_API_KEY" : "GATEWAY_TOKEN",
    timeoutMs,
    toolNames: toolNames?.length ? toolNames : undefined,
  };
}

/** How a fetch failed at the network level (ECONNREFUSED, ENOTFOUND, …), or null. */
function networkFailure(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof TypeError && e.message === "fetch failed") {
      let cause: unknown = e.cause;
      if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0];
      if (!(cause instanceof Error)) return "fetch failed";
      const code = (cause as Error & { code?: unknown }).code;
      return typeof code === "string" && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
    }
  }
  return null;
}

/** A start-up failure as one line naming the variable to fix. */
function startupError(config: ProxyConfig, error: unknown, timedOut: boolean): ConfigError {
  const network = networkFailure(error);
  if (network) return new ConfigError(`GATEWAY_URL ${config.url} could not be reached: ${network}`);
  if (timedOut) {
    return new ConfigError(`GATEWAY_URL ${config.url} did not answer within ${config.timeoutMs} ms (GATEWAY_STARTUP_TIMEOUT_MS)`);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StreamableHTTPError && error.code === 401) {
    return new ConfigError(`${config.tokenVar} was rejected by ${config.url}: ${message}`);
  }
  return new ConfigError(
    `GATEWAY_URL ${config.url} did not answer as a workspace gateway MCP endpoint (${config.endpoint.href}): ${message}`,
  );
}

/**
 * The tool filter of MCP_TOOLS, checked against the tools the gateway offers this credential (a
 * name it does not offer stops start-up, as an unknown name does on the gateway); null = all.
 */
export function toolFilter(names: string[] | undefined, offered: readonly Tool[]): Set<string> | null {
  if (!names) return null;
  const known = new Set(offered.map((tool) => tool.name));
  const unknown = names.filter((name) => name !== "read-only" && !known.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `MCP_TOOLS: the gateway offers this credential no tool ${unknown.map((n) => JSON.stringify(n)).join(", ")}; ` +
        `use comma-separated names from ${[...known].join(", ")}, or read-only`,
    );
  }
  const wanted = new Set(names);
  const kept = offered.filter((tool) => wanted.has(tool.name) || (wanted.has("read-only") && tool.annotations?.readOnlyHint === true));
  return new Set(kept.map((tool) => tool.name));
}

/** Connects to the gateway's /mcp with the bearer credential; throws ConfigError on any failure. */
export async function connectGateway(config: ProxyConfig): Promise<{ upstream: Client; tools: ListToolsResult }> {
  const transport = new StreamableHTTPClientTransport(config.endpoint, {
    requestInit: {
      headers: { authorization: `Bearer ${config.token}`, ...(config.accessToken ? { "x-access-token": config.accessToken } : {}) },
    },
  });
  const client = new Client({ name: "workspace-gateway-mcp", version });
  const signal = AbortSignal.timeout(config.timeoutMs);
  try {
    await client.connect(transport, { signal, timeout: config.timeoutMs });
    // The start-up check of the credential: initialize alone may not need it on every gateway.
    const tools = await client.listTools(undefined, { signal, timeout: config.timeoutMs });
    return { upstream: client, tools };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw startupError(config, error, signal.aborted);
  }
}

/** The stdio server: the gateway's name, instructions and tools, forwarded call by call. */
/** `only`: the tool names MCP_TOOLS keeps (null: every tool the gateway offers). */
export function createProxyServer(upstream: Client, upstreamUrl: string, only: ReadonlySet<string> | null = null): Server {
  const info = upstream.getServerVersion();
  const instructions = upstream.getInstructions();
  const server = new Server(
    { name: info?.name ?? "workspace-gateway", version: info?.version ?? version },
    { capabilities: { tools: {} }, ...(instructions ? { instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const listed = await upstream.listTools(request.params, { signal: extra.signal });
    return only ? { ...listed, tools: listed.tools.filter((tool) => only.has(tool.name)) } : listed;
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // MCP_TOOLS narrows calls too, not just the list.
    if (only && !only.has(request.params.name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name} (not in MCP_TOOLS)`);
    }
    try {
      return await upstream.callTool(request.params, undefined, { signal: extra.signal });
    } catch (error) {
      const network = networkFailure(error);
      if (!network) throw error;
      // As the gateway words a failure (docs/api.md "Errors"): a tool result, not a protocol error.
      const text = `UPSTREAM_UNAVAILABLE: The gateway at ${upstreamUrl} could not be reached: ${network}`;
      return { isError: true, content: [{ type: "text" as const, text }] };
    }
  });
  return server;
}

export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  // stdout is the protocol channel: a stray console.log must not corrupt it.
  console.log = console.info = console.debug = console.error;
  const args = argv[0] === "mcp" ? argv.slice(1) : argv;
  if (args[0] === "--version") {
    process.stderr.write(`${version}\n`);
    return;
  }
  if (args.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(args[0])}: usage: workspace-gateway-mcp [mcp]`);
  const config = readConfig(env);
  const { upstream, tools } = await connectGateway(config);
  let keep;
  try {
    keep = toolFilter(config.toolNames, tools.tools);
  } catch (error) {
    await upstream.close();
    throw error;
  }
  const server = createProxyServer(upstream, config.url, keep);
  // The client closing stdin ends the session: close the upstream and leave (no lingering sockets).
  server.onclose = () => void upstream.close().finally(() => process.exit(0));
  process.stdin.once("end", () => void server.close());
  // Malformed tools/call params are -32602 in one line, as on the gateway's /mcp (./guard.ts).
  await server.connect(new ToolCallGuard(new StdioServerTransport()));
  console.error(`workspace-gateway-mcp ${version}: serving on stdio, forwarding to ${config.endpoint.href}`);
}
