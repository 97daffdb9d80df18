// The operation table (src/services/operations.ts) is the one declaration of every product
// operation: its tRPC procedures and MCP tools carry the documented names (docs/api.md), its GraphQL
// fields are the SDL's product fields (schema/*.graphql), and every operation is reachable on
// every surface it names, through the table's own run function.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
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
import { loadTypeDefs } from "../../src/graphql/schema.ts";
import { tools } from "../../src/mcp/tools.ts";
import { operationNames, operations, operationsOn, type OperationName, type OperationSurface } from "../../src/services/operations.ts";
import { appRouter } from "../../src/trpc/router.ts";
import { graphqlFetch, startProductsEnv, trpcClient, type ProductsEnv } from "./harness.ts";
import { ALL_TOOLS } from "../mcp/mcp-cases.ts";

// ---- the documented lists (docs/api.md "tRPC" and "MCP"), copied here on purpose ---------------

/** docs/api.md "tRPC (`/trpc`)": the tRPC procedures. */
const DOCUMENTED_TRPC = [
  "viewer",
  "documents.list",
  "documents.read",
  "documents.create",
  "documents.import",
  "documents.update",
  "documents.rename",
  "documents.delete",
  "documents.trash",
  "documents.restore",
  "documents.purge",
  "documents.versions",
  "documents.readVersion",
  "documents.restoreVersion",
  "documents.share",
  "documents.shares",
  "documents.revokeShare",
  "messages.list",
  "messages.send",
  "messages.thread",
  "messages.createDraft",
  "calendar.events",
  "bookings.create",
  "files.get",
  "files.upload",
  "files.search",
  "files.share",
  "search.query",
  "search.chat",
  "meetings.create",
  "meetings.transcript",
  "meetings.summary",
  "enterprise.dataQuery",
  "enterprise.invoices",
  "workflows.run",
];
/** docs/api.md "MCP": the MCP tools, one list for every MCP test. */
const DOCUMENTED_MCP: readonly string[] = ALL_TOOLS;
const NOT_PRODUCTS_TRPC = ["viewer", ...DOCUMENTED_TRPC.filter((n) => n.startsWith("documents."))];
const NOT_PRODUCTS_MCP = DOCUMENTED_MCP.filter((n) => n.startsWith("docs_"));

