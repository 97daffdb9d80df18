// pandoc reads the new constructs back as the structure they are (docs/api.md "Markdown to
// .docx"): raw HTML headings are headers, its links links, HTML tables tables, footnotes notes,
// CommonMark list numbering one list, and no string pandoc finds holds an HTML tag. Without
// pandoc the file is skipped (one line says so), except under CI=true (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { renderDocument } from "../../../src/documents/render/index.ts";
import { requireProgram } from "../../helpers/external.ts";

const run = promisify(execFile);
const pandoc = requireProgram("pandoc", {
  envVar: "PANDOC_PATH",
  install: "apt-get install -y pandoc",
  purpose: "the pandoc read-back test (test/documents/render/pandoc.test.ts)",
});
const fixtureDir = fileURLToPath(new URL("../../fixtures/markdown/", import.meta.url));

interface Node {
  t: string;
  c?: unknown;
}

/** Every pandoc AST node under `value`, depth first. */
function* nodes(value: unknown): Generator<Node> {
  if (Array.isArray(value)) {
    for (const item of value) yield* nodes(item);
  } else if (value && typeof value === "object") {
    const node = value as Node;
    if (typeof node.t === "string") yield node;
    if ("c" in node) yield* nodes(node.c);
    else if (!("t" in node)) for (const v of Object.values(value)) yield* nodes(v);
  }
}

/** An inline list's plain text, as pandoc's plain writer would give it. */
function plain(inlines: unknown): string {
  let out = "";
  for (const node of nodes(inlines)) {
    if (node.t === "Str") out += node.c as string;
    else if (node.t === "Space" || node.t === "SoftBreak" || node.t === "LineBreak") out += " ";
    else if (node.t === "Code") out += (node.c as [unknown, string])[1];
  }
  return out;
}

let dir = "";
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function read(fixture: string): Promise<Node[]> {
  dir ||= await mkdtemp(join(tmpdir(), "wg-pandoc-"));
  const { docx } = await renderDocument(await readFile(`${fixtureDir}${fixture}`, "utf8"), { title: fixture });
  const file = join(dir, `${fixture}.docx`);
  await writeFile(file, docx);
  const { stdout } = await run(pandoc!, ["-f", "docx", "-t", "json", file], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(stdout) as { blocks: Node[] }).blocks;
}

const TAG = /<\/?[a-z][^>]*>|<!--/i;

describe.skipIf(!pandoc)("pandoc reads the rendered .docx back", () => {
  it("raw-html: headers, links, a table, lists and no tag in any string", async () => {
    const blocks = await read("raw-html.md");
    const all = [...nodes(blocks)];
    const headers = all.filter((n) => n.t === "Header").map((n) => [(n.c as [number])[0], plain((n.c as unknown[])[2])]);
    expect(headers).toEqual([
      [1, "Zod"],
      [2, "Table of contents"],
      [3, "An HTML heading three"],
    ]);
    const links = all.filter((n) => n.t === "Link").map((n) => (n.c as [unknown, unknown, [string, string]])[2][0]);
    expect(links).toEqual(
      expect.arrayContaining([
        "https://sponsor.example.com/one",
        "https://sponsor.example.com/two",
        "https://backer.example.com",
        "https://example.com/server",
      ]),
    );
    expect(links.some((l) => l.startsWith("javascript:"))).toBe(false);
    expect(all.filter((n) => n.t === "Table")).toHaveLength(1);
    expect(all.filter((n) => n.t === "BulletList")).toHaveLength(1);
    const ordered = all.filter((n) => n.t === "OrderedList");
    expect(ordered.map((n) => (n.c as [[number]])[0][0])).toEqual([4]);
    for (const node of all) if (node.t === "Str") expect(node.c as string).not.toMatch(TAG);
    expect(all.filter((n) => n.t === "Str").map((n) => n.c as string)).not.toContain("shown");
  });

  it("footnotes: three notes, their text in them, no [^label] left", async () => {
    const all = [...nodes(await read("footnotes.md"))];
    const notes = all.filter((n) => n.t === "Note").map((n) => plain(n.c));
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain("A CommonJS build is included as well");
    expect(notes[2]).toContain("Written in place, like this.");
    for (const node of all) if (node.t === "Str") expect(node.c as string).not.toMatch(/\[\^|\^\[/);
  });

  it("list numbering: 3. 4. ⏎⏎ 1. is one ordered list starting at 3", async () => {
    const all = [...nodes(await read("list-numbering.md"))];
    const ordered = all
      .filter((n) => n.t === "OrderedList")
      .map((n) => {
        const [attrs, items] = n.c as [[number], unknown[]];
        return [attrs[0], items.length];
      });
    expect(ordered).toEqual([
      [3, 3],
      [1, 3],
      [7, 2],
      [1, 1],
    ]);
  });

  it("e-mail autolinks are mailto: links; comments are not there", async () => {
    const all = [...nodes(await read("email-and-comments.md"))];
    const links = all.filter((n) => n.t === "Link").map((n) => (n.c as [unknown, unknown, [string, string]])[2][0]);
    expect(links).toEqual(
      expect.arrayContaining([
        "mailto:tj@vision-media.ca",
        "mailto:team@example.com",
        "mailto:tj@example.net",
        "mailto:maintainer@example.com",
      ]),
    );
    for (const node of all) if (node.t === "Str") expect(node.c as string).not.toMatch(/<!--|-->|omit/);
  });
  it("code styles: inline code is Code (Verbatim Char), code blocks CodeBlock (Source Code), quotes BlockQuote (Quote)", async () => {
    const all = [...nodes(await read("code-styles.md"))];
    const code = all.filter((n) => n.t === "Code").map((n) => (n.c as [unknown, string])[1]);
    expect(code).toEqual(
      expect.arrayContaining([
        "inline code",
        "npm install",
        "npm test",
        "back`ticks",
        "<tags>",
        "renderDocument()",
        "code",
        "--flag",
        "html code",
        "Ctrl",
        "C",
        "--out",
      ]),
    );
    // A code span inside a link is still code, inside the link.
    const link = all.find((n) => n.t === "Link" && (n.c as [unknown, unknown, [string]])[2][0] === "https://example.com/api");
    expect([...nodes((link?.c as unknown[])[1])].map((n) => n.t)).toContain("Code");
    const blocks = all.filter((n) => n.t === "CodeBlock").map((n) => (n.c as [unknown, string])[1]);
    expect(blocks).toEqual(
      expect.arrayContaining([
        "const answer: number = 42;\n  indented   spaces kept",
        "an indented code block\nsecond line",
        "preformatted HTML\n  keeps its spaces",
      ]),
    );
    const quotes = all.filter((n) => n.t === "BlockQuote").map((n) => plain(n.c));
    expect(quotes.some((q) => q.includes("A quoted paragraph with code in it."))).toBe(true);
    expect(quotes.some((q) => q.includes("A nested quote."))).toBe(true);
    // No backtick reaches the text pandoc reads outside code.
    for (const node of all) if (node.t === "Str") expect(node.c as string).not.toContain("`");
  });
});
