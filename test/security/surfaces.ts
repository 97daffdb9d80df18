// One documents operation on any surface, over real HTTP, reduced to the same outcome shape, so
// that the security suite can run one table of cases against REST, GraphQL, tRPC and MCP.
export type Surface = "rest" | "graphql" | "trpc" | "mcp";
export const SURFACES: Surface[] = ["rest", "graphql", "trpc", "mcp"];

export type Operation = { op: "list" } | { op: "read"; id: string } | { op: "create"; name: string; markdown: string };

export interface Outcome {
  /** The HTTP status of the response. */
  status: number;
  /** "OK", or the gateway's error code (REST error.code, GraphQL extensions.code, tRPC data.gatewayCode, MCP `CODE:` text). */
  code: string;
  /** The operation's value when it succeeded; `null` for GraphQL's `document: null` (NOT_FOUND). */
  value?: unknown;
  /** The whole response text, to check that nothing leaked. */
  raw: string;
}

const json = { "content-type": "application/json" };

const auth = (authorization: string | null | undefined): Record<string, string> => (authorization ? { authorization } : {});

export async function call(
  baseUrl: string,
  surface: Surface,
  authorization: string | null,
  operation: Operation,
  extraHeaders: Record<string, string> = {},
): Promise<Outcome> {
  switch (surface) {
    case "rest":
      return rest(baseUrl, authorization, operation, extraHeaders);
    case "graphql":
      return graphql(baseUrl, authorization, operation, extraHeaders);
    case "trpc":
      return trpc(baseUrl, authorization, operation, extraHeaders);
    case "mcp":
      return mcp(baseUrl, authorization, operation, extraHeaders);
  }
}

async function rest(baseUrl: string, authorization: string | null, operation: Operation, extra: Record<string, string>): Promise<Outcome> {
  const headers = { ...auth(authorization), ...extra };
  const response =
    operation.op === "list"
      ? await fetch(`${baseUrl}/api/v1/documents`, { headers })
      : operation.op === "read"
        ? await fetch(`${baseUrl}/api/v1/documents/${operation.id}`, { headers })
        : await fetch(`${baseUrl}/api/v1/documents`, {
            method: "POST",
            headers: { ...headers, ...json },
            body: JSON.stringify({ name: operation.name, markdown: operation.markdown }),
          });
  const raw = await response.text();
  const body = parse(raw) as { error?: { code: string } } | undefined;
  return { status: response.status, code: response.ok ? "OK" : (body?.error?.code ?? "?"), value: response.ok ? body : undefined, raw };
}

async function graphql(
  baseUrl: string,
  authorization: string | null,
  operation: Operation,
  extra: Record<string, string>,
): Promise<Outcome> {
  const [query, variables, field] =
    operation.op === "list"
      ? ["{ documents(first: 20) { edges { node { id name } } } }", {}, "documents"]
      : operation.op === "read"
        ? ["query($id: ID!) { document(id: $id) { id name text { text } } }", { id: operation.id }, "document"]
        : [
            "mutation($n: String!, $m: String!) { createDocument(input: { name: $n, markdown: $m }) { id name } }",
            { n: operation.name, m: operation.markdown },
            "createDocument",
          ];
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { ...json, accept: "application/graphql-response+json", ...auth(authorization), ...extra },
    body: JSON.stringify({ query, variables }),
  });
  const raw = await response.text();
  const body = parse(raw) as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] } | undefined;
  const error = body?.errors?.[0];
  if (error) return { status: response.status, code: error.extensions?.code ?? "?", raw };
  const value = body?.data?.[field];
  // document(id) is null for an id that is not the caller's: the GraphQL form of NOT_FOUND.
  return { status: response.status, code: value === null ? "NOT_FOUND" : "OK", value, raw };
}

async function trpc(baseUrl: string, authorization: string | null, operation: Operation, extra: Record<string, string>): Promise<Outcome> {
  const headers = { ...auth(authorization), ...extra };
  const response =
    operation.op === "list"
      ? await fetch(`${baseUrl}/trpc/documents.list?input=${encodeURIComponent("{}")}`, { headers })
      : operation.op === "read"
        ? await fetch(`${baseUrl}/trpc/documents.read?input=${encodeURIComponent(JSON.stringify({ id: operation.id }))}`, { headers })
        : await fetch(`${baseUrl}/trpc/documents.create`, {
            method: "POST",
            headers: { ...headers, ...json },
            body: JSON.stringify({ name: operation.name, markdown: operation.markdown }),
          });
  const raw = await response.text();
  const body = parse(raw) as { result?: { data?: unknown }; error?: { data?: { gatewayCode?: string } } } | undefined;
  if (body?.error) return { status: response.status, code: body.error.data?.gatewayCode ?? "?", raw };
  return { status: response.status, code: response.ok ? "OK" : "?", value: body?.result?.data, raw };
}

let rpcId = 0;
export const mcpHeaders = { ...json, accept: "application/json, text/event-stream" };

async function mcp(baseUrl: string, authorization: string | null, operation: Operation, extra: Record<string, string>): Promise<Outcome> {
  const [name, args] =
    operation.op === "list"
      ? ["docs_list", {}]
      : operation.op === "read"
        ? ["docs_read", { id: operation.id }]
        : ["docs_create", { name: operation.name, markdown: operation.markdown }];
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders, ...auth(authorization), ...extra },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } }),
  });
  const raw = await response.text();
  const body = parse(raw) as
    { error?: { code: string }; result?: { isError?: boolean; content?: { text?: string }[]; structuredContent?: unknown } } | undefined;
  // An HTTP-level refusal (401, 403, 429) carries the REST error body or a JSON-RPC error.
  if (!response.ok)
    return {
      status: response.status,
      code: typeof body?.error?.code === "string" ? body.error.code : String(body?.error?.code ?? "?"),
      raw,
    };
  const result = body?.result;
  if (result?.isError) return { status: response.status, code: /^([A-Z_]+):/.exec(result.content?.[0]?.text ?? "")?.[1] ?? "?", raw };
  return { status: response.status, code: result ? "OK" : "?", value: result?.structuredContent, raw };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
