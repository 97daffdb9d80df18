// docs/api.md's reference tables are generated from the code (scripts/docs-api.regions.ts): the
// OpenAPI document, the printed SDL, the tRPC router and the MCP tools. This fails when a route,
// root field, procedure or tool changed and `npm run docs:api` was not run, so the file cannot drift.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generators, regenerate } from "../../scripts/docs-api.regions.ts";

const markdown = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");

describe("docs/api.md generated regions", () => {
  it.each(Object.keys(generators))("region %s is current (else run `npm run docs:api`)", (name) => {
    const region = new RegExp(`<!-- generated:${name} -->\\n([\\s\\S]*?)<!-- /generated:${name} -->`).exec(markdown);
    expect(region, `docs/api.md has a <!-- generated:${name} --> region`).not.toBeNull();
    expect(region![1]).toBe(`\n${generators[name]!()}\n\n`);
  });

  it("rewriting the file changes nothing", () => {
    expect(regenerate(markdown)).toBe(markdown);
  });

  it("an unknown region is an error, not a table left frozen", () => {
    expect(() => regenerate(`${markdown}\n<!-- generated:nope -->\nx\n<!-- /generated:nope -->\n`)).toThrow(
      /no generator for region "nope"/,
    );
  });

  it("the tables add no fenced code block (the examples test would run it) and no link (the links test would resolve it)", () => {
    for (const generate of Object.values(generators)) {
      const text = generate();
      expect(text).not.toMatch(/^(```|~~~)/m);
      expect(text).not.toMatch(/\]\(/);
    }
  });
});
