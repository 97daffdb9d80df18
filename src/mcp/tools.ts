// The MCP tools (docs/api.md "MCP"): names, descriptions an agent can act on, JSON Schemas derived from
// the same zod schemas the other surfaces validate with, and how a result or error is shown. The
// documents tools are declared here; every product tool is derived from the operation table
// (src/services/operations.ts). MCP_TOOLS chooses which are offered (selectTools).
import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ConfigError } from "../core/config.ts";
import { isGatewayError } from "../core/errors.ts";
import { parseInput } from "../core/validate.ts";
import { markErrorCode } from "../observability/errors.ts";
import {
  DEFAULT_MAX_CHARS,
  DEFAULT_PAGE_SIZE,
  MARKDOWN_LIMIT,
  MAX_CHARS_LIMIT,
  createDocumentInputSchema,
  documentListSchema,
  documentSummarySchema,
  documentTextSchema,
  listDocumentsInputSchema,
  readDocumentInputSchema,
  type DocumentText,
} from "../documents/schemas.ts";
import { operationsOn, type OperationAnnotations, type OperationName } from "../services/operations.ts";

/**
 * A document result with absolute links. An agent cannot resolve "/api/v1/documents/…" against
 * anything, so MCP results always carry absolute `url`/`downloadUrl`: PUBLIC_URL when the gateway
 * has one (the links are absolute already), else the origin the MCP client reached (the request's
 * over HTTP, GATEWAY_URL over stdio). See docs/configuration.md.
 */
export function withAbsoluteLinks<T>(value: T, base: string): T {
  const origin = base.replace(/\/+$/, "");
  const fix = (doc: unknown): unknown => {
    if (!doc || typeof doc !== "object") return doc;
    const { url, downloadUrl } = doc as { url?: unknown; downloadUrl?: unknown };
    return {
      ...doc,
      ...(typeof url === "string" && url.startsWith("/") ? { url: origin + url } : {}),
      ...(typeof downloadUrl === "string" && downloadUrl.startsWith("/") ? { downloadUrl: origin + downloadUrl } : {}),
    };
  };
  const list = value as { documents?: unknown } | null;
  if (list && typeof list === "object" && Array.isArray(list.documents)) return { ...list, documents: list.documents.map(fix) } as T;
  return fix(value) as T;
}

/** What the tools need; bound to the service layer over HTTP, to the tRPC client over stdio. */
export interface McpBackend {
  docsList(input: unknown): Promise<unknown>;
  docsRead(input: unknown): Promise<DocumentText>;
  docsCreate(input: unknown): Promise<unknown>;
  /** Runs a product operation of the table by its name (e.g. "messages.list"). */
  operation(name: OperationName, input: unknown): Promise<unknown>;
}

interface ToolDefinition {
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

const asJson = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
});


/**
 * docs_read's text, plus a note when it is cut short: many hosts show the model only `content`,
 * so `truncated`/`totalChars` in structuredContent alone would go unnoticed.
 */
function readResult(body: DocumentText): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: body.text }];
  if (body.truncated) {
    const shown = body.text.length.toLocaleString("en");
    const total = body.totalChars.toLocaleString("en");
    const next =
      body.text.length < MAX_CHARS_LIMIT
        ? `call docs_read again with a larger maxChars (up to ${MAX_CHARS_LIMIT.toLocaleString("en")})`
        : `docs_read returns at most ${MAX_CHARS_LIMIT.toLocaleString("en")} characters; download the .docx for the rest`;
    content.push({ type: "text", text: `[truncated: showing ${shown} of ${total} characters; ${next}]` });
  }
  return { content, structuredContent: body };
}

// The schemas the service validates with, plus descriptions for the agent: what is advertised is
// what is checked. (.meta() clones a field with the same checks.)
const docsCreateInput = createDocumentInputSchema.extend({
  idempotencyKey: createDocumentInputSchema.shape.idempotencyKey.meta({
    description:
      "Optional, up to 255 characters. Send the same key when retrying a docs_create whose answer you did not get: " +
      "within 24 hours it returns the first document instead of creating another.",
  }),
});

const docsRead: OperationAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const documentTools: ToolDefinition[] = [
  {
    name: "docs_list",
    title: "List documents",
    description:
      "List the caller's documents, newest first. Returns JSON {documents:[{id,name,createdAt,updatedAt,sizeBytes,characters,url,downloadUrl}], nextCursor}. " +
      "Filter with `query` (case-insensitive substring of the name); page with `limit` (1-100, default 50) and the `cursor` from nextCursor.",
    input: listDocumentsInputSchema,
    output: documentListSchema,
    defaults: { limit: DEFAULT_PAGE_SIZE },
    annotations: docsRead,
    run: async (backend, args) => asJson(await backend.docsList(args)),
  },
  {
    name: "docs_read",
    title: "Read a document's text",
    description:
      `Return the plain text of one document (extracted from its .docx: paragraphs separated by blank lines, list items and table cells on their own lines). ` +
      `At most \`maxChars\` characters (1-1,000,000, default ${DEFAULT_MAX_CHARS.toLocaleString("en")}); \`truncated\` says whether more exists and \`totalChars\` how much. ` +
      "When cut short, a second text block says so. Use docs_list to find the id.",
    input: readDocumentInputSchema,
    output: documentTextSchema,
    defaults: { maxChars: DEFAULT_MAX_CHARS },
    annotations: docsRead,
    run: async (backend, args) => readResult(await backend.docsRead(args)),
  },
  {
    name: "docs_create",
    title: "Create a Word document from markdown",
    description:
      `Render markdown (CommonMark + GitHub tables, task lists, strikethrough) into a real .docx and store it for the caller. ` +
      `\`markdown\` may be at most ${MARKDOWN_LIMIT.toLocaleString("en")} characters; \`name\` 1-255 characters. ` +
      "Returns the created document as JSON, including downloadUrl for the .docx. " +
      "Pass an `idempotencyKey` so that a retry does not create a second document.",
    input: docsCreateInput,
    output: documentSummarySchema,
    // A retry with the same idempotencyKey creates nothing new; without one it creates another document.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (backend, args) => asJson(await backend.docsCreate(args)),
  },
];

