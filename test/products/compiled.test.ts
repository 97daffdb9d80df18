// A GraphQL document runs on graphql-js the first time and as graphql-jit's compiled code from its
// second execution on (src/graphql/jit.ts). Both must answer alike: the same data for every upstream (docs/api.md "Upstreams")
// case, and the same errors (message, locations, path, code) when fields fail.
import { parse, type ExecutionArgs } from "graphql";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createLogger } from "../../src/core/logger.ts";
import { buildSchema } from "../../src/graphql/schema.ts";
import { JIT_AFTER_EXECUTIONS, useJit } from "../../src/graphql/jit.ts";
import { productCases } from "./cases.ts";
import { expectOk, graphqlFetch, newRequestId, runOperation, startGatewayFor, useProductsEnv } from "./harness.ts";

const env = useProductsEnv();

const EXECUTIONS = 3;

/** Times the sandbox stamps "now" on what a mutation creates differ between executions; nothing else may. */
function withoutNow(value: unknown): unknown {
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value) && Math.abs(Date.parse(value) - Date.now()) < 300_000) return "<now>";
  if (Array.isArray(value)) return value.map(withoutNow);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNow(v)]));
  return value;
}

describe("a document's first execution and its compiled ones", () => {
  it.each(productCases.map((c) => [c.graphqlField, c] as const))("%s: the same result each time", async (_field, productCase) => {
    const results: unknown[] = [];
    for (let i = 0; i < EXECUTIONS; i++) {
      await env().sandbox.reset();
      const { op, check } = productCase.build(env().sandbox);
      const result = expectOk(
        await runOperation("graphql", env().gateway.url, op, { token: env().token, requestId: newRequestId("compiled") }),
      );
      check(result);
      results.push(withoutNow(result));
    }
    // After a reset the sandbox answers the same operation with the same data, ids included.
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
  });

  it("field errors keep their message, locations, path and code", async () => {
    // Spread over lines and columns, so a location computed wrongly shows.
    const query = `query Compiled {
  viewer { id }
  messages(first: 3) {
    edges {
      node {
        id
           thread { id subject }
      }
    }
  }
}`;
    // Every execution fails three thread reads (and their retries): on the shared gateway that
    // opens the email breaker in some runs, and the next execution would fail as a whole. This
    // compares errors, not the breaker, so its gateway keeps the breaker shut.
    const gateway = await startGatewayFor(env().sandbox, {
      UPSTREAM_BREAKER_MIN_CALLS: "1000000",
      UPSTREAM_BREAKER_CONSECUTIVE_FAILURES: "0",
    });
    onTestFinished(() => gateway.close());
    const bodies = [];
    for (let i = 0; i < EXECUTIONS; i++) {
      env().sandbox.setFaults([{ type: "status", path: "/email/v1/threads/", status: 500 }]);
      const { status, body } = await graphqlFetch(
        gateway.url,
        { query },
        { token: env().token, requestId: newRequestId("compiled-errors") },
      );
      expect(status).toBe(200);
      bodies.push(body);
    }
    const [first] = bodies;
    expect(first?.errors).toHaveLength(3);
    first?.errors?.forEach((error, i) => {
      expect(error).toMatchObject({
        locations: [{ line: 7, column: 12 }],
        path: ["messages", "edges", i, "node", "thread"],
        extensions: { code: "UPSTREAM_ERROR" },
      });
    });
    const messages = (first?.data as { messages: { edges: { node: { id: string; thread: unknown } }[] } }).messages;
    expect(messages.edges.map((e) => e.node.thread)).toEqual([null, null, null]);
    for (const body of bodies.slice(1)) expect(body).toEqual(first);
    // graphql-js serializes errors first; compiled results are put in the same order.
    for (const body of bodies) expect(Object.keys(body)).toEqual(["errors", "data"]);
  });
});

describe("useJit", () => {
  it("compiles a document only once it has been executed before", () => {
    const [jit] = useJit(createLogger("silent"));
    const schema = buildSchema();
    const executeWith = (document: ReturnType<typeof parse>) => {
      const setExecuteFn = vi.fn();
      const onExecute = jit?.onExecute as unknown as (payload: { args: ExecutionArgs; setExecuteFn: () => void }) => void;
      onExecute({ args: { schema, document }, setExecuteFn });
      return setExecuteFn.mock.calls.length > 0;
    };
    const hot = parse("{ viewer { id } }");
    const compiled = Array.from({ length: JIT_AFTER_EXECUTIONS + 2 }, () => executeWith(hot));
    expect(compiled).toEqual([...Array<boolean>(JIT_AFTER_EXECUTIONS).fill(false), true, true]);
    // The same text parsed anew is another document: yoga's parse cache is what makes them one.
    expect(executeWith(parse("{ viewer { id } }"))).toBe(false);
  });
});
