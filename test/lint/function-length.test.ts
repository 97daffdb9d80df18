// No function over 120 lines outside generated code (docs/architecture.md): a long factory closure
// hides its parts from readers and tools; split it along the interfaces it implements. Counted
// with the TypeScript parser over every source file of the project (tests and benches aside).
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

const LIMIT = 120;

/** The project's own source files, as git lists them. */
function sources(): string[] {
  return execFileSync("git", ["ls-files", "src", "resolvers", "adapters", "scripts", "bin"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => /\.(ts|mts|mjs|js)$/.test(file) && !file.includes(".generated."));
}

/** Every function in a file longer than LIMIT lines, with where it starts. */
export function longFunctions(file: string, text: string): { where: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { where: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const name =
        node.name && ts.isIdentifier(node.name)
          ? node.name.text
          : ts.isVariableDeclaration(node.parent)
            ? node.parent.name.getText(source)
            : "(anonymous)";
      if (lines > LIMIT) found.push({ where: `${file}:${start + 1} ${name}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function length", () => {
  it(`no function is over ${LIMIT} lines`, () => {
    const long = sources().flatMap((file) => longFunctions(file, readFileSync(`${root}/${file}`, "utf8")));
    expect(long).toEqual([]);
  });

  it("the count sees a long function (a planted one)", () => {
    const body = Array.from({ length: LIMIT + 1 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    expect(longFunctions("planted.ts", `export function planted() {\n${body}\n}\n`)).toEqual([
      { where: "planted.ts:1 planted", lines: LIMIT + 3 },
    ]);
    expect(longFunctions("short.ts", "export const f = () => 1;\n")).toEqual([]);
  });
});