describe("names", () => {
  it("the table's tRPC operations are the documented product procedures, and the router has exactly the documented ones", () => {
    expect(
      operationsOn("trpc")
        .map(([name]) => name)
        .sort(),
    ).toEqual(DOCUMENTED_TRPC.filter((n) => !NOT_PRODUCTS_TRPC.includes(n)).sort());
    expect(
      Object.keys(appRouter._def.procedures)
        .filter((p) => p !== "documents.get")
        .sort(),
    ).toEqual([...DOCUMENTED_TRPC].sort());
    for (const [name, op] of operationsOn("trpc")) {
      expect((appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[name]?._def.type, name).toBe(op.kind);
    }
  });

  it("the table's MCP tools are the documented product tools, and the server offers exactly the documented ones", () => {
    expect(
      operationsOn("mcp")
        .map(([, op]) => op.mcp?.name)
        .sort(),
    ).toEqual(DOCUMENTED_MCP.filter((n) => !NOT_PRODUCTS_MCP.includes(n)).sort());
    expect(tools.map((t) => t.name).sort()).toEqual([...DOCUMENTED_MCP].sort());
  });

  it("every operation has a description, a credential and truthful-looking annotations", () => {
    for (const name of operationNames) {
      const op = operations[name];
      expect(op.credential, name).toBe("access_token");
      expect(op.description.length, name).toBeGreaterThan(40);
      expect(op.surfaces.length, name).toBeGreaterThan(0);
      // Queries read; everything that writes is a mutation and not read-only.
      expect(op.annotations.readOnlyHint, name).toBe(op.kind === "query");
      if (op.surfaces.includes("mcp")) expect(op.mcp, name).toBeDefined();
    }
  });
});

// ---- GraphQL: the table's fields are the SDL's product fields ---------------------------------------

/** The SDL files of the gateway's own root fields (documents, their history and shares, the viewer); every other root field is a product's. */
const GATEWAY_OWN_SDL = ["documents.graphql", "viewer.graphql"];

/** The Query/Mutation fields an SDL file declares. */
function rootFieldsOf(file: string): string[] {
  const document = parse(readFileSync(new URL(`../../schema/${file}`, import.meta.url), "utf8"));
  return document.definitions.flatMap((definition) =>
    (definition.kind === "ObjectTypeDefinition" || definition.kind === "ObjectTypeExtension") &&
    (definition.name.value === "Query" || definition.name.value === "Mutation")
      ? (definition.fields ?? []).map((field) => `${definition.name.value}.${field.name.value}`)
      : [],
  );
}

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
  // The SDL as the server loads it (schema/*.graphql), without the resolvers (the server refuses a
  // resolver for a field the SDL lacks; here that is one more failed check), and printed and parsed
  // back so the coordinates are checked against the schema callers see.
  const built = makeExecutableSchema({ typeDefs: loadTypeDefs() });
  const printed = parse(printSchema(built));
  const specs = operationNames.flatMap((name) => (operations[name].graphql ?? []).map((spec) => ({ name, spec })));

  it("a row offered on GraphQL names its fields, and only such a row does", () => {
    for (const name of operationNames) {
      const op = operations[name];
      if (op.surfaces.includes("graphql")) expect(op.graphql?.length, `${name}'s graphql fields`).toBeGreaterThan(0);
      else expect(op.graphql, `${name} is not on GraphQL`).toBeUndefined();
    }
  });

  it("every field a row names is in the printed schema: root fields of the row's kind, type fields from their parent", () => {
    const printedFields = new Set(
      printed.definitions.flatMap((d) =>
        d.kind === "ObjectTypeDefinition" ? (d.fields ?? []).map((f) => `${d.name.value}.${f.name.value}`) : [],
      ),
    );
    for (const { name, spec } of specs) {
      const op = operations[name];
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
      expect(fieldAt(built, spec.field), `${spec.field} is in the SDL`).toBeDefined();
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

  it("every product root field of the SDL is derived from exactly one row, and no field from two", () => {
    const own = GATEWAY_OWN_SDL.flatMap(rootFieldsOf);
    expect(own, "the gateway's own root fields").toEqual(
      expect.arrayContaining(["Query.viewer", "Query.documents", "Mutation.createDocument"]),
    );
    const rootFields = [built.getQueryType()!, built.getMutationType()!].flatMap((type) =>
      Object.keys(type.getFields()).map((field) => `${type.name}.${field}`),
    );
    const productRootFields = rootFields.filter((field) => !own.includes(field));
    expect(productRootFields.length, "the SDL has product fields").toBeGreaterThan(0);

    const backing = new Map<string, OperationName[]>();
    for (const { name, spec } of specs) backing.set(spec.field, [...(backing.get(spec.field) ?? []), name]);
    for (const field of productRootFields) expect(backing.get(field) ?? [], `${field} is derived from one row`).toHaveLength(1);
    for (const [field, names] of backing) {
      expect(names, `${field} is backed by one row`).toHaveLength(1);
      expect(own, `${field} is not one of the gateway's own`).not.toContain(field);
    }
  });
});

// ---- reachability: each surface a row names runs that row ----------------------------------------

let env: ProductsEnv;
const ran: OperationName[] = [];
const originals = new Map<OperationName, unknown>();

const FILE = "file_q3_budget_csv";
const MEETING = "mtg_weekly_product_sync";
const THREAD = "thr_q3_budget_review";

/** How to call each operation on each surface it names (its arguments as that surface takes them). */
const calls: Record<OperationName, { input?: unknown; graphql?: string; mcp?: Record<string, unknown>; rest?: string }> = {
  "messages.list": { input: { limit: 2 }, graphql: "{ messages(first: 2) { edges { node { id } } } }" },
  "messages.thread": { input: { id: THREAD }, graphql: `{ thread(id: "${THREAD}") { id } }` },
  "messages.send": {
    input: { to: ["a@example.com"], subject: "s", body: "b" },
    graphql: 'mutation { sendMessage(input: { to: ["a@example.com"], subject: "s", body: "b" }) { id } }',
  },
  "messages.createDraft": { input: { subject: "s" }, graphql: 'mutation { createDraft(input: { subject: "s" }) { id } }' },
  "calendar.events": { input: { limit: 2 }, graphql: "{ calendarEvents(first: 2) { edges { node { id } } } }" },
  "bookings.create": {
    input: { bookingTypeId: "bt_demo60", start: "2027-01-04T10:00:00Z", attendee: { name: "A", email: "a@example.com" } },
    graphql:
      'mutation { createBooking(input: { bookingTypeId: "bt_demo60", start: "2027-01-05T10:00:00Z", attendee: { name: "A", email: "a@example.com" } }) { id } }',
    mcp: { bookingTypeId: "bt_demo60", start: "2027-01-06T10:00:00Z", attendee: { name: "A", email: "a@example.com" } },
  },
  "files.get": { input: { id: FILE }, graphql: `{ file(id: "${FILE}") { id } }` },
  "files.upload": { mcp: { name: "t.txt", content: Buffer.from("hi").toString("base64") } },
  "files.download": { rest: `/api/v1/files/${FILE}/content` },
  "files.search": { input: { query: "budget" }, graphql: '{ searchFiles(query: "budget") { id } }' },
  "files.share": {
    input: { fileId: FILE, permission: "view" },
    graphql: `mutation { createShare(input: { fileId: "${FILE}", permission: view }) { url } }`,
  },
  "search.query": { input: { query: "budget" }, graphql: '{ search(query: "budget") { answer } }' },
  "search.chat": { input: { message: "hi" }, graphql: 'mutation { searchChat(input: { message: "hi" }) { answer } }' },
  "meetings.get": { graphql: `{ meeting(id: "${MEETING}") { id } }` },
  "meetings.create": {
    input: { title: "t", startsAt: "2026-12-01T09:00:00Z", durationMinutes: 30 },
    graphql: 'mutation { createMeeting(input: { title: "t", startsAt: "2026-12-01T09:00:00Z", durationMinutes: 30 }) { id } }',
  },
  "meetings.transcript": { input: { id: MEETING }, graphql: `{ meeting(id: "${MEETING}") { transcript { meetingId } } }` },
  "meetings.summary": { input: { id: MEETING }, graphql: `{ meeting(id: "${MEETING}") { summary { meetingId } } }` },
  "enterprise.dataQuery": { input: { question: "totals" }, graphql: '{ dataQuery(question: "totals") { answer } }' },
  "enterprise.invoices": { input: { limit: 2 }, graphql: "{ invoices(first: 2) { edges { node { id } } } }" },
  "workflows.run": { input: { id: "wf_invoice_reminder" }, graphql: 'mutation { runWorkflow(id: "wf_invoice_reminder") { runId } }' },
};

async function callOn(surface: OperationSurface, name: OperationName): Promise<void> {
  const op = operations[name];
  const how = calls[name];
  if (surface === "graphql") {
    const files = name === "files.upload" ? { file: new File(["hi"], "t.txt", { type: "text/plain" }) } : undefined;
    const query = name === "files.upload" ? "mutation ($file: Upload!) { uploadFile(file: $file) { id } }" : how.graphql!;
    const { body } = await graphqlFetch(env.gateway.url, { query, ...(files ? { files } : {}) }, { token: env.token });
    expect(body.errors, `${name} over GraphQL`).toBeUndefined();
  } else if (surface === "trpc") {
    const client = trpcClient(env.gateway.url, { token: env.token }) as unknown as Record<
      string,
      Record<string, { query(i: unknown): Promise<unknown>; mutate(i: unknown): Promise<unknown> }>
    >;
    const [namespace, procedure] = name.split(".") as [string, string];
    let input = how.input;
    if ("trpcFormData" in op && op.trpcFormData) {
      const form = new FormData();
      form.append("file", new Blob(["hi"], { type: "text/plain" }), "t.txt");
      input = form;
    }
    const target = client[namespace]![procedure]!;
    await (op.kind === "query" ? target.query(input) : target.mutate(input));
  } else if (surface === "mcp") {
    const client = new Client({ name: "operations-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${env.token}` } },
      }),
    );
    try {
      await client.listTools();
      const result = (await client.callTool({ name: op.mcp!.name, arguments: how.mcp ?? (how.input as Record<string, unknown>) })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      expect(result.isError, `${op.mcp!.name}: ${result.content[0]?.text}`).toBeFalsy();
    } finally {
      await client.close();
    }
  } else {
    const response = await fetch(`${env.gateway.url}${how.rest!}`, { headers: { authorization: `Bearer ${env.token}` } });
    expect(response.status, `${name} over REST`).toBe(200);
    await response.arrayBuffer();
  }
}

describe("every operation is reachable on every surface it names", () => {
  // The env is this block's: the checks above need no gateway.
  beforeAll(async () => {
    env = await startProductsEnv();
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

  const rows = operationNames.flatMap((name) => operations[name].surfaces.map((surface) => [name, surface] as const));
  it.each(rows)("%s on %s", async (name, surface) => {
    await callOn(surface, name);
    expect(ran, `${name} on ${surface}`).toContain(name);
  });
});
