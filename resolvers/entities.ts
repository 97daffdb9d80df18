// Federation's entity lookups (`_entities`, schema/federation.graphql): each entity type a router
// may ask for by key resolves by running the same operation as its root field, so the credential
// check, input validation, DataLoaders and error vocabulary are the other surfaces'. Another
// user's id, or one that does not exist, is null (the operation's NOT_FOUND, or its null), never
// data. Within one request each distinct id is looked up once, whatever the router sends.
import { memoize, type RequestContext } from "../src/core/context.ts";
import { GatewayError } from "../src/core/errors.ts";
import type { OperationName } from "../src/services/operations/index.ts";
import type { GraphQLContext } from "./context.ts";
import { orNull } from "./nullable.ts";

/** A representation as the router sends it: `__typename` and the key's fields. */
type Representation = { readonly __typename: string } & Readonly<Record<string, unknown>>;
type ResolveReference = (reference: Representation, context: GraphQLContext) => Promise<unknown>;

const LOOKUPS = Symbol("entity-lookups");

/** The key field's value, a non-empty string, or BAD_USER_INPUT naming the key. */
function keyOf(reference: Representation, field: string): string {
  const value = reference[field];
  if (typeof value === "string" && value !== "") return value;
  throw new GatewayError("BAD_USER_INPUT", `A ${reference.__typename} representation needs "${field}" (a non-empty string)`);
}

/** `operation` on `{id}`, once per distinct id per request; NOT_FOUND is null. */
function lookup(ctx: RequestContext, context: GraphQLContext, operation: OperationName, id: string): Promise<unknown> {
  const seen = memoize(ctx, LOOKUPS, () => new Map<string, Promise<unknown>>());
  const key = `${operation}\u0000${id}`;
  let found = seen.get(key);
  if (!found) {
    found = orNull(context.services.operations.run(operation, ctx, { id }));
    seen.set(key, found);
  }
  return found;
}

/** An entity found by its `id` through the operation behind its root field. */
const byId =
  (operation: OperationName): ResolveReference =>
  async (reference, context) =>
    lookup(await context.request(), context, operation, keyOf(reference, "id"));

/**
 * A message: the mail product has no lookup of one message, so it is found in its thread (the
 * thread's DataLoader: one upstream call per distinct thread). A thread of someone else's, or a
 * message that is not in it, is null.
 */
const messageInThread: ResolveReference = async (reference, context) => {
  const id = keyOf(reference, "id");
  const threadId = keyOf(reference, "threadId");
  const thread = (await lookup(await context.request(), context, "messages.thread", threadId)) as {
    messages: { id: string }[];
  } | null;
  return thread?.messages.find((message) => message.id === id) ?? null;
};

/** Keys declared `resolvable: false`: a router never asks; a caller who does is told why. */
const notResolvable =
  (why: string): ResolveReference =>
  async (reference) => {
    throw new GatewayError("BAD_USER_INPUT", `${reference.__typename} references are not resolved by this gateway: ${why}`);
  };

export const entityResolvers: Record<string, { __resolveReference: ResolveReference }> = {
  Document: { __resolveReference: byId("documents.get") },
  Spreadsheet: { __resolveReference: byId("sheets.get") },
  DriveFile: { __resolveReference: byId("files.get") },
  Thread: { __resolveReference: byId("messages.thread") },
  Meeting: { __resolveReference: byId("meetings.get") },
  Message: { __resolveReference: messageInThread },
  Invoice: { __resolveReference: notResolvable("the tenant's invoices can be listed, not looked up one by one") },
};
