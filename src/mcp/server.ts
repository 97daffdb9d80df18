// An MCP server over a backend, with the low-level Server API so that argument validation goes
// through the gateway's own schemas and errors keep the gateway's codes.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { GatewayError } from "../core/errors.ts";
import { packageVersion } from "../version.ts";
import { errorResult, toolDescriptors, tools, type McpBackend } from "./tools.ts";

export function createMcpServer(backend: McpBackend, onError?: (error: unknown, tool: string) => void): Server {
  const server = new Server(
    { name: "workspace-gateway", version: packageVersion },
    {
      capabilities: { tools: {} },
      instructions:
        "Documents: docs_list to find, docs_read to read text, docs_create to turn markdown into a Word document. Drive: drive_search, drive_get.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDescriptors }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) return errorResult(new GatewayError("NOT_FOUND", `Unknown tool ${request.params.name}`));
    try {
      return await tool.run(backend, request.params.arguments ?? {});
    } catch (error) {
      onError?.(error, tool.name);
      return errorResult(error);
    }
  });
  return server;
}
