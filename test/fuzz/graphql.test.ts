// GraphQL fuzzing, generated from the schema: random root fields of Query and Mutation, their
// arguments as literals or variables of the right type and of wrong ones (missing, extra,
// mistyped), random selection sets (sometimes on a scalar, empty, or naming a field that does
// not exist), and some raw garbage documents. The gateway (with the sandbox upstream) must answer
// every one in the GraphQL contract: a known extensions.code on each error, never INTERNAL, no 5xx
// but the documented upstream ones.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isInterfaceType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyValue, checkGraphQLAnswer, fuzzParams, nastyString, startFuzzEnv, type FuzzEnv } from "./harness.ts";

const schema = buildSchema(readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));

let env: FuzzEnv;
beforeAll(async () => {
  env = await startFuzzEnv();
});
afterAll(() => env?.close());

// ---- values -----------------------------------------------------------------------------------

/** A JS value of a scalar: plausible when `valid`, else sometimes at the edges or beyond them. */
function scalarValue(name: string, valid: boolean): fc.Arbitrary<unknown> {
  if (valid) {
    switch (name) {
      case "Int":
        return fc.integer({ min: 1, max: 50 });
      case "DateTime":
        return fc.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
      case "ID":
        return fc.constantFrom("f1", "t1", "m1", "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A", "bt_intro30", "wf_onboard", "s1");
      case "String":
        return fc.oneof(
          fc.constantFrom("budget", "inbox", "renewal terms", "a@example.com", "Q3"),
          fc.string({ minLength: 1, maxLength: 12 }),
        );
      default:
        break;
    }
  }
  switch (name) {
    case "Int":
      return fc.oneof(fc.integer({ min: -3, max: 120 }), fc.constantFrom(0, 1, 100, 101, 2 ** 31 - 1, -(2 ** 31)));
    case "Float":
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case "Boolean":
      return fc.boolean();
    case "ID":
      return fc.oneof(
        fc.constantFrom("f1", "t1", "m1", "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A", "bt_intro30", "wf_onboard", "s1"),
        nastyString(20),
      );
    case "DateTime":
      return fc.oneof(
        fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom("2026-12-01T10:00:00Z", "2026-13-01T00:00:00Z", "yesterday", "", "2026-12-01"),
      );
    case "JSON":
      return fc.jsonValue({ maxDepth: 2 });
    default:
      return nastyString(30);
  }
}

/**
 * A value of the input type. `valid`: of the right type throughout (the service may still refuse
 * it); otherwise wrong now and then (another kind of value, null, an unknown enum value or field).
 */
function inputValue(type: GraphQLInputType, valid: boolean, depth = 0): fc.Arbitrary<unknown> {
  const right = rightValue(type, valid, depth);
  if (valid) return right;
  return fc.oneof({ arbitrary: right, weight: 6 }, { arbitrary: anyValue, weight: 1 }, { arbitrary: fc.constant(null), weight: 1 });
}

function rightValue(type: GraphQLInputType, valid: boolean, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return rightValue(type.ofType, valid, depth);
  if (isListType(type)) return fc.array(inputValue(type.ofType, valid, depth + 1), { maxLength: 3 });
  if (isEnumType(type)) {
    const values = fc.constantFrom(...type.getValues().map((v) => v.name));
    return valid ? values : fc.oneof({ arbitrary: values, weight: 5 }, { arbitrary: fc.constant("NOT_A_VALUE"), weight: 1 });
  }
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant({});
    const fields = Object.values(type.getFields());
    const record = fc.record(Object.fromEntries(fields.map((f) => [f.name, inputValue(f.type, valid, depth + 1)])), {
      requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
    });
    return valid ? record : record.chain((r) => fc.constantFrom<Record<string, unknown>>(r, r, r, { ...r, notAField: 1 }));
  }
  if (isScalarType(type)) return scalarValue(type.name, valid);
  return anyValue;
}

