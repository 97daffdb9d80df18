// MCP over Streamable HTTP at /mcp. Stateless, as the SDK recommends for servers that keep no
// per-session state: every POST is authenticated first (401 before any tool runs), then handled
// by a fresh server bound to that request's context.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isLoopbackHost } from "../core/address.ts";
import type { Config } from "../core/config.ts";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { Services } from "../services/index.ts";
import type { Surface } from "../http/app.ts";
import { errorResponse } from "../http/errors.ts";
import { connectMcp, createMcpServer } from "./server.ts";
import { allTools, toolsForCredential, type McpBackend, type ToolSet } from "./tools.ts";

/** `origin`: where links in results point when the gateway has no PUBLIC_URL (the request's origin). */
export function serviceBackend(services: Services, ctx: RequestContext, origin = ""): McpBackend {
  return { run: (name, input) => services.operations.run(name, ctx, input), linkBase: services.publicUrl || origin };
}

/** Where the DNS-rebinding guard's lists come from (docs/security.md). */
export function mcpRequestGuard(config: Config): { allowedOrigins: string[]; allowedHosts: string[] | null } {
  const loopback = isLoopbackHost(config.HOST);
  const hosts = config.MCP_ALLOWED_HOSTS.length > 0 || loopback ? [...config.MCP_ALLOWED_HOSTS] : null;
  if (hosts && loopback) hosts.push("localhost", "127.0.0.1", "[::1]");
  return { allowedOrigins: [...config.CORS_ORIGINS, ...config.MCP_ALLOWED_ORIGINS], allowedHosts: hosts };
}

/** The host name of a Host header (`localhost:4000` → `localhost`, `[::1]:4000` → `[::1]`), or null when malformed. */
function hostName(host: string | null): string | null {
  const match = host ? /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host) : null;
  return match ? (match[1] as string).toLowerCase() : null;
}

export interface McpSurfaceOptions {
  services: Services;
  createContext: ContextFactory;
  bodyLimit: number;
  /**
   * DNS-rebinding protection, as the MCP Streamable HTTP transport asks: a request carrying an
   * Origin not listed here is refused (403) before it is authenticated; a request without Origin
   * (a non-browser client) is not. Default none: no browser page may call /mcp.
   */
  allowedOrigins?: readonly string[];
  /** Host names the Host header may carry (any port); null accepts any (a non-loopback bind without MCP_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[] | null;
  /** The tools offered (MCP_TOOLS); default all. */
  tools?: ToolSet;
}

export function createMcpSurface(options: McpSurfaceOptions): Surface {
  const origins = new Set(options.allowedOrigins ?? []);
  const hosts = options.allowedHosts ? new Set(options.allowedHosts.map((h) => h.toLowerCase())) : null;
  const forbidden = (message: string) =>
    Response.json({ jsonrpc: "2.0", error: { code: -32000, message, data: { code: "FORBIDDEN" } }, id: null }, { status: 403 });
  // A body over the limit never reaches the transport, nor a batch over BATCH_MAX_CALLS; an MCP
  // client still gets JSON-RPC, with the gateway's code in error.data as tool errors carry it in their text.
  const fail = (error: GatewayError) =>
    Response.json(
      {
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message: error.message,
          data: { code: error.code, ...(error.details === undefined ? {} : { details: error.details }) },
        },
        id: null,
      },
      { status: error.status },
    );
  return {
    path: "/mcp",
    bodyLimit: options.bodyLimit,
    fail,
    fetch: async (request, env) => {
      // The SDK transport's own allowedHosts/allowedOrigins compare the Host header with its port
      // and run after authentication here; this check runs first, by host name.
      const origin = request.headers.get("origin");
      if (origin !== null && !origins.has(origin)) return forbidden(`Origin ${origin} is not allowed`);
      if (hosts) {
        const host = hostName(request.headers.get("host"));
        if (!host || !hosts.has(host)) return forbidden("Host header is not an allowed host");
      }
      // The body (already within the body limit) is read here, not by the transport, so that every
      // message of a JSON-RPC batch counts against the rate limits, as every call of a tRPC batch does.
      let body: { parsed: unknown } | undefined;
      if (request.method === "POST") {
        try {
          body = { parsed: JSON.parse(await request.text()) as unknown };
        } catch {
          body = undefined;
        }
      }
      const calls = Array.isArray(body?.parsed) ? Math.max(1, body.parsed.length) : 1;
      // Authenticate whatever the method: an unauthenticated caller gets 401, like on every route.
      let ctx: RequestContext;
      try {
        ctx = await options.createContext({
          requestId: env.requestId,
          authorization: request.headers.get("authorization"),
          accessToken: request.headers.get("x-access-token"),
          signal: request.signal,
          clientAddress: env.clientAddress,
          calls,
        });
      } catch (error) {
        if (error instanceof GatewayError && error.code === "PAYLOAD_TOO_LARGE") return fail(error);
        return errorResponse(error, env.log);
      }
      if (request.method !== "POST") {
        // Stateless server: no standalone SSE stream (GET), no sessions to delete (DELETE). The
        // body is the one the SDK's stateless examples send.
        return Response.json(
          { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null },
          { status: 405, headers: { Allow: "POST" } },
        );
      }
      // The transport's own answer to a body that is not JSON.
      if (!body)
        return Response.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null }, { status: 400 });
      const tools = toolsForCredential(options.tools ?? allTools, ctx.principal);
      const server = createMcpServer(
        serviceBackend(options.services, ctx, new URL(request.url).origin),
        (error, tool) => {
          if (!(error instanceof GatewayError) || error.code === "INTERNAL") ctx.log.error({ err: error, tool }, "MCP tool failed");
        },
        tools.offered,
        tools.withheld,
      );
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await connectMcp(server, transport);
      try {
        return await transport.handleRequest(request, { parsedBody: body.parsed });
      } finally {
        void server.close();
      }
    },
  };
}
