// The GraphQL fields of the operation table (src/services/operations/): each field a row's `graphql`
// spec names resolves by running that row through the service's one runner
// (`services.operations.run`), so its credential check, validation, errors and DataLoaders are the
// other surfaces'. What is GraphQL's own is done here, the same way for every field: null arguments
// are absent (a JSON argument's null is a value), an Upload is handed over as the File it is, a
// connection pages over the operation's limit/cursor (connection.ts), a Boolean field answers true
// once the operation succeeded, and `pick` answers with one field of the output.
import { getNamedType, isInputObjectType, type GraphQLField, type GraphQLInputType, type GraphQLResolveInfo } from "graphql";
import { isGatewayError, GatewayError } from "../src/core/errors.ts";
import { operationsOn, type GraphqlFieldSpec, type OperationName } from "../src/services/operations/index.ts";
import { checkFirst, toConnection, upstreamConnection } from "./connection.ts";
import type { GraphQLContext } from "./context.ts";
import { orNull } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

export type { EveryDerivedFieldFits } from "./operations-fit.ts";

type Values = Record<string, unknown>;

// JSON arguments (their null is the caller's value, not an absent argument), per schema field and
// per field's `input` type, worked out on the field's first call.
const jsonArgs = new WeakMap<GraphQLField<unknown, unknown>, ReadonlySet<string>>();
const jsonInputFields = new WeakMap<GraphQLField<unknown, unknown>, ReadonlySet<string>>();

const jsonNamed = (defs: readonly { name: string; type: GraphQLInputType }[]) =>
  new Set(defs.filter((def) => getNamedType(def.type).name === "JSON").map((def) => def.name));

function fieldOf(info: GraphQLResolveInfo): GraphQLField<unknown, unknown> {
  const field = info.parentType.getFields()[info.fieldName];
  if (!field) throw new Error(`${info.parentType.name}.${info.fieldName} is not in the schema`);
  return field;
}

function jsonOf(info: GraphQLResolveInfo, ofInput: boolean): ReadonlySet<string> {
  const field = fieldOf(info);
  const cache = ofInput ? jsonInputFields : jsonArgs;
  let names = cache.get(field);
  if (!names) {
    const type = ofInput ? field.args.find((arg) => arg.name === "input")?.type : undefined;
    const named = type && getNamedType(type);
    names = ofInput ? jsonNamed(named && isInputObjectType(named) ? Object.values(named.getFields()) : []) : jsonNamed(field.args);
    cache.set(field, names);
  }
  return names;
}

/** GraphQL values as the operation's input: what the caller sent, nulls absent except a JSON argument's. */
function present(values: Values, json: ReadonlySet<string>): Values {
  const input: Values = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || (value === null && !json.has(key))) continue;
    input[key] = value;
  }
  return input;
}

/** A paging error in GraphQL's own words: `after` and `first`, not the operation's `cursor` and `limit`. */
function inGraphqlWords(error: unknown): unknown {
  if (!isGatewayError(error) || error.code !== "BAD_USER_INPUT") return error;
  const message = error.message.replace(/^cursor\b/, "after").replace(/^limit\b/, "first");
  return message === error.message ? error : new GatewayError("BAD_USER_INPUT", message, { details: error.details, cause: error });
}

type Run = (input: Values) => Promise<unknown>;

/** A connection over `run`: an upstream list's positional cursors, or the list's own (spec.connection). */
async function connection(spec: GraphqlFieldSpec, parent: unknown, args: Values, info: GraphQLResolveInfo, run: Run): Promise<unknown> {
  const { first, after, ...others } = args as Values & { first?: number | null; after?: string | null };
  const passed = present(others, jsonOf(info, false));
  const own = spec.connection;
  if (!own) {
    return upstreamConnection(
      { first, after },
      (cursor, limit) =>
        run({ ...passed, limit, ...(cursor ? { cursor } : {}) }) as Promise<{ data: unknown[]; nextCursor: string | null }>,
    );
  }
  const page = (await run({
    ...passed,
    ...(first == null ? {} : { limit: checkFirst(first) }),
    ...(after == null ? {} : { cursor: after }),
  }).catch((error: unknown) => Promise.reject(inGraphqlWords(error)))) as Values & { nextCursor: string | null };
  const node = own.node as ((item: unknown, parent: unknown) => unknown) | undefined;
  const items = (page[own.items] as unknown[]).map((item) => (node ? node(item, parent) : item));
  return toConnection({ items, cursorOf: own.cursorOf as (item: unknown) => string, nextCursor: page.nextCursor });
}

type FieldResolver = (parent: unknown, args: Values, context: GraphQLContext, info: GraphQLResolveInfo) => Promise<unknown>;

/** The resolver of one field an operation backs. */
function derived(name: OperationName, spec: GraphqlFieldSpec): FieldResolver {
  const fromParent = spec.fromParent as ((parent: unknown) => Values) | undefined;
  return async (parent, args, { services, request }, info) => {
    const ctx = await request();
    const run: Run = (input) => services.operations.run(name, ctx, fromParent ? { ...input, ...fromParent(parent) } : input);
    if (spec.args === "connection") return connection(spec, parent, args, info, run);
    const input = spec.args === "input" ? present(args["input"] as Values, jsonOf(info, true)) : present(args, jsonOf(info, false));
    const result = spec.nullWhenNotFound ? orNull(run(input)) : run(input);
    if (getNamedType(info.returnType).name === "Boolean") return result.then(() => true);
    return spec.pick ? result.then((output) => (output === null ? null : (output as Values)[spec.pick as string])) : result;
  };
}

// That every row on GraphQL names its fields, each in the SDL and backed by one row, and every
// root field of the SDL by a row, is test/products/operations.test.ts's to check; that each fits
// its field's generated type is operations-fit.ts's (npm run typecheck).
function buildOperationResolvers(): Resolvers {
  const byType: Record<string, Record<string, FieldResolver>> = {};
  for (const [name, op] of operationsOn("graphql")) {
    for (const spec of op.graphql ?? []) {
      const [type, field] = spec.field.split(".") as [string, string];
      (byType[type] ??= {})[field] = derived(name, spec);
    }
  }
  return byType as Resolvers;
}

export const operationResolvers: Resolvers = buildOperationResolvers();
