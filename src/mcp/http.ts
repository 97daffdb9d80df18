// MCP over Streamable HTTP at /mcp. Stateless, as the SDK recommends for servers that keep no
// per-session state: every POST is authenticated first (401 before any tool runs), then handled
// by a fresh server bound to that request's context.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { Services } from "../gateway.ts";
import type { Surface } from "../http/app.ts";
import { errorResponse } from "../http/errors.ts";
import { createMcpServer } from "./server.ts";
import type { McpBackend } from "./tools.ts";

export function serviceBackend(services: Services, ctx: RequestContext): McpBackend {
  return {
    docsList: (input) => services.documents.list(ctx, input as never),
    docsRead: (input) => services.documents.read(ctx, input as never),
    docsCreate: async (input) => (await services.documents.create(ctx, input as never)).document,
    driveSearch: (input) => services.products.files.search(ctx, input as never),
    driveGet: (input) => services.products.files.get(ctx, input as never),
  };
}

export function createMcpSurface(options: { services: Services; createContext: ContextFactory; bodyLimit: number }): Surface {
  return {
    path: "/mcp",
    bodyLimit: options.bodyLimit,
    // A body over the limit never reaches the transport; an MCP client still gets JSON-RPC, with
    // the gateway's code in error.data as tool errors carry it in their text.
    fail: (error) =>
      Response.json(
        { jsonrpc: "2.0", error: { code: -32600, message: error.message, data: { code: error.code, ...(error.details === undefined ? {} : { details: error.details }) } }, id: null },
        { status: error.status },
      ),
    fetch: async (request, env) => {
      // Authenticate whatever the method: an unauthenticated caller gets 401, like on every route.
      let ctx: RequestContext;
      try {
        ctx = await options.createContext({
          requestId: env.requestId,
          authorization: request.headers.get("authorization"),
          signal: request.signal,
        });
      } catch (error) {
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
      const server = createMcpServer(serviceBackend(options.services, ctx), (error, tool) => {
        if (!(error instanceof GatewayError) || error.code === "INTERNAL") ctx.log.error({ err: error, tool }, "MCP tool failed");
      });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        void server.close();
      }
    },
  };
}
