// The operation table: every operation the gateway offers, documents and products alike, one row
// each (./types.ts says what a row holds). The service runner (../runner.ts), the tRPC procedures,
// the MCP tools, the GraphQL resolvers, the REST routes and the OpenAPI document are derived from
// it; adding an operation is a row here, its service function and its SDL field
// (docs/architecture.md "Adding an operation").
import type { z } from "zod";
import { documentOperations } from "./documents.ts";
import { productOperations } from "./products.ts";
import { spreadsheetOperations } from "./spreadsheets.ts";
import { workspaceOperations } from "./workspace.ts";
import type { OperationDef } from "./types.ts";

export * from "./types.ts";

export const operations = { ...documentOperations, ...spreadsheetOperations, ...workspaceOperations, ...productOperations };

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type AnyOperation = OperationDef<z.ZodType, z.ZodType, "query" | "mutation">;

export const operationNames = Object.keys(operations) as OperationName[];

/** One operation by name, typed loosely (for the generic runner and the surfaces' loops). */
export const operationOf = (name: OperationName): AnyOperation => operations[name] as unknown as AnyOperation;

export const isOperationName = (name: string): name is OperationName => Object.hasOwn(operations, name);

/** Which surface offers a row: tRPC unless it says not, the others when the row has their spec. */
export type OperationSurface = "trpc" | "mcp" | "graphql" | "rest";
const offers: Record<OperationSurface, (op: AnyOperation) => boolean> = {
  trpc: (op) => op.trpc !== false,
  mcp: (op) => op.mcp !== undefined,
  graphql: (op) => op.graphql !== undefined,
  rest: (op) => op.rest !== undefined,
};

/** The operations offered on `surface`, in table order. */
export const operationsOn = (surface: OperationSurface): [OperationName, AnyOperation][] =>
  operationNames.filter((name) => offers[surface](operationOf(name))).map((name) => [name, operationOf(name)]);
