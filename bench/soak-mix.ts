// The request mix of bench/soak.ts: a quarter per surface (REST, GraphQL, tRPC, MCP), each over
// documents (an API key, SQLite), products (an access token, the sandbox upstream), a write (a
// rename: a new version) and refusals (404, a validation error, a query over the cost limit).
// Seeds 20 small documents first. Each item says what answer it expects.

export interface SoakRequest {
  name: string;
  surface: "rest" | "graphql" | "trpc" | "mcp";
  method: "GET" | "POST" | "PUT";
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect(status: number, text: string): boolean;
}

const DOCUMENTS = 20;
const MISSING = "doc_00000000000000000000000000";

const ok = (status: number) => status === 200;
const okWithout = (marker: string) => (status: number, text: string) => status === 200 && !text.includes(marker);

/** mulberry32, for one fixed order of the mix. */
function shuffled<T>(items: T[], seed = 7): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function seed(base: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const markdown = `# Soak ${i}\n\n${"Some **bold** text, a [link](https://example.com) and a list.\n\n- one\n- two\n\n".repeat(20)}`;
    const response = await fetch(`${base}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `soak ${i}`, markdown }),
    });
    if (response.status !== 201) throw new Error(`seeding: HTTP ${response.status} ${await response.text()}`);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

export async function soakMix(
  base: string,
  credentials: { key: string; token: string },
): Promise<{ items: SoakRequest[]; perSurface: Record<string, number> }> {
  const ids = await seed(base, credentials.key);
  const key = { authorization: `Bearer ${credentials.key}` };
  const token = { authorization: `Bearer ${credentials.token}` };
  const json = { "content-type": "application/json" };
  const gql = (query: string) => JSON.stringify({ query });
  const trpc = (procedure: string, input: unknown) => `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
  const mcp = (id: number, method: string, params?: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
  const mcpHeaders = { ...json, accept: "application/json, text/event-stream" };
  const tool = (name: string, args: unknown) => ({ name, arguments: args });
  const items: SoakRequest[] = [];
  const add = (times: number, make: (i: number) => SoakRequest) => {
    for (let i = 0; i < times; i++) items.push(make(i));
  };
  const id = (i: number) => ids[i % ids.length]!;
  const attack = `{ ${Array.from({ length: 6 }, (_, i) => `a${i}: document(id: "${ids[0]}") { versions(first: 100) { edges { node { text(maxChars: 1) { text } } } } }`).join(" ")} }`;

  // REST: 12 a round.
  add(3, () => ({ name: "REST list", surface: "rest", method: "GET", path: "/api/v1/documents?limit=20", headers: key, expect: ok }));
  add(3, (i) => ({
    name: "REST read",
    surface: "rest",
    method: "GET",
    path: `/api/v1/documents/${id(i)}?maxChars=2000`,
    headers: key,
    expect: ok,
  }));
  add(3, () => ({
    name: "REST file download",
    surface: "rest",
    method: "GET",
    path: "/api/v1/files/file_q3_budget_csv/content",
    headers: token,
    expect: ok,
  }));
  add(2, () => ({
    name: "REST 404",
    surface: "rest",
    method: "GET",
    path: `/api/v1/documents/${MISSING}`,
    headers: key,
    expect: (s) => s === 404,
  }));
  add(1, () => ({
    name: "REST rename",
    surface: "rest",
    method: "PUT",
    path: `/api/v1/documents/${ids[DOCUMENTS - 1]}`,
    headers: { ...key, ...json },
    body: JSON.stringify({ name: "soak renamed" }),
    expect: ok,
  }));
  // GraphQL: 12 a round.
  const graphql = (name: string, auth: Record<string, string>, query: string, expect: SoakRequest["expect"]): SoakRequest => ({
    name,
    surface: "graphql",
    method: "POST",
    path: "/graphql",
    headers: { ...auth, ...json, accept: "application/graphql-response+json" },
    body: gql(query),
    expect,
  });
  add(3, () => graphql("GraphQL documents", key, "{ documents(first: 20) { edges { node { id name version } } } }", okWithout('"errors"')));
  add(3, (i) =>
    graphql(
      "GraphQL document text",
      key,
      `{ document(id: "${id(i)}") { name text(maxChars: 500) { text totalChars } versions(first: 5) { edges { node { version } } } } }`,
      okWithout('"errors"'),
    ),
  );
  add(3, () =>
    graphql(
      "GraphQL messages",
      token,
      "{ messages(first: 20) { edges { node { id subject from { email } receivedAt } } } }",
      okWithout('"errors"'),
    ),
  );
  add(1, () => graphql("GraphQL searchFiles", token, '{ searchFiles(query: "budget") { id name } }', okWithout('"errors"')));
  add(1, () => graphql("GraphQL validation error", key, "{ documents { nope } }", (s) => s === 400));
  add(1, () => graphql("GraphQL over the cost limit", key, attack, (s, t) => s === 400 && t.includes("Query cost")));
  // tRPC: 12 a round.
  add(3, () => ({
    name: "tRPC documents.list",
    surface: "trpc",
    method: "GET",
    path: trpc("documents.list", { limit: 20 }),
    headers: key,
    expect: ok,
  }));
  add(3, (i) => ({
    name: "tRPC documents.read",
    surface: "trpc",
    method: "GET",
    path: trpc("documents.read", { id: id(i), maxChars: 500 }),
    headers: key,
    expect: ok,
  }));
  add(3, () => ({
    name: "tRPC messages.list",
    surface: "trpc",
    method: "GET",
    path: trpc("messages.list", { limit: 20 }),
    headers: token,
    expect: ok,
  }));
  add(3, () => ({
    name: "tRPC batch",
    surface: "trpc",
    method: "GET",
    path: `/trpc/documents.list,viewer?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { limit: 5 }, 1: {} }))}`,
    headers: key,
    expect: okWithout('"error"'),
  }));
  // MCP: 12 a round, one stateless POST each.
  const call = (name: string, auth: Record<string, string>, body: string): SoakRequest => ({
    name,
    surface: "mcp",
    method: "POST",
    path: "/mcp",
    headers: { ...auth, ...mcpHeaders },
    body,
    expect: okWithout('"isError":true'),
  });
  add(3, (i) => call("MCP docs_list", key, mcp(i, "tools/call", tool("docs_list", { limit: 10 }))));
  add(3, (i) => call("MCP docs_read", key, mcp(i, "tools/call", tool("docs_read", { id: id(i), maxChars: 500 }))));
  add(3, (i) => call("MCP mail_list", token, mcp(i, "tools/call", tool("mail_list", { limit: 10 }))));
  add(3, (i) => call("MCP tools/list", key, mcp(i, "tools/list")));

  for (const item of items) {
    const response = await fetch(`${base}${item.path}`, {
      method: item.method,
      headers: item.headers,
      ...(item.body ? { body: item.body } : {}),
    });
    const text = await response.text();
    if (!item.expect(response.status, text)) throw new Error(`${item.name}: unexpected HTTP ${response.status} ${text.slice(0, 300)}`);
  }
  const perSurface: Record<string, number> = {};
  for (const item of items) perSurface[item.surface] = (perSurface[item.surface] ?? 0) + 1;
  return { items: shuffled(items), perSurface };
}
