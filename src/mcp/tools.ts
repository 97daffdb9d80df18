// The MCP tools (docs/api.md "MCP"), derived from the operation table (src/services/operations/):
// each row with an `mcp` spec is a tool with the row's description and annotations, JSON Schemas
// from the same zod schemas the other surfaces validate with, and how a result or error is shown.
// MCP_TOOLS chooses which are offered (selectTools).
import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ConfigError } from "../core/config.ts";
import { isGatewayError, markErrorCode } from "../core/errors.ts";
import type { Principal } from "../core/principal.ts";
import { operationOf, operationsOn, type AnyOperation, type OperationName } from "../services/operations/index.ts";
import { mayRun } from "../services/runner.ts";
import { parseInput } from "../services/validate.ts";
import { asJson, type ToolDefinition } from "./tool-types.ts";

export type { McpBackend, ToolDefinition } from "./tool-types.ts";

/** The fields of the gateway's records that hold a link to one of its routes. */
const LINK_FIELDS = new Set(["url", "downloadUrl"]);
/** Records sit at most this deep in a result ({spreadsheet: {url}}, {documents: [{url}]}). */
const LINK_DEPTH = 4;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A result (a record, a list, a share, a write's {spreadsheet, …}) with absolute links, wherever its
 * records sit. An agent cannot resolve "/api/v1/documents/…" or a share's "/api/v1/shared/…"
 * against anything, so MCP results always carry absolute `url`/`downloadUrl`: PUBLIC_URL when the
 * gateway has one (the links are absolute already), else the origin the MCP client reached (the
 * request's over HTTP, GATEWAY_URL over stdio). See docs/configuration.md. Only lists of records are
 * walked: a range's rows (lists of lists, or of values) hold no link and may hold 100,000 cells.
 */
export function withAbsoluteLinks<T>(value: T, base: string): T {
  const origin = base.replace(/\/+$/, "");
  const fix = (node: unknown, depth: number): unknown => {
    if (depth > LINK_DEPTH) return node;
    if (Array.isArray(node)) return isRecord(node[0]) ? node.map((item) => fix(item, depth + 1)) : node;
    if (!isRecord(node)) return node;
    let fixed: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(node)) {
      const next =
        typeof item === "string"
          ? LINK_FIELDS.has(key) && item.startsWith("/") && !item.startsWith("//")
            ? origin + item
            : item
          : fix(item, depth + 1);
      if (next !== item) (fixed ??= { ...node })[key] = next;
    }
    return fixed ?? node;
  };
  return fix(value, 0) as T;
}

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

/** Where a tool's call goes: its own operation, or the one its `route` picks, with the input it makes of the arguments. */
function target(name: OperationName, op: AnyOperation, args: unknown): { operation: OperationName; input: unknown } {
  const spec = op.mcp!;
  const route = spec.route as ((args: unknown) => { operation: string; input: unknown } | undefined) | undefined;
  const toInput = spec.toInput as ((args: unknown) => unknown) | undefined;
  if (!route && !toInput && !spec.input) return { operation: name, input: args };
  // A tool-only input shape (drive_upload's base64, docs_read's version) is checked here; the
  // runner checks what it becomes with the operation's own schema.
  const parsed = parseInput(spec.input ?? op.input, args);
  const routed = route?.(parsed);
  if (routed) return { operation: routed.operation as OperationName, input: routed.input };
  return { operation: name, input: toInput ? toInput(parsed) : parsed };
}

/** Each operation with an MCP tool, as that tool. */
export const tools: ToolDefinition[] = operationsOn("mcp").map(([name, op]) => {
  const spec = op.mcp!;
  const toResult = spec.toResult as ((result: unknown, args: unknown) => Record<string, unknown>) | undefined;
  const present = spec.present as ((result: unknown) => CallToolResult) | undefined;
  return {
    name: spec.name,
    title: op.title,
    description: op.description,
    input: spec.input ?? op.input,
    output: spec.output ?? op.output,
    // Product outputs are described as the JSON callers get (io "input": the adapters' nullish fields are optional).
    outputIo: op.auth === "access_token" ? "input" : "output",
    ...(spec.defaults ? { defaults: spec.defaults } : {}),
    annotations: op.annotations,
    operation: name,
    run: async (backend, args) => {
      const call = target(name, op, args);
      const output = await backend.run(call.operation, call.input);
      // The gateway's own records link to its routes; a product's links are the product's.
      const result = op.auth === "access_token" ? output : withAbsoluteLinks(output, backend.linkBase);
      if (present) return present(result);
      return asJson(toResult ? toResult(result, args) : result);
    },
  };
});

/** How a tool is listed. */
function describe(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: withDefaults(objectJsonSchema(tool.input, "input"), tool.defaults),
    outputSchema: objectJsonSchema(tool.output, tool.outputIo),
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

/** The tools of a set a credential may use, and the others (listed in the instructions, not offered). */
export interface CredentialTools {
  offered: ToolSet;
  withheld: ToolDefinition[];
}

/**
 * The tools a session is offered (docs/api.md "MCP"): those of `toolSet` whose row the credential
 * may run (the runner's own check: a personal API key gets the documents and spreadsheet tools its
 * scopes allow, never a product's; an access token the products, and the documents ones when it is
 * verified and has their scopes). The rest are withheld: the instructions say what unlocks them.
 */
export function toolsForCredential(toolSet: ToolSet, principal: Principal): CredentialTools {
  const offered: ToolDefinition[] = [];
  const descriptors: Tool[] = [];
  const withheld: ToolDefinition[] = [];
  toolSet.tools.forEach((tool, index) => {
    if (mayRun(operationOf(tool.operation), principal)) {
      offered.push(tool);
      descriptors.push(toolSet.descriptors[index] as Tool);
    } else withheld.push(tool);
  });
  return { offered: { tools: offered, descriptors }, withheld };
}

/** MCP_TOOLS as written (comma-separated) to names; undefined when unset or blank. */
export function parseToolList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
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
