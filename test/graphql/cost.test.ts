// The GraphQL cost model (src/graphql/cost.ts, docs/security.md "GraphQL cost"): pages multiply by
// `first` (literal, variable or default), text fields weigh a store read plus the characters they
// ask for, fragments count once per spread without an exponential walk. Issue 23's attack (six
// aliases of 100 versions' text) was ~19.2k under armor's model, within its 20k limit.
import { buildSchema, parse } from "graphql";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { costModel, FixedCosts, operationCost } from "../../src/graphql/cost.ts";

const schema = buildSchema(readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));
const cost = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  operationCost(schema, parse(query), operationName, variables);

const versionsText = (maxChars: number | string) => `versions(first: 100) { edges { node { text(maxChars: ${maxChars}) { text } } } }`;
const attack = `{ ${Array.from({ length: 6 }, (_, i) => `a${i}: document(id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A") { ${versionsText(1)} }`).join(" ")} }`;

describe("GraphQL cost", () => {
  it("prices issue 23's attack over the limit, and one alias of it within", () => {
    // Per version: edges 1 + node 1 + text (1 + a read 100 + 1 character's point 1) + text 1 = 105.
    const one = cost(`{ document(id: "d") { ${versionsText(1)} } }`)!;
    expect(one).toBe(1 + 1 + 100 * 105);
    expect(cost(attack)).toBe(6 * one);
    expect(cost(attack)!).toBeGreaterThan(costModel.MAX_COST);
  });

  it("weighs text by the characters asked for: the default 20,000 is 80 points a text", () => {
    expect(cost(`{ document(id: "d") { text { text } } }`)).toBe(1 + 1 + 100 + 80 + 1);
    expect(cost(`{ document(id: "d") { text(maxChars: 1000000) { text } } }`)).toBe(1 + 1 + 100 + 4000 + 1);
    // 100 documents with their default text: 2,000,000 characters asked for.
    expect(cost("{ documents(first: 100) { edges { node { id name text { text } } } } }")).toBe(1 + 100 * (1 + 1 + 1 + 1 + 181 + 1));
  });

  it("weighs a spreadsheet range by the cells asked for: the default 10,000 is 500 points, a full 100,000 is 5,000", () => {
    const range = (args: string) => cost(`{ spreadsheet(id: "s") { range(range: "A1:J10000"${args}) { nextCursor } } }`);
    expect(range("")).toBe(1 + 1 + 100 + 500 + 1);
    expect(range(", maxCells: 100000")).toBe(1 + 1 + 100 + 5000 + 1);
    expect(range(", maxCells: 5")).toBe(1 + 1 + 100 + 1 + 1);
    // A variable is read like first's; one past the schema's bound is priced at the bound.
    expect(cost('query R($c: Int) { spreadsheet(id: "s") { range(range: "A1", maxCells: $c) { nextCursor } } }', { c: 2_000_000 })).toBe(
      1 + 1 + 100 + 5000 + 1,
    );
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: spreadsheet(id: "s") { range(range: "A1:J10000", maxCells: 100000) { nextCursor } }`).join(" ")} }`;
    expect(cost(aliases(3))!).toBeLessThanOrEqual(costModel.MAX_COST);
    expect(cost(aliases(4))!).toBeGreaterThan(costModel.MAX_COST);
  });

  it("multiplies by first given as a variable, as a variable's default, or by 50 when absent", () => {
    const query = "query Q($n: Int, $m: Int) { documents(first: $n) { edges { node { text(maxChars: $m) { text } } } } }";
    const per = (chars: number) => 1 + 1 + 1 + 100 + Math.ceil(chars / 250) + 1;
    expect(cost(query, { n: 100, m: 1 })).toBe(1 + 100 * per(1));
    expect(cost(query, { n: 3 })).toBe(1 + 3 * per(20_000));
    expect(cost(query, { n: null, m: null })).toBe(1 + 50 * per(20_000));
    expect(cost("query Q($n: Int = 7) { documents(first: $n) { edges { node { id } } } }")).toBe(1 + 7 * 3);
    expect(cost("{ documents { edges { node { id } } } }")).toBe(1 + 50 * 3);
    // A value coercion will refuse is priced at the most it could mean.
    expect(cost(query, { n: 1, m: "lots" })).toBe(1 + per(1_000_000));
  });

  it("counts fragments and inline fragments where they are spread, and a fragment spread twice without walking it twice", () => {
    const viaFragment = cost(`query { document(id: "d") { ...V } } fragment V on Document { ${versionsText(1)} }`);
    expect(viaFragment).toBe(cost(`{ document(id: "d") { ${versionsText(1)} } }`));
    expect(cost(`{ document(id: "d") { ... on Document { id } } }`)).toBe(2);
    // 2^20 paths through fragments, each costed once per spread.
    const chain = Array.from({ length: 20 }, (_, i) => `fragment F${i} on Document { ...F${i + 1} ...F${i + 1} }`).join(" ");
    const deep = cost(`{ document(id: "d") { ...F0 } } ${chain} fragment F20 on Document { id }`);
    expect(deep).toBe(1 + 2 ** 20);
  });

  it("picks the named operation, and leaves __typename and introspection free", () => {
    const two = "query A { viewer { id } } query B { documents(first: 10) { edges { node { id } } } }";
    expect(cost(two, {}, "A")).toBe(2);
    expect(cost(two, {}, "B")).toBe(31);
    expect(cost(two, {}, "C")).toBeUndefined();
    expect(cost("{ __typename viewer { __typename id } }")).toBe(2);
  });

  it("keeps the cost of an operation without variables with its document, and prices one with variables every time", () => {
    const costs = new FixedCosts();
    const fixed = parse("{ documents(first: 100) { edges { node { id } } } }");
    expect(costs.of(schema, fixed, undefined, {})).toBe(1 + 100 * 3);
    // Kept: the same document is not walked again (its definitions emptied, a walk would now find no operation).
    const walked = fixed.definitions;
    (fixed as { definitions: unknown }).definitions = [];
    expect(costs.of(schema, fixed, undefined, {})).toBe(1 + 100 * 3);
    (fixed as { definitions: unknown }).definitions = walked;
    const paged = parse("query Q($n: Int) { documents(first: $n) { edges { node { id } } } }");
    expect(costs.of(schema, paged, "Q", { n: 2 })).toBe(1 + 2 * 3);
    expect(costs.of(schema, paged, "Q", { n: 100 })).toBe(1 + 100 * 3);
  });
});
