// `workspace-gateway mcp`: an MCP server on stdio that talks to a running gateway through the
// typed tRPC client — how an npm-distributed MCP server is used from an agent's config.
// stdout carries only MCP messages; every log line goes to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { createGatewayClient } from "../client/index.ts";
import { createMcpServer } from "./server.ts";
import type { McpBackend } from "./tools.ts";

const envSchema = z.object({
  GATEWAY_URL: z.url({ protocol: /^https?$/, error: "GATEWAY_URL must be the gateway's http(s) base URL, e.g. http://127.0.0.1:4000" }),
  GATEWAY_API_KEY: z
    .string({ error: "GATEWAY_API_KEY is required (a personal API key wgk_… or an access token)" })
    .min(1, "GATEWAY_API_KEY is required (a personal API key wgk_… or an access token)"),
});

export class McpConfigError extends Error {
  override name = "McpConfigError";
}

export async function runStdioMcp(env: Record<string, string | undefined> = process.env): Promise<void> {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new McpConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  }
  const client = createGatewayClient({ url: parsed.data.GATEWAY_URL, token: parsed.data.GATEWAY_API_KEY });
  const backend: McpBackend = {
    docsList: (input) => client.documents.list.query(input as never),
    docsRead: (input) => client.documents.read.query(input as never),
    docsCreate: (input) => client.documents.create.mutate(input as never),
    driveSearch: (input) => client.files.search.query(input as never),
    driveGet: (input) => client.files.get.query(input as never),
  };
  const server = createMcpServer(backend, (error, tool) => {
    process.stderr.write(`[workspace-gateway mcp] ${tool} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`[workspace-gateway mcp] serving on stdio for ${parsed.data.GATEWAY_URL}\n`);
}
