// The public surface, read off the code as it serves: every operation of the table and what each
// surface makes of it (the tRPC procedures, the MCP tools, the GraphQL root fields, the REST routes
// of the running app and the OpenAPI paths). `npm run surface` writes it to docs/surface.json;
// test/operations/surface.test.ts fails when the file is stale, and the tests that need a list of
// tools, procedures, fields or paths read that one file instead of keeping a copy of their own.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { loadTypeDefs } from "../resolvers/sdl.ts";
import { loadConfig } from "../src/core/config.ts";
import { createGateway } from "../src/gateway.ts";
import { toolDescriptors } from "../src/mcp/tools.ts";
import { buildOpenApiDocument } from "../src/rest/openapi.ts";
import { operationNames, operationOf } from "../src/services/operations/index.ts";
import { appRouter } from "../src/trpc/router.ts";

export const SURFACE_FILE = new URL("../docs/surface.json", import.meta.url);

/** One row of the operation table as the surfaces show it. */
export interface OperationSurface {
  kind: "query" | "mutation";
  auth: string;
  trpc: boolean;
  mcp?: string;
  /** The GraphQL fields it backs ("Type.field"). */
  graphql?: string[];
  /** Those of its fields that answer null for NOT_FOUND (resolvers/nullable.ts). */
  nullWhenNotFound?: string[];
  rest?: string;
  upload?: string;
}

export interface PublicSurface {
  operations: Record<string, OperationSurface>;
  /** Procedure name → query or mutation. */
  trpc: Record<string, string>;
  /** Tool name → its annotations' read-only hint. */
  mcp: Record<string, { readOnly: boolean }>;
  /** The root fields the SDL declares ("Query.documents"). */
  graphql: string[];
  /** "METHOD /path" of every route the HTTP app serves; ALL: a mount (a surface, or a route group's middleware). */
  rest: string[];
  /** OpenAPI path → its methods. */
  openapi: Record<string, string[]>;
}

function operationsSurface(): Record<string, OperationSurface> {
  const rows: Record<string, OperationSurface> = {};
  for (const name of operationNames) {
    const op = operationOf(name);
    rows[name] = {
      kind: op.kind,
      auth: op.auth,
      trpc: op.trpc !== false,
      ...(op.mcp ? { mcp: op.mcp.name } : {}),
      ...(op.graphql ? { graphql: op.graphql.map((spec) => spec.field) } : {}),
      ...(op.graphql?.some((spec) => spec.nullWhenNotFound)
        ? { nullWhenNotFound: op.graphql.filter((spec) => spec.nullWhenNotFound).map((spec) => spec.field) }
        : {}),
      ...(op.rest ? { rest: `${op.rest.method} ${op.rest.path}` } : {}),
      ...(op.upload ? { upload: op.upload.field } : {}),
    };
  }
  return rows;
}

function graphqlSurface(): string[] {
  const schema = makeExecutableSchema({ typeDefs: loadTypeDefs() });
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  return roots.flatMap((type) => (type ? Object.keys(type.getFields()).map((field) => `${type.name}.${field}`) : [])).sort();
}

/** The routes of the app a default configuration builds (an embedded store in a folder of its own, removed after). */
async function restSurface(): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-surface-"));
  try {
    const gateway = await createGateway(loadConfig({ DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "silent" }), { tracingEnv: {} });
    try {
      return routesOf(gateway.app.routes);
    } finally {
      await gateway.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Hono's route list holds each handler and middleware; the surface is the method-specific routes
 * and the mounts (ALL on a path no method-specific route has, not a `/*` tail): the 405 answers
 * and middleware repeats are not routes a caller chooses.
 */
function routesOf(routes: readonly { method: string; path: string }[]): string[] {
  const specific = new Set(routes.filter((route) => route.method !== "ALL").map((route) => route.path));
  const kept = routes.filter((route) => route.method !== "ALL" || (!specific.has(route.path) && !route.path.endsWith("/*")));
  return [...new Set(kept.map((route) => `${route.method} ${route.path}`))].sort();
}

function openapiSurface(): Record<string, string[]> {
  const paths = buildOpenApiDocument("0").paths ?? {};
  return Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((path) => [path, Object.keys(paths[path] ?? {}).sort()]),
  );
}

/** The public surface now, from the code. */
export async function publicSurface(): Promise<PublicSurface> {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return {
    operations: operationsSurface(),
    trpc: Object.fromEntries(
      Object.keys(procedures)
        .sort()
        .map((name) => [name, procedures[name]!._def.type]),
    ),
    mcp: Object.fromEntries(toolDescriptors.map((tool) => [tool.name, { readOnly: tool.annotations?.readOnlyHint === true }])),
    graphql: graphqlSurface(),
    rest: await restSurface(),
    openapi: openapiSurface(),
  };
}

/** The file's text: JSON with one entry a line, so adding an operation shows as a few added lines. */
export function surfaceText(surface: PublicSurface): string {
  const sections = Object.entries(surface).map(([name, value]) => {
    const entries = Array.isArray(value)
      ? value.map((item) => `    ${JSON.stringify(item)}`)
      : Object.entries(value as Record<string, unknown>).map(([key, item]) => `    ${JSON.stringify(key)}: ${JSON.stringify(item)}`);
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    return `  ${JSON.stringify(name)}: ${open}\n${entries.join(",\n")}\n  ${close}`;
  });
  return `{\n${sections.join(",\n")}\n}\n`;
}
