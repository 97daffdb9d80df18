// The operation table (src/services/operations/) is the one declaration of every operation,
// documents and products alike: its tRPC procedures and MCP tools carry the documented names
// (docs/api.md), its GraphQL fields are the SDL's root fields (schema/*.graphql), every row is
// documented in docs/api.md, and every row is reachable on every surface it offers, through the
// row's own run function. A row without a case below fails to compile (`cases` is a Record over
// every operation name) and fails here.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { makeExecutableSchema } from "@graphql-tools/schema";
import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
  isObjectType,
  parse,
  printSchema,
  type GraphQLField,
  type GraphQLSchema,
} from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadTypeDefs } from "../../resolvers/sdl.ts";
import { tools } from "../../src/mcp/tools.ts";
import {
  operationNames,
  operations,
  operationOf,
  operationsOn,
  type OperationName,
  type OperationSurface,
} from "../../src/services/operations/index.ts";
import { appRouter } from "../../src/trpc/router.ts";
import { allTools, trpcProcedures } from "../helpers/surface.ts";
import { graphqlFetch, startProductsEnv, trpcClient, type ProductsEnv } from "../products/harness.ts";
import { cases, type Fixtures } from "./cases.ts";

const surfacesOf = (name: OperationName): OperationSurface[] =>
  (["trpc", "mcp", "graphql", "rest"] as const).filter((surface) => operationsOn(surface).some(([n]) => n === name));