/** A value as a GraphQL literal (enum values bare when the type says enum). */
function literal(value: unknown, type: GraphQLInputType | undefined): string {
  const named = type ? getNamedType(type) : undefined;
  if (value === null || value === undefined) return "null";
  if (typeof value === "string")
    return named && isEnumType(named) && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "0";
  if (typeof value === "boolean") return String(value);
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, inner && isListType(inner) ? inner.ofType : undefined)).join(", ")}]`;
  const fields = named && isInputObjectType(named) ? named.getFields() : {};
  return `{ ${Object.entries(value as Record<string, unknown>)
    .filter(([k]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(k))
    .map(([k, v]) => `${k}: ${literal(v, fields[k]?.type)}`)
    .join(", ")} }`;
}

// ---- documents --------------------------------------------------------------------------------

interface Built {
  text: string;
  variables: Record<string, unknown>;
  definitions: string[];
}

/** One field with its arguments (literals or variables) and a selection set. */
function fieldArb(field: GraphQLField<unknown, unknown>, depth: number, counter: { n: number }, valid: boolean): fc.Arbitrary<Built> {
  const args = field.args.map((arg) => {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    const modes = valid
      ? required
        ? ["literal", "variable"]
        : ["literal", "variable", "omit", "omit"]
      : ["literal", "literal", "variable", "omit", "wrongVariableType"];
    return fc
      .record({ mode: fc.constantFrom(...modes), value: inputValue(arg.type, valid) })
      .map(({ mode, value }) => ({ arg, mode, value }));
  });
  return fc
    .tuple(fc.tuple(...args), selectionArb(field.type, depth + 1, counter, valid), fc.boolean(), fc.nat(20))
    .map(([argChoices, selection, alias, extra]) => {
      const variables: Record<string, unknown> = {};
      const definitions: string[] = [...selection.definitions];
      const parts: string[] = [];
      for (const { arg, mode, value } of argChoices) {
        if (mode === "omit") continue;
        if (mode === "literal") {
          parts.push(`${arg.name}: ${literal(value, arg.type)}`);
          continue;
        }
        const name = `v${counter.n++}`;
        const declared = mode === "wrongVariableType" ? (["String", "Int!", "[ID!]", "Boolean"][extra % 4] as string) : String(arg.type);
        definitions.push(`$${name}: ${declared}`);
        if (value !== undefined) variables[name] = value;
        parts.push(`${arg.name}: $${name}`);
      }
      if (!valid && extra === 0) parts.push(`notAnArgument: 1`);
      Object.assign(variables, selection.variables);
      const head = `${alias ? `a${counter.n++}: ` : ""}${field.name}${parts.length ? `(${parts.join(", ")})` : ""}`;
      return { text: `${head}${selection.text}`, variables, definitions };
    });
}

function selectionArb(type: GraphQLOutputType, depth: number, counter: { n: number }, valid: boolean): fc.Arbitrary<Built> {
  const named: GraphQLNamedType = getNamedType(type);
  if (isLeafType(named)) {
    if (valid) return fc.constant<Built>({ text: "", variables: {}, definitions: [] });
    return fc.oneof(
      { arbitrary: fc.constant<Built>({ text: "", variables: {}, definitions: [] }), weight: 19 },
      { arbitrary: fc.constant<Built>({ text: " { id }", variables: {}, definitions: [] }), weight: 1 },
    );
  }
  if (isUnionType(named) || isInterfaceType(named)) return fc.constant<Built>({ text: " { __typename }", variables: {}, definitions: [] });
  if (!isObjectType(named)) return fc.constant<Built>({ text: "", variables: {}, definitions: [] });
  const object = named as GraphQLObjectType;
  const fields = Object.values(object.getFields());
  // Deep enough: leaves only (and sometimes nothing at all, which is a validation error).
  const usable = depth >= 4 ? fields.filter((f) => isLeafType(getNamedType(f.type))) : fields;
  const choices = usable.length > 0 ? usable : fields;
  return fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...choices), { minLength: valid ? 1 : 0, maxLength: 4, selector: (f) => f.name }),
      valid ? fc.constantFrom("", "", " __typename") : fc.constantFrom("", "", "", " __typename", " notAField"),
    )
    .chain(([picked, extra]) =>
      (picked.length === 0 ? fc.constant([] as Built[]) : fc.tuple(...picked.map((f) => fieldArb(f, depth, counter, valid)))).map(
        (built) => ({
          text: ` { ${built.map((b) => b.text).join(" ")}${extra} }`,
          variables: Object.assign({}, ...built.map((b) => b.variables)) as Record<string, unknown>,
          definitions: built.flatMap((b) => b.definitions),
        }),
      ),
    );
}

const operation = fc.tuple(fc.constantFrom("query", "query", "mutation"), fc.constantFrom(true, true, false)).chain(([kind, valid]) => {
  const root = (kind === "query" ? schema.getQueryType() : schema.getMutationType()) as GraphQLObjectType;
  // Uploads need the multipart spec; they have their own tests.
  const fields = Object.values(root.getFields()).filter((f) => !f.args.some((a) => getNamedType(a.type).name === "Upload"));
  const counter = { n: 0 };
  return fc
    .uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: 3, selector: (f) => f.name })
    .chain((picked) => fc.tuple(...picked.map((f) => fieldArb(f, 1, counter, valid))))
    .map((built) => {
      const definitions = built.flatMap((b) => b.definitions);
      const variables = Object.assign({}, ...built.map((b) => b.variables)) as Record<string, unknown>;
      const header = definitions.length ? `${kind} Fuzz(${definitions.join(", ")})` : `${kind} Fuzz`;
      return { query: `${header} { ${built.map((b) => b.text).join(" ")} }`, variables: variables as unknown };
    });
});

const garbage = fc.record({
  query: fc.oneof(
    nastyString(200),
    fc.constantFrom(
      "{",
      "{ viewer { id }",
      "query { viewer { ...F } }",
      "{ __schema { types { name } } }",
      "subscription { x }",
      "{ viewer { id } } { viewer { id } }",
      'query ($a: Int = "x") { viewer { id } }',
    ),
  ),
  variables: anyValue,
});

/** Two operations in one document, the request naming one of them (or neither). */
const twoOperations = fc.tuple(operation, operation, fc.constantFrom("Fuzz", "Other", undefined)).map(([a, b, operationName]) => ({
  query: `${a.query}\n${b.query.replace(/^(query|mutation) Fuzz/, "$1 Other")}`,
  variables: { ...(a.variables as object), ...(b.variables as object) },
  ...(operationName === undefined ? {} : { operationName }),
}));

const body = fc.oneof(
  { arbitrary: operation.map((op) => JSON.stringify(op)), weight: 8 },
  { arbitrary: twoOperations.map((op) => JSON.stringify(op)), weight: 2 },
  { arbitrary: garbage.map((g) => JSON.stringify(g)), weight: 1 },
  {
    arbitrary: fc
      .tuple(operation, fc.oneof(fc.constantFrom("Fuzz", "Other", null), anyValue), fc.oneof(fc.constant({}), anyValue))
      .map(([op, operationName, extensions]) => JSON.stringify({ ...op, operationName, extensions })),
    weight: 1,
  },
  {
    arbitrary: fc.oneof(
      anyValue.map((v) => JSON.stringify(v) ?? "null"),
      fc.constantFrom("", "{", "[]", "[{}]"),
    ),
    weight: 1,
  },
);

interface Answer {
  status: number;
  text: string;
}

async function post(text: string, authorization: string | undefined, accept = "application/graphql-response+json"): Promise<Answer> {
  const response = await fetch(`${env.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept, ...(authorization === undefined ? {} : { authorization }) },
    body: text,
  });
  return { status: response.status, text: await response.text() };
}

