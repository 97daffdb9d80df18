// The tRPC procedures (docs/api.md "tRPC"), derived from the operation table
// (src/services/operations/): each row offered on tRPC is one procedure at its name, a query or a
// mutation as the row says, running the service's one runner. Inputs are typed by the rows' zod
// schemas and validated by the runner, after authentication (see unvalidated). A row with an
// upload also takes FormData (multipart, streamed to disk first: ./surface.ts).
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import { GatewayError } from "../core/errors.ts";
import type { OperationDef, OperationName, Operations } from "../services/operations/index.ts";
import { operationsOn, type AnyOperation } from "../services/operations/index.ts";
import { formInput } from "../uploads/form-input.ts";
import { procedure, unvalidated, type TrpcContext } from "./init.ts";

/** An upload row's input: FormData always works; JSON too when the file is optional. */
function uploadInput(name: string, op: AnyOperation, input: unknown): unknown {
  if (input instanceof FormData) return formInput(input, op);
  if (op.upload?.optional) return input;
  throw new GatewayError("BAD_USER_INPUT", `${name} takes FormData (multipart/form-data) with a file part`);
}

// ---- types: the table as tRPC procedures, so AppRouter's client types are the table's -----------

type TrpcNames = { [N in OperationName]: Operations[N] extends { trpc: false } ? never : N }[OperationName];
type Namespace<N> = N extends `${infer A}.${string}` ? A : never;
type ProcedureName<N, A extends string> = N extends `${A}.${infer P}` ? P : never;

type InputOf<D> =
  D extends OperationDef<infer I, z.ZodType, "query" | "mutation">
    ? D extends { upload: { optional: true; field: infer F extends string } }
      ? Omit<z.input<I>, F> | FormData // JSON carries no file
      : D extends { upload: object }
        ? FormData
        : D extends { optionalInput: true }
          ? z.input<I> | undefined | void
          : z.input<I>
    : never;
type OutputOf<D> = D extends OperationDef<z.ZodType, infer O, "query" | "mutation"> ? z.output<O> : never;
type ProcedureOf<D> = D extends { kind: "mutation" }
  ? TRPCMutationProcedure<{ input: InputOf<D>; output: OutputOf<D>; meta: object }>
  : TRPCQueryProcedure<{ input: InputOf<D>; output: OutputOf<D>; meta: object }>;

export type OperationProcedures = {
  [A in Namespace<TrpcNames>]: { [N in TrpcNames as ProcedureName<N, A>]: ProcedureOf<Operations[N]> };
};

// ---- the procedures --------------------------------------------------------------------------

/** What a procedure of the table runs, given its context and raw input. */
export type TableResolver = (ctx: TrpcContext, input: unknown) => Promise<unknown>;

function buildProcedures(): { procedures: OperationProcedures; queries: ReadonlyMap<string, TableResolver> } {
  const routers: Record<string, Record<string, unknown>> = {};
  const queries = new Map<string, TableResolver>();
  for (const [name, op] of operationsOn("trpc")) {
    const [namespace, path] = name.split(".") as [string, string];
    const built = procedure.input(unvalidated(op.input));
    const run: TableResolver = async (ctx, input) => {
      const request = await ctx.request();
      return ctx.services.operations.run(name, request, op.upload ? uploadInput(name, op, input) : input);
    };
    const resolve = ({ ctx, input }: { ctx: TrpcContext; input: unknown }) => run(ctx, input);
    if (op.kind === "query" && !op.upload) queries.set(name, run);
    (routers[namespace] ??= {})[path] = op.kind === "query" ? built.query(resolve) : built.mutation(resolve);
  }
  return { procedures: routers as unknown as OperationProcedures, queries };
}

const built = buildProcedures();
export const operationProcedures: OperationProcedures = built.procedures;
/**
 * The table's queries by path, each what its procedure resolves to: between them and the resolver
 * the procedure adds only the error middleware (init.ts) and a pass-through input parser, and tRPC
 * copies the context and result objects at each step (~7% of a query's CPU in bench:gateway), so
 * ./single-query.ts calls these directly and maps errors with the middleware's own function.
 */
export const tableQueries: ReadonlyMap<string, TableResolver> = built.queries;
