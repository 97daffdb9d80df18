// The package is distributed, so what it installs must be under a permissive licence: MIT, Apache,
// BSD, ISC and their kin. Checked over package-lock.json's production packages (not dev tools):
// @apollo/subgraph before 2.15, for one, pulls @apollo/federation-internals under the Elastic
// License 2.0 — a downgrade that looks harmless would ship it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

const permissive = new Set(["MIT", "Apache-2.0", "ISC", "BSD", "BSD-2-Clause", "BSD-3-Clause", "0BSD", "Zlib", "Python-2.0"]);
/** Packages whose package.json names no licence; their LICENSE file is the MIT text (read below). */
const mitByFile = new Set(["node_modules/busboy", "node_modules/streamsearch"]);

/** Whether an SPDX expression allows use under permissive terms: some alternative of an OR, every part of an AND. */
function allowed(expression: string): boolean {
  const bare = expression.replace(/^\((.*)\)$/, "$1").trim();
  if (bare.includes(" OR ")) return bare.split(" OR ").some((part) => allowed(part));
  if (bare.includes(" AND ")) return bare.split(" AND ").every((part) => allowed(part));
  return permissive.has(bare);
}

interface LockEntry {
  license?: string;
  dev?: boolean;
  version?: string;
}

describe("licences of what the package installs", () => {
  it("every production dependency in package-lock.json is under a permissive licence", async () => {
    const lock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path || entry.dev) continue;
      if (!entry.license && mitByFile.has(path)) {
        expect(await readFile(join(root, path, "LICENSE"), "utf8"), path).toMatch(/Permission is hereby granted, free of charge/);
        continue;
      }
      if (!entry.license || !allowed(entry.license)) refused.push(`${path}@${entry.version}: ${entry.license ?? "no licence"}`);
    }
    expect(refused).toEqual([]);
  });

  it("the rule refuses copyleft and source-available licences, and takes a permissive alternative", () => {
    expect(allowed("Elastic-2.0")).toBe(false);
    expect(allowed("GPL-3.0-or-later")).toBe(false);
    expect(allowed("(MIT OR GPL-3.0-or-later)")).toBe(true);
    expect(allowed("(MIT AND Zlib)")).toBe(true);
    expect(allowed("(MIT AND GPL-2.0)")).toBe(false);
  });
});
