// The product fields, derived from the operation table (src/services/operations.ts): each field a
// row's `graphql` spec names resolves by running that row through the service's one runner
// (`services.products.run`), so its validation, errors and DataLoaders are the other surfaces'.
// What is GraphQL's own is done here, the same way for every field: null arguments are absent
// (a JSON argument's null is a value), an Upload is the bytes plus their name, type and size,
// and a connection pages over the operation's limit/cursor (connection.ts).
import { getNamedType, isInputObjectType, type GraphQLField, type GraphQLInputType, type GraphQLResolveInfo } from "graphql";
import type { GraphQLContext } from "./context.ts";
import { operationsOn, type GraphqlFieldSpec, type OperationName, type Operations } from "../src/services/operations.ts";
import type { Meeting, ServiceOperation } from "../src/services/products.ts";
import { upstreamConnection, type Connection } from "./connection.ts";
import { orNull } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

/** meeting(id) knows only the id; createMeeting knows everything. */
export type MeetingParent = Pick<Meeting, "id"> & Partial<Meeting>;

type Values = Record<string, unknown>;

/** Which of a field's arguments (or of its `input` argument's fields) GraphQL hands over specially. */
interface Shape {
  /** JSON scalars: their null is the caller's value, not an absent argument. */
  json: ReadonlySet<string>;
  /** Upload scalars: a File, whose bytes, name, type and size the operation takes apart. */
  uploads: ReadonlySet<string>;
}

function shapeOf(defs: readonly { name: string; type: GraphQLInputType }[]): Shape {
  const named = (scalar: string) => new Set(defs.filter((def) => getNamedType(def.type).name === scalar).map((def) => def.name));
  return { json: named("JSON"), uploads: named("Upload") };
}

// One shape per schema field (and per `input` type), worked out on the field's first call.
const argShapes = new WeakMap<GraphQLField<unknown, unknown>, Shape>();
const inputShapes = new WeakMap<GraphQLField<unknown, unknown>, Shape>();

function fieldOf(info: GraphQLResolveInfo): GraphQLField<unknown, unknown> {
  const field = info.parentType.getFields()[info.fieldName];
  if (!field) throw new Error(`${info.parentType.name}.${info.fieldName} is not in the schema`);
  return field;
}

function argShape(info: GraphQLResolveInfo): Shape {
  const field = fieldOf(info);
  let shape = argShapes.get(field);
  if (!shape) argShapes.set(field, (shape = shapeOf(field.args)));
  return shape;
}

function inputShape(info: GraphQLResolveInfo): Shape {
  const field = fieldOf(info);
  let shape = inputShapes.get(field);
  if (!shape) {
    const type = field.args.find((arg) => arg.name === "input")?.type;
    const named = type && getNamedType(type);
    inputShapes.set(field, (shape = shapeOf(named && isInputObjectType(named) ? Object.values(named.getFields()) : [])));
  }
  return shape;
}

/**
 * The upload's bytes for the service: a native File as is; yoga's ponyfill File (not a Blob to
 * the service's checks) as its byte stream plus its name, type and size.
 */
function uploadSource(key: string, upload: File): Values {
  if (upload instanceof Blob) return { [key]: upload };
  const file: Pick<File, "stream" | "name" | "type" | "size"> = upload;
  return {
    [key]: file.stream(),
    ...(file.name ? { filename: file.name } : {}),
    ...(file.type ? { contentType: file.type } : {}),
    size: file.size,
  };
}

/** GraphQL values as the operation's input: what the caller sent, uploads taken apart. */
function present(values: Values, shape: Shape): Values {
  const input: Values = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || (value === null && !shape.json.has(key))) continue;
    if (shape.uploads.has(key)) Object.assign(input, uploadSource(key, value as File));
    else input[key] = value;
  }
  return input;
}

type FieldResolver = (parent: unknown, args: Values, context: GraphQLContext, info: GraphQLResolveInfo) => Promise<unknown>;