/**
 * A schema as the plain object schema MCP wants at the root: a schema registered with an id
 * comes back as a root $ref, which is inlined; other $defs stay for the refs that point at them.
 */
function objectJsonSchema(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] & Tool["outputSchema"] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown> & {
    $ref?: string;
    $defs?: Record<string, Record<string, unknown>>;
  };
  const { $ref, $defs, ...rest } = json;
  const rootId = $ref?.startsWith("#/$defs/") ? $ref.slice("#/$defs/".length) : undefined;
  if (rootId === undefined || !$defs?.[rootId]) return json as Tool["inputSchema"];
  const { [rootId]: root, ...others } = $defs;
  return { ...rest, ...root, ...(Object.keys(others).length > 0 ? { $defs: others } : {}) } as Tool["inputSchema"];
}

function withDefaults(schema: Tool["inputSchema"], defaults: Record<string, unknown> = {}): Tool["inputSchema"] {
  const properties = { ...schema.properties } as Record<string, Record<string, unknown>>;
  for (const [name, value] of Object.entries(defaults)) properties[name] = { ...properties[name], default: value };
  return { ...schema, properties };
}

/** Each product operation with an MCP tool, as that tool. */
const productTools: ToolDefinition[] = operationsOn("mcp").flatMap(([name, op]) => {
  const spec = op.mcp;
  if (!spec) return [];
  const toInput = spec.toInput as ((args: unknown) => unknown) | undefined;
  const toResult = spec.toResult as ((result: unknown) => Record<string, unknown>) | undefined;
  const input = spec.input ?? op.input;
  return [
    {
      name: spec.name,
      title: spec.title,
      description: op.description,
      input,
      output: spec.output ?? op.output,
      annotations: op.annotations,
      run: async (backend, args) => {
        // A tool-only input shape (drive_upload's base64) is checked here; otherwise the service checks it.
        const operationInput = toInput ? toInput(parseInput(input, args)) : args;
        const result = await backend.operation(name, operationInput);
        return asJson(toResult ? toResult(result) : result);
      },
    },
  ];
});

/** Every tool: the documents tools, then one per product operation of the table. */
export const tools: ToolDefinition[] = [...documentTools, ...productTools];

/** How a tool is listed. Product outputs are described as the JSON callers get (io "input": the adapters' nullish fields are optional). */
function describe(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: withDefaults(objectJsonSchema(tool.input, "input"), tool.defaults),
    outputSchema: objectJsonSchema(tool.output, documentTools.includes(tool) ? "output" : "input"),
    annotations: { ...tool.annotations },
  };
}

/** Tool descriptors for tools/list, built once. */
export const toolDescriptors: Tool[] = tools.map(describe);

/** The tools offered and how they are listed. */
export interface ToolSet {
  tools: ToolDefinition[];
  descriptors: Tool[];
}

export const allTools: ToolSet = { tools, descriptors: toolDescriptors };

/**
 * MCP_TOOLS (docs/api.md "MCP"): tool names, and/or `read-only` for every tool whose readOnlyHint
 * is true. Unset offers every tool; an unknown name is a configuration error naming MCP_TOOLS.
 */
export function selectTools(names: readonly string[] | undefined, variable = "MCP_TOOLS"): ToolSet {
  if (names === undefined) return allTools;
  const known = new Set(tools.map((t) => t.name));
  const unknown = names.filter((n) => n !== "read-only" && !known.has(n));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: unknown tool ${unknown.map((n) => JSON.stringify(n)).join(", ")}; ` +
        `use comma-separated names from ${[...known].join(", ")}, or read-only`,
    );
  }
  if (names.length === 0) throw new ConfigError(`Invalid configuration:\n  ${variable}: names no tool; leave it unset to offer every tool`);
  const wanted = new Set(names);
  const chosen = tools.filter((t) => wanted.has(t.name) || (wanted.has("read-only") && t.annotations.readOnlyHint));
  return { tools: chosen, descriptors: chosen.map((t) => toolDescriptors[tools.indexOf(t)] as Tool) };
}

/** MCP_TOOLS as written (comma-separated) to names; undefined when unset or blank. */
export function parseToolList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(",").map((n) => n.trim()).filter(Boolean);
}

/**
 * A failure as an MCP tool result: `isError`, with the code of docs/api.md "Errors" and message in the text. No
 * structuredContent: the SDK client validates any it finds against the tool's outputSchema,
 * error or not, and an error body would fail that.
 */
export function errorResult(error: unknown): CallToolResult {
  let code = "INTERNAL";
  let message = "Internal error";
  if (isGatewayError(error) && error.code !== "INTERNAL") {
    code = error.code;
    message = error.message;
  } else if (error instanceof Error && "data" in error) {
    // A TRPCClientError from the gateway (stdio mode) carries the code in data.gatewayCode.
    const data = (error as { data?: { gatewayCode?: string } }).data;
    if (data?.gatewayCode && data.gatewayCode !== "INTERNAL") {
      code = data.gatewayCode;
      message = error.message;
    }
  }
  markErrorCode(code);
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${message}` }],
  };
}
