// The four surfaces of the spreadsheet rows as a caller meets them, for the behaviour suite
// (./behaviour.test.ts): plain fetch for REST and GraphQL, the project's typed @trpc/client
// (src/client/) and the MCP SDK's client over Streamable HTTP. Each gives back what the caller
// sees; errors come back as values ({code}) so a test can compare surfaces.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TRPCClientError } from "@trpc/client";
import { createGatewayClient, type GatewayClient } from "../../src/client/index.ts";

export const SHEETS_SCOPES = ["docs:read", "docs:write", "sheets:read", "sheets:write"];

export interface RestAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Rest {
  call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RestAnswer<T>>;
  bytes(path: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }>;
  upload(path: string, file: File, fields?: Record<string, string>): Promise<RestAnswer>;
}

export function rest(baseUrl: string, key: string): Rest {
  const authorization = `Bearer ${key}`;
  const answer = async <T>(response: Response): Promise<RestAnswer<T>> => {
    const text = await response.text();
    let body: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: body as T, text };
  };
  return {
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization, ...headers } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
      return answer(await fetch(`${baseUrl}${path}`, init));
    },
    async bytes(path) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
    },
    async upload(path, file, fields = {}) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append("file", file, file.name);
      return answer(await fetch(`${baseUrl}${path}`, { method: "POST", headers: { authorization }, body: form }));
    },
  };
}

export interface GraphQLAnswer<T = Record<string, unknown>> {
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export function graphql(baseUrl: string, key: string) {
  return async <T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLAnswer<T>> => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphQLAnswer<T>;
  };
}

export const trpc = (baseUrl: string, key: string): GatewayClient => createGatewayClient({ url: baseUrl, token: key });

/** A tRPC call's outcome: its result, or the gateway's error code. */
export async function trpcOutcome<T>(run: () => Promise<T>): Promise<{ ok: true; data: T } | { ok: false; code: string }> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (error instanceof TRPCClientError) {
      return { ok: false, code: String((error.data as { gatewayCode?: string } | undefined)?.gatewayCode) };
    }
    throw error;
  }
}

export interface McpAnswer {
  isError: boolean;
  text: string;
  structured: Record<string, unknown> | undefined;
}

export interface Mcp {
  call(tool: string, args: Record<string, unknown>): Promise<McpAnswer>;
  close(): Promise<void>;
}

/** The MCP SDK's own client, connected to /mcp with the key. */
export async function mcp(baseUrl: string, key: string): Promise<Mcp> {
  const client = new Client({ name: "sheets-behaviour", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  return {
    async call(tool, args) {
      const result = (await client.callTool({ name: tool, arguments: args })) as {
        isError?: boolean;
        content: { type: string; text?: string }[];
        structuredContent?: Record<string, unknown>;
      };
      return {
        isError: result.isError === true,
        text: result.content.map((part) => part.text ?? "").join("\n"),
        structured: result.structuredContent,
      };
    },
    close: () => client.close(),
  };
}