/** What must not change between a document's first (graphql-js) and second (compiled) execution. */
function outline(answer: Answer): string {
  const body = JSON.parse(answer.text) as {
    data?: Record<string, unknown> | null;
    errors?: { extensions?: { code?: string }; path?: unknown[] }[];
  };
  const errors = (body.errors ?? []).map((e) => `${e.extensions?.code}@${JSON.stringify(e.path ?? null)}`).sort();
  const data = body.data === undefined ? "none" : body.data === null ? "null" : Object.keys(body.data).sort().join(",");
  // When a non-null root field fails, graphql-js answers once the first error lands and may not
  // list its siblings' errors; compiled code lists them all. Either is a correct answer.
  if (body.data === null) return `${answer.status} data:null`;
  return `${answer.status} data:${data} errors:${errors.join(" ")}`;
}

describe("GraphQL fuzz", () => {
  it("answers every generated document in the GraphQL error contract, alike on its first and compiled runs", async () => {
    let answered = 0;
    let executed = 0;
    let clean = 0;
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.oneof(fc.constantFrom(1, 2), fc.nat()),
        fc.constantFrom("application/graphql-response+json", "application/json", "*/*"),
        async (text, credential, accept) => {
          const authorization = env.credentials[credential % env.credentials.length];
          const first = await post(text, authorization, accept);
          answered++;
          // Executed: resolvers ran (a data entry, even null), as opposed to refused at parse/validation.
          if (first.text.includes('"data":')) executed++;
          if (!first.text.includes('"errors"')) clean++;
          if (process.env["FUZZ_DEBUG"]) console.log(first.status, text.slice(0, 300), "=>", first.text.slice(0, 300));
          const where = `POST /graphql ${text.slice(0, 400)}`;
          checkGraphQLAnswer(first.status, first.text, where);
          // Queries run again: the same document now executes compiled (src/graphql/jit.ts).
          if (!/^\{"query":"(query|\{)/.test(text)) return;
          const second = await post(text, authorization, accept);
          checkGraphQLAnswer(second.status, second.text, `${where} (again)`);
          expect(outline(second), where).toBe(outline(first));
        },
      ),
      fuzzParams(0x6e41, 200),
    );
    // The generator must reach resolvers (and the sandbox), not only validation.
    expect(executed, `${executed} executed, ${clean} without errors, of ${answered}`).toBeGreaterThan(answered / 4);
    expect(clean).toBeGreaterThan(0);
    console.log(`GraphQL fuzz: ${answered} requests, ${executed} executed, ${clean} without errors`);
  });

  it("answers random HTTP envelopes (methods, media types, GET parameters, CSRF headers) in the contract", async () => {
    const envelope = fc.record({
      method: fc.constantFrom("GET", "GET", "POST", "POST", "PUT", "DELETE", "PATCH"),
      contentType: fc.constantFrom(
        undefined,
        "application/json",
        "application/graphql",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin1",
      ),
      accept: fc.constantFrom(
        undefined,
        "application/graphql-response+json",
        "application/json",
        "text/html",
        "text/event-stream",
        "multipart/mixed",
        "application/xml",
        "*/*;q=0",
      ),
      csrf: fc.constantFrom(undefined, "x-graphql-yoga-csrf", "apollo-require-preflight"),
      credential: fc.nat(),
      document: fc.oneof(
        operation.map((op) => op.query),
        fc.constantFrom("{ viewer { id } }", 'mutation { createDocument(input: { name: "x", markdown: "y" }) { id } }', "", "{"),
      ),
      variables: fc.oneof(
        fc.constant(undefined),
        anyValue.map((v) => JSON.stringify(v) ?? "null"),
        fc.constantFrom("{", "%", ""),
      ),
      operationName: fc.constantFrom(undefined, "Fuzz", "", "Other"),
      body: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 50 })),
    });
    await fc.assert(
      fc.asyncProperty(envelope, async (e) => {
        const params = new URLSearchParams();
        if (e.method === "GET") {
          params.set("query", e.document);
          if (e.variables !== undefined) params.set("variables", e.variables);
          if (e.operationName !== undefined) params.set("operationName", e.operationName);
        }
        const headers: Record<string, string> = {};
        if (e.contentType) headers["content-type"] = e.contentType;
        if (e.accept) headers["accept"] = e.accept;
        if (e.csrf) headers[e.csrf] = "1";
        const authorization = env.credentials[e.credential % env.credentials.length];
        if (authorization !== undefined) headers["authorization"] = authorization;
        const body = e.method === "GET" ? undefined : (e.body ?? JSON.stringify({ query: e.document, operationName: e.operationName }));
        const url = `${env.url}/graphql${e.method === "GET" ? `?${params}` : ""}`;
        const response = await fetch(url, { method: e.method, headers, ...(body === undefined ? {} : { body }) });
        const text = await response.text();
        const where = `${e.method} ${url.slice(env.url.length, 400)} ${JSON.stringify(headers)} ${body?.slice(0, 200) ?? ""}`;
        const type = response.headers.get("content-type") ?? "";
        // GraphiQL answers a browser's GET (text/html).
        if (type.includes("text/html")) {
          expect(response.status, where).toBe(200);
          return;
        }
        // An Accept naming none of the media types GraphQL answers in: 406, an empty body, and
        // an Accept header listing them (GraphQL over HTTP), since no error body would be acceptable.
        if (response.status === 406) {
          expect(text, where).toBe("");
          expect(response.headers.get("accept"), where).toContain("application/json");
          return;
        }
        // Incremental delivery formats a caller may ask for: each part is a GraphQL answer.
        let parts = [text];
        if (type.startsWith("multipart/mixed")) parts = [...text.matchAll(/\r\n\r\n(\{[^\r]*\})\r\n/g)].map((m) => m[1] as string);
        if (type.startsWith("text/event-stream")) parts = [...text.matchAll(/^data: (\{.*\})$/gm)].map((m) => m[1] as string);
        expect(parts.length, where).toBeGreaterThan(0);
        for (const part of parts) checkGraphQLAnswer(response.status, part, where);
      }),
      fuzzParams(0x6e42, 150),
    );
  });

  // Regressions the fuzzer found, with the example that showed each.
  it("an operationName the document lacks is BAD_USER_INPUT, not yoga's OPERATION_RESOLUTION_FAILURE", async () => {
    const answer = await post(JSON.stringify({ query: "query Fuzz { viewer { id } }", operationName: [] }), `Bearer ${env.apiKey}`);
    checkGraphQLAnswer(answer.status, answer.text, "operationName: []");
    expect(JSON.parse(answer.text)).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
    const other = await post(JSON.stringify({ query: "query Fuzz { viewer { id } }", operationName: "Other" }), `Bearer ${env.apiKey}`);
    expect(other.status).toBe(400);
    expect(JSON.parse(other.text)).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
  });

  it("a subscription (the schema has none) is BAD_USER_INPUT every time, not INTERNAL once compiled", async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await post(JSON.stringify({ query: "subscription { x }", variables: { a: false } }), `Bearer ${env.apiKey}`);
      checkGraphQLAnswer(answer.status, answer.text, `subscription, run ${i + 1}`);
      expect(answer.status).toBe(400);
    }
  });

  it("a GET whose variables or extensions are not JSON is BAD_USER_INPUT, not INTERNAL", async () => {
    for (const param of ["variables=%25", "variables=%7B", "extensions=%25"]) {
      const response = await fetch(`${env.url}/graphql?query=%7Bviewer%7Bid%7D%7D&${param}`, {
        headers: { authorization: `Bearer ${env.apiKey}`, accept: "application/json" },
      });
      const text = await response.text();
      checkGraphQLAnswer(response.status, text, `GET ${param}`);
      expect(response.status).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
    }
  });

  it("a body of a media type GraphQL does not read is 415 UNSUPPORTED_MEDIA_TYPE with an errors body", async () => {
    for (const type of ["text/plain", "application/xml"]) {
      const response = await fetch(`${env.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.apiKey}`, "content-type": type, accept: "application/json" },
        body: '{"query":"{ viewer { id } }"}',
      });
      const text = await response.text();
      checkGraphQLAnswer(response.status, text, `POST ${type}`);
      expect(response.status).toBe(415);
      expect(JSON.parse(text)).toMatchObject({ errors: [{ extensions: { code: "UNSUPPORTED_MEDIA_TYPE" } }] });
    }
  });

  // FUZZ_SCALE=100 found it (issue 23): {"v1": null} for an Int! was 400 on graphql-js and 200 once
  // compiled, graphql-jit coercing variables its own way (and wording its messages otherwise).
  it("variables that fail coercion are answered the same, byte for byte, on the first and compiled runs", async () => {
    const calendar =
      "query Fuzz($v1: Int!, $v2: DateTime) { calendarEvents(first: $v1, from: $v2) { edges { node { id } } pageInfo { hasNextPage } } }";
    const documents = "query Fuzz($v1: Int!, $v2: String) { documents(first: $v1, query: $v2) { edges { node { id } } } }";
    const cases = [
      [calendar, { v1: null }, env.credentials[2]],
      [calendar, { v1: 5, v2: "yesterday" }, env.credentials[2]],
      [calendar, { v1: 5, v2: null }, env.credentials[2]],
      [documents, { v1: null }, `Bearer ${env.apiKey}`],
      [documents, {}, `Bearer ${env.apiKey}`],
      [documents, { v1: "x" }, `Bearer ${env.apiKey}`],
      [documents, { v1: 2, v2: 7 }, `Bearer ${env.apiKey}`],
      [documents, { v1: 2 }, `Bearer ${env.apiKey}`],
    ] as const;
    for (const accept of ["application/json", "application/graphql-response+json", "*/*"]) {
      for (const [query, variables, authorization] of cases) {
        // A fresh document text per case and Accept: its first run is on graphql-js.
        const text = JSON.stringify({ query: `${query} # ${accept}`, variables });
        const [first, second, third] = [
          await post(text, authorization, accept),
          await post(text, authorization, accept),
          await post(text, authorization, accept),
        ];
        const where = `${accept} ${text}`;
        checkGraphQLAnswer(first!.status, first!.text, where);
        expect(second, where).toEqual(first);
        expect(third, where).toEqual(first);
      }
    }
  });

  it("a document with two operations runs the one each request names, also once compiled", async () => {
    const query = "query A { viewer { id } } query B { viewer { scopes } }";
    const run = async (operationName: string) =>
      JSON.parse((await post(JSON.stringify({ query, operationName }), `Bearer ${env.apiKey}`)).text) as {
        data: { viewer: Record<string, unknown> };
      };
    for (const name of ["A", "A", "A", "B", "B", "A"]) {
      const { data } = await run(name);
      expect(Object.keys(data.viewer), `operation ${name}`).toEqual([name === "A" ? "id" : "scopes"]);
    }
  });
});
