// Every variable the gateway reads (src/core/config.ts) is documented where docs/deploy.md sends a
// reader for "every variable": a row of the README's configuration table, or docs/configuration.md.
// A variable added to the schema without a row fails here, not in an operator's hands.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/core/config.ts";
import { root } from "../helpers/process.ts";

const read = (path: string) => readFileSync(join(root, path), "utf8");
const backticked = (text: string) => new Set([...text.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));

/** The rows of the README's "## Configuration" table (its section, up to the next "## "). */
function readmeTableRows(): string {
  const readme = read("README.md");
  const start = readme.indexOf("\n## Configuration\n");
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf("\n## ", start + 1);
  return readme
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .join("\n");
}

describe("configuration variables", () => {
  const variables = Object.keys(configSchema.shape);

  it("every one is in the README's table or docs/configuration.md", () => {
    const documented = new Set([...backticked(readmeTableRows()), ...backticked(read("docs/configuration.md"))]);
    expect(variables.length).toBeGreaterThan(50);
    expect(variables.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("docs/deploy.md's Configuration points at that table", () => {
    const deploy = read("docs/deploy.md");
    const section = deploy.slice(deploy.indexOf("\n## Configuration\n"));
    expect(section).toMatch(/\(\.\.\/README\.md#configuration\)/);
  });
});
