// The generated regions of docs/api.md, built from the code that defines each surface, so the
// reference cannot drift from it: `npm run docs:api` writes them, test/docs/api-reference.test.ts
// fails when they are stale. Tables only (no fenced blocks: test/docs/readme-examples.test.ts
// would try to run them, and no links: test/docs/links.test.ts would have to resolve them).
import { readFileSync } from "node:fs";
import { Kind, parse, print, type ObjectTypeDefinitionNode } from "graphql";
import { buildOpenApiDocument } from "../src/rest/openapi.ts";
import { appRouter } from "../src/trpc/router.ts";
import { tools } from "../src/mcp/tools.ts";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** A table cell's text: pipes would split the cell, newlines would end the row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
const code = (text: string) => `\`${text}\``;
const row = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
const table = (header: string[], rows: string[][]) => [row(header), `|${header.map(() => "---").join("|")}|`, ...rows.map(row)].join("\n");
const yesNo = (value: boolean) => (value ? "yes" : "no");

/** The REST routes: every path and method of the OpenAPI document, with its scope and status codes. */
export function restRoutes(): string {
  const doc = buildOpenApiDocument("docs");
  const rows: string[][] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const summary = op.summary ?? "";
      // The scope is stated in each summary ("(scope docs:read)"); `security: []` means no credential.
      const scope = /\(scope (\w+:\w+)\)/.exec(summary)?.[1];
      const needs = scope
        ? code(scope)
        : op.security?.length === 0
          ? "none"
          : /access token/.test(summary)
            ? "an access token"
            : "a credential";
      rows.push([`${code(`${method.toUpperCase()} ${path}`)}`, needs, summary, Object.keys(op.responses ?? {}).join(", ")]);
    }
  }
  return table(["route", "needs", "summary", "status codes"], rows);
}

/** Query and Mutation root fields of the printed SDL, with their arguments, types and descriptions. */
export function graphqlRootFields(sdl = readFileSync(new URL("../schema/schema.graphql", import.meta.url), "utf8")): string {
  const roots = parse(sdl).definitions.filter(
    (d): d is ObjectTypeDefinitionNode =>
      d.kind === Kind.OBJECT_TYPE_DEFINITION && (d.name.value === "Query" || d.name.value === "Mutation"),
  );
  // Query first, as readers look for reads before writes.
  roots.sort((a, b) => (a.name.value === "Query" ? -1 : b.name.value === "Query" ? 1 : 0));
  const rows = roots.flatMap((root) =>
    (root.fields ?? []).map((f) => [
      code(`${root.name.value}.${f.name.value}`),
      (f.arguments ?? [])
        .map((a) => code(`${a.name.value}: ${print(a.type)}${a.defaultValue ? ` = ${print(a.defaultValue)}` : ""}`))
        .join(", ") || "—",
      code(print(f.type)),
      f.description?.value ?? "",
    ]),
  );
  return table(["root field", "arguments", "type", "description"], rows);
}

/** Every tRPC procedure of appRouter, grouped by its first path segment, as queries and mutations. */
export function trpcProcedures(): string {
  const groups = new Map<string, { query: string[]; mutation: string[] }>();
  // At run time _def.procedures is flat ("documents.list" → procedure); its type is the nested record.
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  for (const [path, proc] of Object.entries(procedures)) {
    const group = path.includes(".") ? path.slice(0, path.indexOf(".")) : "(root)";
    const kinds = groups.get(group) ?? { query: [], mutation: [] };
    if (proc._def.type === "query" || proc._def.type === "mutation") kinds[proc._def.type].push(code(path));
    groups.set(group, kinds);
  }
  const rows = [...groups].map(([group, k]) => [group, k.query.join(", ") || "—", k.mutation.join(", ") || "—"]);
  return table(["namespace", "queries (GET or POST)", "mutations (POST)"], rows);
}

/** Every MCP tool with the operation behind it (its tRPC name) and its annotations. */
export function mcpTools(): string {
  const rows = tools.map((t) => {
    const a = t.annotations;
    return [
      code(t.name),
      t.title,
      code(t.operation),
      yesNo(a.readOnlyHint),
      yesNo(a.destructiveHint),
      yesNo(a.idempotentHint),
      yesNo(a.openWorldHint),
    ];
  });
  return table(["tool", "title", "operation (tRPC)", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"], rows);
}

export const generators: Record<string, () => string> = {
  "rest-routes": restRoutes,
  "graphql-root-fields": graphqlRootFields,
  "trpc-procedures": trpcProcedures,
  "mcp-tools": mcpTools,
};

const REGION = /(<!-- generated:([\w-]+) -->\n)[\s\S]*?(<!-- \/generated:\2 -->)/g;

/**
 * `markdown` with every `<!-- generated:NAME -->…<!-- /generated:NAME -->` region rewritten.
 * An unknown name, or a generator without its region, is an error: a renamed marker must not
 * leave a table silently frozen.
 */
export function regenerate(markdown: string): string {
  const seen = new Set<string>();
  const out = markdown.replace(REGION, (_all, open: string, name: string, close: string) => {
    const generate = generators[name];
    if (!generate) throw new Error(`docs/api.md: no generator for region "${name}" (known: ${Object.keys(generators).join(", ")})`);
    seen.add(name);
    // Blank lines around the table: GitHub ends a table at a blank line, not at a comment.
    return `${open}\n${generate()}\n\n${close}`;
  });
  const missing = Object.keys(generators).filter((n) => !seen.has(n));
  if (missing.length > 0) throw new Error(`docs/api.md: no region for ${missing.join(", ")}`);
  return out;
}
