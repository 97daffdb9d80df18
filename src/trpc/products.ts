// tRPC procedures for the products (docs/api.md "tRPC"), derived from the operation table
// (src/services/operations.ts): each operation offered on tRPC is one procedure at its name, a
// query or a mutation as the table says, running the service's one runner. Inputs are typed by
// the table's zod schemas and validated by the service, after authentication (see unvalidated).
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import { GatewayError } from "../core/errors.ts";
import { operationsOn, type OperationDef, type OperationName, type Operations } from "../services/operations.ts";
import { procedure, unvalidated } from "./init.ts";

const formString = (form: FormData, field: string): string | undefined => {
  const value = form.get(field);
  if (value === null) return undefined;
  if (typeof value !== "string") throw new GatewayError("BAD_USER_INPUT", `${field}: must be a text field`);
  return value;
};

/** files.upload's FormData (`file`, optional `name`, `folderId`) as the operation's input. */
function formInput(input: unknown): Record<string, unknown> {
  if (!(input instanceof FormData)) throw new GatewayError("BAD_USER_INPUT", "files.upload takes FormData (multipart/form-data)");
  const file = input.get("file");
  if (!(file instanceof Blob)) throw new GatewayError("BAD_USER_INPUT", "file: a file part is required");
  const name = formString(input, "name");
  const folderId = formString(input, "folderId");
  return { file, ...(name === undefined ? {} : { name }), ...(folderId === undefined ? {} : { folderId }) };
}

// ---- types: the table as tRPC procedures, so AppRouter's client types are the table's -----------

type TrpcNames = { [N in OperationName]: "trpc" extends Operations[N]["surfaces"][number] ? N : never }[OperationName];
type Namespace<N> = N extends `${infer A}.${string}` ? A : never;
type ProcedureName<N, A extends string> = N extends `${A}.${infer P}` ? P : never;

type InputOf<D> = D extends { trpcFormData?: true }
  ? FormData
  : D extends OperationDef<infer I, z.ZodType, "query" | "mutation">
    ? D extends { optionalInput?: true }
      ? z.input<I> | undefined | void
      : z.input<I>
    : never;
type OutputOf<D> = D extends OperationDef<z.ZodType, infer O, "query" | "mutation"> ? z.output<O> : never;
type ProcedureOf<D> = D extends { kind: "mutation" }
  ? TRPCMutationProcedure<{ input: InputOf<D>; output: OutputOf<D>; meta: object }>
  : TRPCQueryProcedure<{ input: InputOf<D>; output: OutputOf<D>; meta: object }>;

export type ProductProcedures = {
  [A in Namespace<TrpcNames>]: { [N in TrpcNames as ProcedureName<N, A>]: ProcedureOf<Operations[N]> };
};

// ---- the procedures --------------------------------------------------------------------------

function buildProductRouters(): ProductProcedures {
  const routers: Record<string, Record<string, unknown>> = {};
  for (const [name, op] of operationsOn("trpc")) {
    const [namespace, path] = name.split(".") as [string, string];
    const built = procedure.input(unvalidated(op.input));
    const resolve = async ({
      ctx,
      input,
    }: {
      ctx: {
        services: { products: { run(name: OperationName, ctx: never, input: unknown): Promise<unknown> } };
        request(): Promise<unknown>;
      };
      input: unknown;
    }) => {
      const request = await ctx.request();
      return ctx.services.products.run(name, request as never, op.trpcFormData ? formInput(input) : input);
    };
    (routers[namespace] ??= {})[path] = op.kind === "query" ? built.query(resolve) : built.mutation(resolve);
  }
  return routers as unknown as ProductProcedures;
}

export const productRouters: ProductProcedures = buildProductRouters();
