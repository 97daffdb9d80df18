// The one runner every surface calls (REST, GraphQL, tRPC, MCP): for any row of the operation
// table, the credential first (docs/api.md "Credentials"), then the input, validated with the
// row's schema, then its run function; errors leave here in the contract's vocabulary.
import type { z } from "zod";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import { JsonBody, jsonObjectOf } from "../core/json-body.ts";
import type { Principal } from "../core/principal.ts";
import { withContractErrors } from "./adapter-errors.ts";
import type { DocumentsService } from "./documents.ts";
import type { DriveReader } from "./drive-read.ts";
import type { SharedService } from "./share-links.ts";
import type { SpreadsheetsService } from "./spreadsheets/index.ts";
import type { TrashService } from "./items.ts";
import {
  operationNames,
  operationOf,
  type AnyOperation,
  type OperationDef,
  type OperationName,
  type Operations,
} from "./operations/index.ts";
import type { RunEnv } from "./operations/types.ts";
import { createProductsService, type ProductsService } from "./product-operations.ts";
import { accessTokenOf, type ProductBackend } from "./products.ts";
import { parseInput } from "./validate.ts";

/** An operation as the runner offers it: the input as callers send it, the output as its row returns it. */
export type ServiceOperation<D> =
  D extends OperationDef<infer I, infer O, "query" | "mutation"> ? (ctx: RequestContext, input: z.input<I>) => Promise<z.output<O>> : never;

type Namespace<N> = N extends `${infer A}.${string}` ? A : never;
type Procedure<N, A extends string> = N extends `${A}.${infer P}` ? P : never;

/** The table as nested methods: `operations.documents.create(ctx, input)` runs "documents.create". */
export type NamespacedOperations = {
  [A in Namespace<OperationName>]: { [N in OperationName as Procedure<N, A>]: ServiceOperation<Operations[N]> };
};

export type OperationOutput<N extends OperationName> = Awaited<ReturnType<ServiceOperation<Operations[N]>>>;

export type OperationRunner = NamespacedOperations & {
  /** Runs the operation `name` for the request. */
  run<N extends OperationName>(name: N, ctx: RequestContext, input: unknown): Promise<OperationOutput<N>>;
};

export interface RunnerDeps {
  /** Absent in harnesses that run only product operations. */
  documents?: DocumentsService;
  sheets?: SpreadsheetsService;
  shared?: SharedService;
  trash?: TrashService;
  /** A drive file's text (files.read). */
  driveReader?: DriveReader;
  products: ProductBackend;
}

/**
 * The row's credential check: who may run it (docs/api.md "Credentials, identity, scopes"). Upload
 * routes call it before a byte of the body is read.
 */
export function authorize(op: AnyOperation, ctx: RequestContext): void {
  authorizePrincipal(op, ctx.principal);
}

/**
 * Whether the credential may run the row at all (its kind and scopes; what it then reads or
 * changes is the service's to check): the MCP tools a session is offered (src/mcp/tools.ts).
 */
export function mayRun(op: AnyOperation, principal: Principal): boolean {
  try {
    authorizePrincipal(op, principal);
    return true;
  } catch {
    return false;
  }
}

function authorizePrincipal(op: AnyOperation, principal: Principal): void {
  switch (op.auth) {
    case "access_token":
      accessTokenOf(principal);
      return;
    case "share_token":
      // The token in the input is the credential; the service checks it.
      return;
    case "workspace:read":
    case "workspace:write": {
      // Either kind's scope; the service shows or changes only what the scopes allow.
      requireOwner(principal);
      const access = op.auth === "workspace:read" ? "read" : "write";
      // Neither: the answer names the documents' scope (the kind callers mean most often).
      if (!principal.scopes.has(`sheets:${access}`)) requireScope(principal, `docs:${access}`);
      return;
    }
    default:
      requireOwner(principal);
      requireScope(principal, op.auth);
  }
}

function present<T>(service: T | undefined, name: string): T {
  if (!service) throw new GatewayError("INTERNAL", `No ${name} service in this runner`);
  return service;
}

function environment(ctx: RequestContext, deps: RunnerDeps, products: ProductsService): RunEnv {
  return {
    ctx,
    get documents() {
      return present(deps.documents, "documents");
    },
    get sheets() {
      return present(deps.sheets, "spreadsheets");
    },
    get shared() {
      return present(deps.shared, "share links");
    },
    get trash() {
      return present(deps.trash, "trash");
    },
    get driveReader() {
      return present(deps.driveReader, "drive reader");
    },
    products,
  };
}

export function createOperationRunner(deps: RunnerDeps): OperationRunner {
  const products = createProductsService(deps.products);
  async function run(name: OperationName, ctx: RequestContext, input: unknown): Promise<never> {
    const op = operationOf(name);
    authorize(op, ctx);
    if (input instanceof JsonBody) {
      const body = input;
      if (op.largeJsonBody) return (await withContractErrors(() => op.largeJsonBody!(environment(ctx, deps, products), body))) as never;
      input = { ...jsonObjectOf(body.bytes), ...body.fixed };
    }
    const parsed = parseInput(op.input, input === undefined && op.optionalInput ? {} : input);
    return (await withContractErrors(() => op.run(environment(ctx, deps, products), parsed))) as never;
  }

  const nested: Record<string, Record<string, (ctx: RequestContext, input: unknown) => Promise<unknown>>> = {};
  for (const name of operationNames) {
    const [namespace, procedure] = name.split(".") as [string, string];
    (nested[namespace] ??= {})[procedure] = (ctx, input) => run(name, ctx, input);
  }
  return { ...(nested as unknown as NamespacedOperations), run: run as OperationRunner["run"] };
}
