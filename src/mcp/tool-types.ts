// What a tool is and what it runs against.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { OperationAnnotations, OperationName } from "../services/operations/index.ts";

/**
 * What the tools run against: the service layer's runner over HTTP, the gateway's tRPC procedures
 * over stdio. One method whatever the number of tools: a new tool names an operation, it adds no method.
 */
export interface McpBackend {
  /** Runs an operation of the table by its name (e.g. "documents.read"); the result is the procedure's (= the REST body). */
  run(name: OperationName, input: unknown): Promise<unknown>;
  /** What relative links in results are resolved against (see withAbsoluteLinks). */
  linkBase: string;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  /** Advertised as outputSchema: the SDK client checks structuredContent against it. */
  output: z.ZodType;
  /** Whether the output schema is described as zod's input or output (see tools.ts describe). */
  outputIo: "input" | "output";
  /** Defaults zod applies but its JSON Schema leaves out (a default behind a preprocess is lost). */
  defaults?: Record<string, unknown>;
  annotations: OperationAnnotations;
  /** The operation the tool runs (its row). */
  operation: OperationName;
  run(backend: McpBackend, args: unknown): Promise<CallToolResult>;
}

export const asJson = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
});
