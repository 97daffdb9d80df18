// An MCP server over a backend, through the SDK's public Server handlers (tools/list, tools/call):
// arguments are validated by the gateway's own schemas (the runner's, the same on every surface),
// so errors keep the gateway's codes, as `isError` results. Malformed envelopes are answered by
// ./guard.ts before they reach the SDK.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { GatewayError } from "../core/errors.ts";
import { packageVersion } from "../version.ts";
import { ToolCallGuard } from "./guard.ts";
import { instructionsFor } from "./instructions.ts";
import { allTools, errorResult, type McpBackend, type ToolDefinition, type ToolSet } from "./tools.ts";

/**
 * `toolSet`: the tools offered (MCP_TOOLS, then the credential's: see toolsForCredential); a tool in
 * neither it nor `withheld` is unknown to this server. A withheld tool is not listed, and the
 * instructions say what unlocks it; called anyway, it answers the runner's own refusal.
 */
export function createMcpServer(
  backend: McpBackend,
  onError?: (error: unknown, tool: string) => void,
  toolSet: ToolSet = allTools,
  withheld: readonly ToolDefinition[] = [],
): Server {
  const server = new Server(
    { name: "workspace-gateway", version: packageVersion },
    { capabilities: { tools: {} }, instructions: instructionsFor(toolSet, withheld) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolSet.descriptors }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = toolSet.tools.find((t) => t.name === name) ?? withheld.find((t) => t.name === name);
    if (!tool) return errorResult(new GatewayError("NOT_FOUND", `Unknown tool ${name}`));
    try {
      return await tool.run(backend, args ?? {});
    } catch (error) {
      onError?.(error, tool.name);
      return errorResult(error);
    }
  });
  return server;
}

/** Connects the server to a transport behind the tools/call guard. */
export const connectMcp = (server: Server, transport: Transport): Promise<void> => server.connect(new ToolCallGuard(transport));
