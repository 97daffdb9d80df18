// The committed public surface (docs/surface.json, `npm run surface`): the one list of tools,
// procedures, root fields, routes and OpenAPI paths the tests compare a running gateway against.
// test/operations/surface.test.ts keeps the file equal to what the code serves.
import { readFileSync } from "node:fs";
import type { PublicSurface } from "../../scripts/surface.snapshot.ts";

export const surface = JSON.parse(readFileSync(new URL("../../docs/surface.json", import.meta.url), "utf8")) as PublicSurface;

/** Every MCP tool, in the table's order. */
export const allTools: readonly string[] = Object.keys(surface.mcp);

/** The read-only tools: what MCP_TOOLS=read-only offers. */
export const readOnlyTools: readonly string[] = allTools.filter((name) => surface.mcp[name]!.readOnly);

/** Every tRPC procedure, the viewer among them. */
export const trpcProcedures: readonly string[] = Object.keys(surface.trpc);

/** Every path of the OpenAPI document. */
export const openapiPaths: readonly string[] = Object.keys(surface.openapi);

/** The operations forwarded to a product with the caller's access token. */
export const productOperations: readonly string[] = Object.keys(surface.operations).filter(
  (name) => surface.operations[name]!.auth === "access_token",
);