describe("names", () => {
  it("the router has exactly the table's procedures and the viewer (docs/surface.json), each a query or mutation as its row says", () => {
    const offered = ["viewer", ...operationsOn("trpc").map(([name]) => name)].sort();
    expect(offered).toEqual([...trpcProcedures].sort());
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(offered);
    for (const [name, op] of operationsOn("trpc")) {
      expect((appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[name]?._def.type, name).toBe(op.kind);
    }
  });

  it("the server offers exactly the table's MCP tools (docs/surface.json)", () => {
    const names = operationsOn("mcp").map(([, op]) => op.mcp!.name);
    expect(names).toEqual([...allTools]);
    expect(tools.map((t) => t.name)).toEqual(names);
    expect(new Set(names).size, "tool names are unique").toBe(names.length);
  });

  it("every row has a title, a description an agent can act on, a credential and truthful-looking annotations", () => {
    for (const name of operationNames) {
      const op = operationOf(name);
      expect(op.title.length, name).toBeGreaterThan(5);
      expect(op.description.length, name).toBeGreaterThan(40);
      expect(
        ["docs:read", "docs:write", "sheets:read", "sheets:write", "workspace:read", "workspace:write", "access_token", "share_token"],
        name,
      ).toContain(op.auth);
      // Queries read; everything that writes is a mutation and not read-only.
      expect(op.annotations.readOnlyHint, name).toBe(op.kind === "query");
      if (op.auth.endsWith(":read")) expect(op.kind, `${name} needs a read scope`).toBe("query");
      if (op.auth.endsWith(":write")) expect(op.kind, `${name} needs a write scope`).toBe("mutation");
      expect(surfacesOf(name).length, `${name} is offered somewhere`).toBeGreaterThan(0);
      if (op.upload) expect(Object.keys((op.input as z.ZodObject).shape), `${name}'s input has its file`).toContain(op.upload.field);
    }
  });

  it("every row is documented in docs/api.md: its procedure, its tool and its route", () => {
    const api = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    for (const name of operationNames) {
      const op = operationOf(name);
      if (op.trpc !== false) expect(api, `${name} in docs/api.md`).toContain(`\`${name}\``);
      if (op.mcp) expect(api, `${op.mcp.name} in docs/api.md`).toContain(`\`${op.mcp.name}\``);
      if (op.rest) expect(api, `${op.rest.method} ${op.rest.path} in docs/api.md`).toContain(`\`${op.rest.method} ${op.rest.path}\``);
    }
  });
});

// ---- GraphQL: the table's fields are the SDL's root fields ----------------------------------------

/** The field at a coordinate ("Type.field") of the schema, if there is one. */
function fieldAt(schema: GraphQLSchema, coordinate: string): GraphQLField<unknown, unknown> | undefined {
  const [typeName, fieldName] = coordinate.split(".") as [string, string];
  const type = schema.getType(typeName);
  return isObjectType(type) ? type.getFields()[fieldName] : undefined;
}

/** The keys an operation's input object takes. */
function inputKeys(name: OperationName): string[] {
  const input = operations[name].input as z.ZodType;
  expect(input, `${name}'s input is an object`).toBeInstanceOf(z.ZodObject);
  return Object.keys((input as z.ZodObject).shape);
}

describe("GraphQL fields", () => {
  // The SDL as the server loads it, without the resolvers, printed and parsed back so the
  // coordinates are checked against the schema callers see.
  const built = makeExecutableSchema({ typeDefs: loadTypeDefs() });
  const printed = parse(printSchema(built));
  const specs = operationNames.flatMap((name) => (operationOf(name).graphql ?? []).map((spec) => ({ name, spec })));

  it("every field a row names is in the printed schema: root fields of the row's kind, type fields from their parent", () => {
    const printedFields = new Set(
      printed.definitions.flatMap((d) =>
        d.kind === "ObjectTypeDefinition" ? (d.fields ?? []).map((f) => `${d.name.value}.${f.name.value}`) : [],
      ),
    );
    for (const { name, spec } of specs) {
      const op = operationOf(name);
      expect(printedFields.has(spec.field), `${name}: ${spec.field} is in the SDL`).toBe(true);
      const field = fieldAt(built, spec.field)!;
      const [type] = spec.field.split(".") as [string];
      if (type === "Query" || type === "Mutation") {
        expect(type, `${name} (a ${op.kind}) backs ${spec.field}`).toBe(op.kind === "query" ? "Query" : "Mutation");
        expect(spec.fromParent, `${spec.field} is a root field: its input is its arguments`).toBeUndefined();
      } else {
        expect(op.kind, `${name} backs a type field (${spec.field}), so it only reads`).toBe("query");
        expect(spec.fromParent, `${spec.field} takes its input from its ${type}`).toBeTypeOf("function");
      }
      if (spec.nullWhenNotFound) expect(isNonNullType(field.type), `${spec.field} is nullable`).toBe(false);
    }
  });

  it("every argument a field passes is a key of its operation's input", () => {
    for (const { name, spec } of specs) {
      const field = fieldAt(built, spec.field)!;
      const keys = inputKeys(name);
      const args = field.args.map((arg) => arg.name);
      if (spec.args === "input") {
        expect(args, `${spec.field} takes one input object`).toEqual(["input"]);
        const inputType = getNamedType(field.args[0]!.type);
        expect(isInputObjectType(inputType), `${spec.field}'s input is an input object`).toBe(true);
        if (isInputObjectType(inputType)) {
          for (const key of Object.keys(inputType.getFields())) expect(keys, `${spec.field}: input.${key}`).toContain(key);
        }
      } else if (spec.args === "connection") {
        expect(args, `${spec.field} is a Relay connection`).toEqual(expect.arrayContaining(["first", "after"]));
        expect(keys, `${name} pages with limit and cursor`).toEqual(expect.arrayContaining(["limit", "cursor"]));
        const connection = getNamedType(field.type);
        expect(isObjectType(connection) && Object.keys(connection.getFields()).sort(), `${spec.field}'s type`).toEqual([
          "edges",
          "pageInfo",
        ]);
        for (const arg of args.filter((a) => a !== "first" && a !== "after")) expect(keys, `${spec.field}(${arg})`).toContain(arg);
      } else {
        for (const arg of args) expect(keys, `${spec.field}(${arg})`).toContain(arg);
      }
    }
  });

  it("every root field of the SDL but the viewer is derived from exactly one row, and no field from two", () => {
    const rootFields = [built.getQueryType()!, built.getMutationType()!].flatMap((type) =>
      Object.keys(type.getFields()).map((field) => `${type.name}.${field}`),
    );
    const backing = new Map<string, OperationName[]>();
    for (const { name, spec } of specs) backing.set(spec.field, [...(backing.get(spec.field) ?? []), name]);
    for (const field of rootFields.filter((f) => f !== "Query.viewer")) {
      expect(backing.get(field) ?? [], `${field} is derived from one row`).toHaveLength(1);
    }
    for (const [field, names] of backing) expect(names, `${field} is backed by one row`).toHaveLength(1);
  });
});

// ---- reachability: each surface a row offers runs that row ---------------------------------------

let env: ProductsEnv;
let fixtures: Fixtures;
const ran: OperationName[] = [];
const originals = new Map<OperationName, unknown>();

async function callOn(surface: OperationSurface, name: OperationName): Promise<void> {
  const op = operationOf(name);
  const how = cases[name];
  const input = how.input ? await how.input(fixtures) : {};
  if (surface === "graphql") {
    const call = await how.graphql!(fixtures);
    const { body } = await graphqlFetch(env.gateway.url, call, { token: env.token });
    expect(body.errors, `${name} over GraphQL`).toBeUndefined();
  } else if (surface === "trpc") {
    const client = trpcClient(env.gateway.url, { token: env.token }) as unknown as Record<
      string,
      Record<string, { query(i: unknown): Promise<unknown>; mutate(i: unknown): Promise<unknown> }>
    >;
    const [namespace, procedure] = name.split(".") as [string, string];
    const target = client[namespace]![procedure]!;
    const trpcInput = how.trpc ? await how.trpc(fixtures) : input;
    await (op.kind === "query" ? target.query(trpcInput) : target.mutate(trpcInput));
  } else if (surface === "mcp") {
    const client = new Client({ name: "operations-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${env.token}` } },
      }),
    );
    try {
      await client.listTools();
      const args = how.mcp ? await how.mcp(fixtures) : (input as Record<string, unknown>);
      const result = (await client.callTool({ name: op.mcp!.name, arguments: args })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      expect(result.isError, `${op.mcp!.name}: ${result.content[0]?.text}`).toBeFalsy();
    } finally {
      await client.close();
    }
  } else {
    const call = await how.rest!(fixtures);
    const response = await fetch(`${env.gateway.url}${call.path}`, {
      ...call.init,
      headers: { authorization: `Bearer ${env.token}`, ...(call.init?.headers as Record<string, string>) },
    });
    const body = await response.text();
    expect(response.status, `${name} over REST: ${body.slice(0, 200)}`).toBe(op.rest!.status ?? 200);
  }
}

describe("every operation is reachable on every surface it offers", () => {
  // The env is this block's: the checks above need no gateway.
  beforeAll(async () => {
    env = await startProductsEnv({ scope: "docs:read docs:write sheets:read sheets:write" });
    fixtures = { url: env.gateway.url, token: env.token };
    // Every row's run function records that it ran: a surface reaches the table, not a copy of it.
    for (const name of operationNames) {
      const op = operations[name] as { run: (...args: unknown[]) => Promise<unknown> };
      originals.set(name, op.run);
      const run = op.run;
      op.run = (...args) => {
        ran.push(name);
        return run(...args);
      };
    }
  });
  afterAll(async () => {
    for (const [name, run] of originals) (operations[name] as { run: unknown }).run = run;
    await env?.close();
  });
  afterEach(() => {
    ran.length = 0;
  });

  it("every row has a case for every surface it offers", () => {
    for (const name of operationNames) {
      const how = cases[name];
      for (const surface of surfacesOf(name)) {
        const has = surface === "graphql" ? how.graphql : surface === "rest" ? how.rest : how.input || how[surface];
        expect(has, `${name} has a ${surface} case`).toBeDefined();
      }
    }
  });

  const rows = operationNames.flatMap((name) => surfacesOf(name).map((surface) => [name, surface] as const));
  it.each(rows)("%s on %s", async (name, surface) => {
    await callOn(surface, name);
    expect(ran, `${name} on ${surface}`).toContain(name);
  });
});