/** The resolver of one field an operation backs. */
function derived(name: OperationName, spec: GraphqlFieldSpec): FieldResolver {
  const fromParent = spec.fromParent as ((parent: unknown) => Values) | undefined;
  return async (parent, args, { services, request }, info) => {
    const ctx = await request();
    const run = (input: Values) => services.products.run(name, ctx, fromParent ? { ...input, ...fromParent(parent) } : input);
    if (spec.args === "connection") {
      const { first, after, ...others } = args as Values & { first?: number | null; after?: string | null };
      const passed = present(others, argShape(info));
      return upstreamConnection(
        { first, after },
        (cursor, limit) =>
          run({ ...passed, limit, ...(cursor ? { cursor } : {}) }) as Promise<{ data: unknown[]; nextCursor: string | null }>,
      );
    }
    const input = spec.args === "input" ? present(args["input"] as Values, inputShape(info)) : present(args, argShape(info));
    return spec.nullWhenNotFound ? orNull(run(input)) : run(input);
  };
}

// ---- types: each derived field gives what the generated resolver types say it must ---------------
// (the table's literal field coordinates against resolvers/types.generated.ts; `npm run typecheck`
// fails on a row whose output, or whose fromParent, does not fit its field)

type FieldResolverType<C> = C extends `${infer T}.${infer F}`
  ? T extends keyof Resolvers
    ? F extends keyof NonNullable<Resolvers[T]>
      ? Extract<NonNullable<NonNullable<Resolvers[T]>[F]>, (...args: never[]) => unknown>
      : never
    : never
  : never;
/** What a field's resolver may answer, and the parent it gets. */
type FieldResult<C> = Awaited<ReturnType<FieldResolverType<C>>>;
type FieldParent<C> = Parameters<FieldResolverType<C>>[0];

type Output<N extends OperationName> = Awaited<ReturnType<ServiceOperation<Operations[N]>>>;
type Item<P> = P extends { data: readonly (infer T)[] } ? T : never;
/** What the derived resolver of spec S answers for operation N. */
type Answer<N extends OperationName, S> = S extends { args: "connection" }
  ? Connection<Item<Output<N>>>
  : S extends { nullWhenNotFound: true }
    ? Output<N> | null
    : Output<N>;
type Fits<N extends OperationName, S> = S extends { field: infer C }
  ? [FieldResolverType<C>] extends [never]
    ? { field: C; error: "not a field of the generated Resolvers" }
    : [Answer<N, S>] extends [FieldResult<C>]
      ? S extends { fromParent(parent: infer P): unknown }
        ? [FieldParent<C>] extends [P]
          ? true
          : { field: C; error: "fromParent does not take the field's parent" }
        : true
      : { field: C; error: "the operation's output is not the field's type" }
  : never;
type SpecsOf<N extends OperationName> = NonNullable<Operations[N]["graphql"]>[number];
type Misfits = { [N in OperationName]: Exclude<Fits<N, SpecsOf<N>>, true> }[OperationName];
/** `true` when every derived field fits; else the misfits, each with its field and what is wrong. */
type DerivedFieldsFit = [Misfits] extends [never] ? true : Misfits;
type Fitting<T extends true> = T;
/** Compiles only while every derived field fits: the error names the misfits. */
export type EveryDerivedFieldFits = Fitting<DerivedFieldsFit>;

// That every row on GraphQL names its fields, each in the SDL and backed by one row, and every
// product field of the SDL by a row, is test/products/operations.test.ts's to check.
function buildProductResolvers(): Resolvers {
  const byType: Record<string, Record<string, FieldResolver>> = {};
  for (const [name, op] of operationsOn("graphql")) {
    for (const spec of op.graphql ?? []) {
      const [type, field] = spec.field.split(".") as [string, string];
      (byType[type] ??= {})[field] = derived(name, spec);
    }
  }
  return byType as Resolvers;
}

export const productResolvers: Resolvers = buildProductResolvers();
