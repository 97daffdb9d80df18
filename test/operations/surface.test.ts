// docs/surface.json is the public surface as the code serves it (scripts/surface.snapshot.ts): the
// operations, tRPC procedures, MCP tools, GraphQL root fields, HTTP routes and OpenAPI paths. The
// tests that compare a running gateway with a list read their list from it, so this is the one place
// a change to the surface shows: it fails until `npm run surface` rewrote the file.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { publicSurface, surfaceText, type PublicSurface } from "../../scripts/surface.snapshot.ts";

const committed = readFileSync(new URL("../../docs/surface.json", import.meta.url), "utf8");

describe("docs/surface.json", () => {
  let now: PublicSurface;

  it("is the surface the code serves (else run `npm run surface`)", { timeout: 60_000 }, async () => {
    now = await publicSurface();
    const stale = JSON.parse(committed) as PublicSurface;
    // Section by section, so a failure names what moved.
    for (const section of Object.keys(now) as (keyof PublicSurface)[]) expect(stale[section], section).toEqual(now[section]);
    expect(Object.keys(stale)).toEqual(Object.keys(now));
    expect(committed, "the file as `npm run surface` writes it").toBe(surfaceText(now));
  });

  it("names a row's every surface consistently: its tool is listed, its procedure routed, its fields and route served", () => {
    const surface = JSON.parse(committed) as PublicSurface;
    const routes = new Set(surface.rest);
    for (const [name, op] of Object.entries(surface.operations)) {
      expect(name in surface.trpc, `${name}: tRPC`).toBe(op.trpc);
      if (op.mcp) expect(surface.mcp[op.mcp]?.readOnly, `${name}: ${op.mcp}`).toBe(op.kind === "query");
      for (const field of op.graphql ?? []) {
        if (/^(Query|Mutation)\./.test(field)) expect(surface.graphql, `${name}: ${field}`).toContain(field);
      }
      for (const field of op.nullWhenNotFound ?? []) expect(op.graphql, `${name}: ${field}`).toContain(field);
      if (op.rest) {
        const [method, path] = op.rest.split(" ") as [string, string];
        expect(routes.has(`${method} ${path.replace(/\{(\w+)\}/g, ":$1")}`), `${name}: ${op.rest} is served`).toBe(true);
        expect(surface.openapi[path], `${name}: ${path} in OpenAPI`).toContain(method.toLowerCase());
      }
    }
  });
});
