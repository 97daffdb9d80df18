// An MCP server over a backend, with the low-level Server API so that argument validation goes
// through the gateway's own schemas and errors keep the gateway's codes.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { GatewayError } from "../core/errors.ts";
import { packageVersion } from "../version.ts";
import { allTools, errorResult, type McpBackend, type ToolSet } from "./tools.ts";

/** tools/call with any params: they are checked by the handler (CallToolRequestSchema's method literal). */
const looseCallToolRequestSchema = z.looseObject({ method: CallToolRequestSchema.shape.method, params: z.unknown() });

/** `toolSet`: the tools offered (MCP_TOOLS); a tool not in it is unknown to this server. */
export function createMcpServer(
  backend: McpBackend,
  onError?: (error: unknown, tool: string) => void,
  toolSet: ToolSet = allTools,
): Server {
  const server = new Server(
    { name: "workspace-gateway", version: packageVersion },
    {
      capabilities: { tools: {} },
      instructions:
        "Documents: docs_list to find, docs_read to read text (format markdown to edit), docs_create to turn markdown into a Word document, " +
        "docs_update to change one (pass the version you read as expectedVersion), docs_versions and docs_restore for history and the trash, " +
        "docs_delete to move one to the trash (kept 30 days), docs_share for a link that needs no credential. " +
        "Products (mail_*, calendar_events, bookings_create, drive_*, search_*, meetings_*, invoices_list, data_query, workflows_run) need an access token. " +
        "List tools return nextCursor: pass it back as cursor for the next page. mail_send sends mail and workflows_run runs a workflow: both act at once.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolSet.descriptors }));
  // Registered past Server's own tools/call wrapper: it parses the request with the SDK's zod
  // schema first and answers a non-object `arguments` with -32603 and the zod issues as the
  // message. The params are checked here instead: -32602 (invalid params), one short sentence.
  Protocol.prototype.setRequestHandler.call(
    server,
    looseCallToolRequestSchema,
    async (request: z.infer<typeof looseCallToolRequestSchema>) => {
      const params = request.params;
      if (typeof params !== "object" || params === null || Array.isArray(params))
        throw new McpError(ErrorCode.InvalidParams, "params must be an object");
      const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
      if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "params.name must be a string");
      if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
        throw new McpError(ErrorCode.InvalidParams, "params.arguments must be an object");
      }
      const tool = toolSet.tools.find((t) => t.name === name);
      if (!tool) return errorResult(new GatewayError("NOT_FOUND", `Unknown tool ${name}`));
      try {
        return await tool.run(backend, args ?? {});
      } catch (error) {
        onError?.(error, tool.name);
        return errorResult(error);
      }
    },
  );
  return server;
}
