// The MCP tools (CONTRACT §8): names, descriptions an agent can act on, JSON Schemas derived from
// the same zod schemas the other surfaces validate with, and how a result or error is shown.
import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { driveFileSchema, driveSearchHitSchema } from "../../adapters/drive.ts";
import { isGatewayError } from "../core/errors.ts";
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
import { fileIdInputSchema, searchFilesInputSchema } from "../products/schemas.ts";

/** What the tools need; bound to the service layer over HTTP, to the tRPC client over stdio. */
export interface McpBackend {
  docsList(input: unknown): Promise<unknown>;
  docsRead(input: unknown): Promise<DocumentText>;
  docsCreate(input: unknown): Promise<unknown>;
  driveSearch(input: unknown): Promise<unknown>;
  driveGet(input: unknown): Promise<unknown>;
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
  readOnly: boolean;
  run(backend: McpBackend, args: unknown): Promise<CallToolResult>;
}

const asJson = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value as Record<string, unknown>,
});

// The adapters' `parentId`/`score` are nullish-to-undefined transforms, which JSON Schema cannot
// express (they would come out as required and untyped); after JSON they are simply optional.
const driveFileOutput = driveFileSchema.extend({ parentId: z.string().optional() });
const driveSearchOutput = z.object({
  files: z.array(driveSearchHitSchema.extend({ parentId: z.string().optional(), score: z.number().optional() })),
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
const driveSearchInput = searchFilesInputSchema.extend({
  query: searchFilesInputSchema.shape.query.meta({ description: "What to look for in file names and contents" }),
});
const driveGetInput = fileIdInputSchema.extend({
  id: fileIdInputSchema.shape.id.meta({ description: "Drive file id, from drive_search" }),
});
const docsCreateInput = createDocumentInputSchema.extend({
  idempotencyKey: createDocumentInputSchema.shape.idempotencyKey.meta({
    description:
      "Optional, up to 255 characters. Send the same key when retrying a docs_create whose answer you did not get: " +
      "within 24 hours it returns the first document instead of creating another.",
  }),
});

export const tools: ToolDefinition[] = [
  {
    name: "docs_list",
    title: "List documents",
    description:
      "List the caller's documents, newest first. Returns JSON {documents:[{id,name,createdAt,updatedAt,sizeBytes,characters,url,downloadUrl}], nextCursor}. " +
      "Filter with `query` (case-insensitive substring of the name); page with `limit` (1-100, default 50) and the `cursor` from nextCursor.",
    input: listDocumentsInputSchema,
    output: documentListSchema,
    defaults: { limit: DEFAULT_PAGE_SIZE },
    readOnly: true,
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
    readOnly: true,
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
    readOnly: false,
    run: async (backend, args) => asJson(await backend.docsCreate(args)),
  },
  {
    name: "drive_search",
    title: "Search drive files",
    description: "Search the caller's drive. Returns JSON {files:[{id,name,mimeType,size,createdAt,modifiedAt,parentId,webUrl,score}]}. Needs an access token (not an API key).",
    input: driveSearchInput,
    output: driveSearchOutput,
    readOnly: true,
    run: async (backend, args) => asJson({ files: await backend.driveSearch(args) }),
  },
  {
    name: "drive_get",
    title: "Get a drive file's metadata",
    description: "Metadata of one drive file by id: {id,name,mimeType,size,createdAt,modifiedAt,parentId,webUrl}. Needs an access token (not an API key).",
    input: driveGetInput,
    output: driveFileOutput,
    readOnly: true,
    run: async (backend, args) => asJson(await backend.driveGet(args)),
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

/** Tool descriptors for tools/list, built once. */
export const toolDescriptors: Tool[] = tools.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: withDefaults(objectJsonSchema(tool.input, "input"), tool.defaults),
  outputSchema: objectJsonSchema(tool.output, "output"),
  annotations: { readOnlyHint: tool.readOnly, openWorldHint: tool.name.startsWith("drive_") },
}));

/**
 * A failure as an MCP tool result: `isError`, with the §3 code and message in the text. No
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
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${message}` }],
  };
}
