// Every variable the gateway reads (src/core/config.ts) is documented where docs/deploy.md sends a
// reader for "every variable": a row of docs/configuration.md's table ("Every variable"), or its prose.
// A variable added to the schema without a row fails here, not in an operator's hands.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/core/config.ts";
import { root } from "../helpers/process.ts";

const read = (path: string) => readFileSync(join(root, path), "utf8");
const backticked = (text: string) => new Set([...text.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));

/** The rows of docs/configuration.md's "## Every variable" table (its section, up to the next "## "). */
function tableRows(): string {
  const page = read("docs/configuration.md");
  const start = page.indexOf("\n## Every variable\n");
  expect(start).toBeGreaterThan(0);
  const end = page.indexOf("\n## ", start + 1);
  return page
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .join("\n");
}

describe("configuration variables", () => {
  const variables = Object.keys(configSchema.shape);

  it("every one is in docs/configuration.md: a row of its table, or its prose", () => {
    const documented = new Set([...backticked(tableRows()), ...backticked(read("docs/configuration.md"))]);
    expect(variables.length).toBeGreaterThan(50);
    expect(variables.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("docs/deploy.md's Configuration and the README point at that table", () => {
    const deploy = read("docs/deploy.md");
    const section = deploy.slice(deploy.indexOf("\n## Configuration\n"));
    expect(section).toMatch(/\(configuration\.md#every-variable\)/);
    expect(read("README.md")).toMatch(/\(docs\/configuration\.md#every-variable\)/);
  });
});
