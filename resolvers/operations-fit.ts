// Each derived field gives what the generated resolver types say it must: the table's literal
// field coordinates against resolvers/types.generated.ts. `npm run typecheck` fails on a row whose
// output, or whose fromParent, does not fit its field, naming the field.
import type { OperationName, Operations } from "../src/services/operations/index.ts";
import type { ServiceOperation } from "../src/services/runner.ts";
import type { Connection } from "./connection.ts";
import type { Resolvers } from "./types.generated.ts";

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
type ItemsOf<P, K> = K extends keyof P ? (P[K] extends readonly (infer T)[] ? T : never) : never;
/** What the derived resolver of spec S answers for operation N. */
type Answer<N extends OperationName, S> = S extends { args: "connection"; connection: { node: unknown } }
  ? // A node made from the item and its parent is checked by the node function's own types.
    Connection<unknown> & FieldResult<S extends { field: infer C } ? C : never>
  : S extends { args: "connection"; connection: { items: infer K } }
    ? Connection<ItemsOf<Output<N>, K>>
    : S extends { args: "connection" }
      ? Connection<Item<Output<N>>>
      : S extends { pick: infer K }
        ? K extends keyof Output<N>
          ? Output<N>[K]
          : never
        : S extends { nullWhenNotFound: true }
          ? Output<N> | null
          : Output<N>;
type Fits<N extends OperationName, S> = S extends { field: infer C }
  ? [FieldResolverType<C>] extends [never]
    ? { field: C; error: "not a field of the generated Resolvers" }
    : [FieldResult<C>] extends [boolean]
      ? true // A Boolean field answers true once the operation succeeded.
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
