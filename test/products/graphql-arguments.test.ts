// GraphQL's arguments as a product operation's input, one rule for every derived field
// (resolvers/products.ts): a null argument, or a null field of an `input` object, is absent
// upstream; a JSON argument's null is the caller's value and reaches the product as null.
import { expect, it } from "vitest";
import { graphqlFetch, newRequestId, onlyRequest, useProductsEnv } from "./harness.ts";

const env = useProductsEnv();

/** Runs one document and returns the one upstream request it made. */
async function upstreamOf(query: string, variables: Record<string, unknown> = {}) {
  const requestId = newRequestId("arguments");
  const { body } = await graphqlFetch(env().gateway.url, { query, variables }, { token: env().token, requestId });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return onlyRequest(env().sandbox, { token: env().token, requestId });
}

it("null arguments are absent: messages(folder: null, q: null) asks for the page alone", async () => {
  const seen = await upstreamOf("{ messages(folder: null, q: null, first: 2) { edges { node { id } } } }");
  expect(seen.query).toEqual({ limit: "2" });
});

it("null fields of an input object are absent: sendMessage sends no cc, html or threadId", async () => {
  const seen = await upstreamOf("mutation ($input: SendMessageInput!) { sendMessage(input: $input) { id } }", {
    input: { to: ["a@example.com"], cc: null, subject: "s", body: "b", html: null, threadId: null },
  });
  expect(seen.body).toEqual({ to: ["a@example.com"], subject: "s", body: "b" });
});

it("a JSON argument's null is a value: runWorkflow(input: null) passes null, no input passes none", async () => {
  const withNull = await upstreamOf('mutation { runWorkflow(id: "wf_invoice_reminder", input: null) { runId } }');
  expect(withNull.body).toEqual({ input: null });
  await env().sandbox.reset();
  const without = await upstreamOf('mutation { runWorkflow(id: "wf_invoice_reminder") { runId } }');
  expect(without.body).toEqual({});
});
