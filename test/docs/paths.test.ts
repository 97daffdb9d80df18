// The docs name files, and a named file must be there: every `src/…`, `test/…`, `bench/…`,
// `scripts/…` (and `resolvers/…`, `adapters/…`, `schema/…`, `examples/…`, `packages/…`, `docs/…`)
// path in a code span of README.md or docs/*.md exists in the repository, or is what a command
// writes (a path git ignores: test/artifacts/, packages/*/dist-pack/). A file moved or renamed
// without its docs fails here (issue 39: docs/observability.md named two files long gone).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

const ROOTS = ["src", "test", "bench", "scripts", "resolvers", "adapters", "schema", "examples", "packages", "docs"];
const pathLike = new RegExp(`^(?:\\./)?((?:${ROOTS.join("|")})/[\\w./@+-]*)`);

/** The repository paths named in a markdown text's code spans (fenced blocks are commands, not names), with their lines. */
export function namedPaths(markdown: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  const lines = markdown.split("\n");
  let fenced = false;
  lines.forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const [, span] of text.matchAll(/`([^`]+)`/g)) {
      for (const token of span!.split(/\s+/)) {
        // A placeholder or a pattern names no one file: `src/services/operations/<product>.ts`, `test/**/*.ts`.
        if (/[<>*{}…$]/.test(token)) continue;
        const match = pathLike.exec(token);
        // `src/http/app.ts:42` and `docs/api.md#errors` name the file; a trailing comma or period is prose.
        const path = match?.[1]?.replace(/[.,;:]+$/, "");
        if (path) found.push({ path, line: index + 1 });
      }
    }
  });
  return found;
}

const files = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Paths git ignores: outputs a command writes (benches' artifacts, packed tarballs), never committed. */
function ignored(paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    return new Set(
      execFileSync("git", ["check-ignore", "--no-index", "--stdin"], { cwd: root, input: paths.join("\n"), encoding: "utf8" }).split("\n"),
    );
  } catch (error) {
    // Exit 1: none of them is ignored.
    if ((error as { status?: number }).status === 1) return new Set();
    throw error;
  }
}

describe("file paths named in the docs", () => {
  const named = files.flatMap((file) => namedPaths(readFileSync(join(root, file), "utf8")).map((at) => ({ file, ...at })));
  const missing = named.filter(({ path }) => !existsSync(join(root, path)));
  const outputs = ignored([...new Set(missing.map(({ path }) => path))]);

  it("there are paths to check", () => {
    expect(named.length).toBeGreaterThan(100);
  });

  it("every one exists, or is a command's output that git ignores", () => {
    expect(missing.filter(({ path }) => !outputs.has(path)).map(({ file, line, path }) => `${file}:${line} ${path}`)).toEqual([]);
  });

  it("reads a path out of a code span, with its line, and not out of a fenced block or a placeholder", () => {
    const text =
      "See `src/http/nope.ts:12`, `npx tsx bench/gone.ts 5` and `src/a/<name>.ts`.\n```sh\ncat src/fenced.ts\n```\n`test/x.test.ts`.";
    expect(namedPaths(text)).toEqual([
      { path: "src/http/nope.ts", line: 1 },
      { path: "bench/gone.ts", line: 1 },
      { path: "test/x.test.ts", line: 5 },
    ]);
    expect(existsSync(join(root, "src/http/nope.ts"))).toBe(false);
  });
});
