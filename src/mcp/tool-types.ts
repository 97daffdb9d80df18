// What a tool is and what it runs against: shared by the documents tools and the product tools.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { OperationAnnotations, OperationName } from "../services/operations.ts";

/**
 * The documents operations the tools use, as the tRPC procedures `documents.<op>` name them, and
 * whether each is a query or a mutation there (the stdio backend calls them so).
 */
export const documentOps = {
  list: "query",
  read: "query",
  create: "mutation",
  update: "mutation",
  rename: "mutation",
  delete: "mutation",
  trash: "query",
  restore: "mutation",
  purge: "mutation",
  versions: "query",
  readVersion: "query",
  restoreVersion: "mutation",
  share: "mutation",
  shares: "query",
  revokeShare: "mutation",
} as const satisfies Record<string, "query" | "mutation">;
export type DocumentOp = keyof typeof documentOps;

/**
 * What the tools need; bound to the service layer over HTTP, to the tRPC client over stdio. Two
 * methods whatever the number of tools: a new tool names an operation, it adds no method.
 */
export interface McpBackend {
  /**
   * Runs `services.documents[op]` (HTTP) or the procedure `documents.<op>` (stdio). The result is
   * the procedure's (= the REST body), its url/downloadUrl absolute (see withAbsoluteLinks).
   */
  documents(op: DocumentOp, input: unknown): Promise<unknown>;
  /** Runs a product operation of the table by its name (e.g. "messages.list"). */
  operation(name: OperationName, input: unknown): Promise<unknown>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  /** Advertised as outputSchema: the SDK client checks structuredContent against it. */
  output: z.ZodType;
  /** Defaults zod applies but its JSON Schema leaves out (a default behind a preprocess is lost). */
  defaults?: Record<string, unknown>;
  annotations: OperationAnnotations;
  run(backend: McpBackend, args: unknown): Promise<CallToolResult>;
}

export const asJson = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
});
