// GraphQL requests refused before execution (syntax, validation and every armor limit) answer
// alike, as GraphQL over HTTP asks: 400 with application/graphql-response+json, 200 for a client
// that accepts only application/json; always BAD_USER_INPUT, never executed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlLimits } from "../../src/graphql/surface.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const over = (n: number) => n + 5;
const nest = (levels: number) => {
  let inner = "id";
  for (let i = 0; i < levels; i++) inner = `thread { messages { ${inner} } }`;
  return `{ messages { edges { node { ${inner} } } } }`;
};

const requests: [string, string][] = [
  ["syntax", "{ viewer { "],
  ["validation", "{ nope }"],
  ["depth", nest(graphqlLimits.maxDepth)],
  ["aliases", `{ ${Array.from({ length: over(graphqlLimits.maxAliases) }, (_, i) => `a${i}: viewer { id }`).join(" ")} }`],
  ["directives", `{ viewer { id ${"@include(if: true) ".repeat(over(graphqlLimits.maxDirectives))}} }`],
  ["tokens", `{ viewer { ${Array.from({ length: over(graphqlLimits.maxTokens) }, () => "id").join(" ")} } }`],
  [
    "cost",
    `{ ${Array.from({ length: 19 }, (_, i) => `a${i}: documents(first: 100) { edges { node { id name text { text } } } }`).join(" ")} }`,
  ],
];

const accepts: [string, string | undefined, number][] = [
  ["application/graphql-response+json", "application/graphql-response+json", 400],
  ["application/json", "application/json", 200],
];

describe("GraphQL requests that fail before execution", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway();
    key = await tg.key();
  });
  afterAll(() => tg.close());

  const cases = requests.flatMap(([label, query]) =>
    accepts.map(([name, accept, status]) => [label, name, query, accept, status] as const),
  );
  it.each(cases)("%s, Accept: %s → the spec's status, BAD_USER_INPUT, no data", async (_label, _name, query, accept, status) => {
    const response = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}`, ...(accept ? { accept } : {}) },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toContain(accept);
    const body = (await response.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]?.extensions.code).toBe("BAD_USER_INPUT");
  });

  it("without Accept, every kind answers with the same status", async () => {
    const statuses = new Set<number>();
    for (const [, query] of requests) {
      const response = await fetch(`${tg.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query }),
      });
      await response.arrayBuffer();
      statuses.add(response.status);
    }
    expect([...statuses]).toHaveLength(1);
  });
});
