// Issue 26 point 7: `npm test` is unit and in-process integration; `npm run test:system` the suites
// of test/system-tests.ts. Checked here: the two configurations split the files between them, a
// test file that installs packages or drives PgBouncer, a browser or the demo process is in the
// system list, and CI and the README run and name both.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemTests } from "../system-tests.ts";
import { notInNpmTest } from "../../vitest.config.ts";
import systemConfig from "../../vitest.system.config.ts";
import { root } from "../helpers/process.ts";

const testFiles = async () =>
  (await readdir(join(root, "test"), { recursive: true })).filter((f) => f.endsWith(".test.ts")).map((f) => `test/${f}`);

/** The files the patterns match: a path, or `dir/**\/*.test.ts` (the only two forms the list uses). */
async function files(patterns: readonly string[]): Promise<string[]> {
  const all = await testFiles();
  const matches = (file: string, pattern: string) =>
    pattern.endsWith("/**/*.test.ts") ? file.startsWith(pattern.slice(0, -"**/*.test.ts".length)) : file === pattern;
  return all.filter((file) => patterns.some((pattern) => matches(file, pattern))).sort();
}

describe("the test split", () => {
  it("the default configuration leaves out every system suite; the system one runs exactly them", async () => {
    expect(notInNpmTest).toEqual(expect.arrayContaining(systemTests));
    expect(systemConfig.test?.include).toEqual(systemTests);
    const system = await files(systemTests);
    // Every pattern names files that exist (a renamed file must not fall out of both suites).
    for (const pattern of systemTests) expect((await files([pattern])).length, pattern).toBeGreaterThan(0);
    expect(system.length).toBeGreaterThanOrEqual(20);
  });

  it("a test file that installs or packs packages, starts the demo, a browser or PgBouncer, or needs an external program, is a system suite", async () => {
    const system = new Set(await files(systemTests));
    const heavy = /npm", \["(install|pack|ci)"|playwright|chromium|pgbouncer|scripts\/demo\.ts|soffice|requireProgram\(/;
    // This file, which names the words it looks for, and the external-program helper's own unit test.
    const mixed = new Set(["test/lint/test-split.test.ts", "test/helpers/external.test.ts"]);
    const misplaced: string[] = [];
    for (const file of await testFiles()) {
      if (file.startsWith("test/faults/") || system.has(file) || mixed.has(file)) continue;
      if (heavy.test(await readFile(join(root, file), "utf8"))) misplaced.push(file);
    }
    expect(misplaced).toEqual([]);
  });

  it("CI runs npm test, then npm run test:system, and the README says which is which", async () => {
    const ci = await readFile(join(root, ".ci/run"), "utf8");
    const commands = ci.split("\n").filter((line) => /^npm (test|run test:)/.test(line));
    // Everything on the newest Node.js LTS, then npm test again on the floor (test/lint/runtime-versions.test.ts).
    expect(commands).toEqual(["npm test", "npm run test:system", "npm run test:faults", "npm test"]);
    const readme = await readFile(join(root, "README.md"), "utf8");
    expect(readme).toMatch(/^npm test {2,}# .*unit/m);
    expect(readme).toMatch(/^npm run test:system +# /m);
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts["test:system"]).toBe("vitest run --config vitest.system.config.ts");
  });
});
