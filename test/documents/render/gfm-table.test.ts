// The compact table rule (src/documents/render/gfm-table.ts) must find the same tables, rows and
// cells as markdown-it's own rule, and parse the same cells inline.
import MarkdownIt, { type Token } from "markdown-it";
import { describe, expect, it } from "vitest";
import type { GfmTable } from "../../../src/documents/render/gfm-table.ts";
import { parseMarkdown } from "../../../src/documents/render/markdown.ts";

const stock = new MarkdownIt("default", { html: true, linkify: true });

/** Each table as its alignments and rows of cell text, from markdown-it's own tokens. */
function stockTables(markdown: string) {
  const tables: { aligns: (string | undefined)[]; rows: string[][]; lines: [number, number] }[] = [];
  let aligns: (string | undefined)[] = [];
  let inTable = false;
  for (const token of stock.parse(markdown, {})) {
    const table = inTable ? tables[tables.length - 1] : undefined;
    inTable = (inTable || token.type === "table_open") && token.type !== "table_close";
    if (token.type === "table_open") tables.push({ aligns: (aligns = []), rows: [], lines: token.map as [number, number] });
    else if (token.type === "tr_open") table!.rows.push([]);
    else if (token.type === "th_open") aligns.push(/text-align:(\w+)/.exec(token.attrGet("style") ?? "")?.[1]);
    else if (token.type === "inline" && table) table.rows[table.rows.length - 1]!.push(token.content);
  }
  return tables;
}

function compactTables(markdown: string) {
  const tokens = parseMarkdown(markdown);
  return tokens
    .map((token, i) => ({ token, i }))
    .filter(({ token }) => token.type === "gfm_table")
    .map(({ token, i }) => {
      const meta = token.meta as GfmTable;
      const columns = meta.aligns.length;
      // The inline tokens after the table hold exactly the cells listed in meta.inline.
      meta.inline.forEach((at, k) => expect(tokens[i + 1 + k]!.content).toBe(meta.rows[Math.floor(at / columns)]![at % columns]));
      return {
        aligns: meta.aligns,
        rows: meta.rows,
        lines: token.map as [number, number],
        inline: tokens.slice(i + 1, i + 1 + meta.inline.length),
      };
    });
}

const CASES = [
  "| a | b |\n|---|:-:|\n| 1 | 2 |",
  "a | b\n--|--\n1 | 2 | 3\n4",
  "| a \\| b | `c | d` |\n|:--|--:|\n| `x \\| y` | e\\\\|",
  "| a |\n|---|\n| [link](http://x.y) **b** |\n| www.example.com |\n| :smile: [^1] |\n\n[^1]: note",
  "|a|b|\n|-|-|\n|1|2|\n> quote ends it\n",
  "text\n| a | b |\n|---|---|\n| c | d |\n\nafter",
  "| a | b |\n|---|\n| c | d |",
  "  | a |\n  |---|\n      | indented |\n",
  "- | in | list |\n  |----|------|\n  | x  | y    |\n",
  "| a |\n| - |\n|\n",
  "|a|\n|:-|\n|<b>html</b>|\n|&amp; &lt;x&gt;|\n|a-b|",
];

describe("GFM tables as one token", () => {
  it.each(CASES)("has markdown-it's cells: %j", (markdown) => {
    const expected = stockTables(markdown);
    const actual = compactTables(markdown);
    expect(actual.map(({ aligns, rows, lines }) => ({ aligns, rows, lines }))).toEqual(expected);
  });

  it("parses only cells with inline syntax, in document order", () => {
    const [table] = compactTables(CASES[3]!);
    expect(table!.inline.map((token: Token) => token.content)).toEqual(["[link](http://x.y) **b**", "www.example.com", ":smile: [^1]"]);
    expect(table!.inline[1]!.children!.map((child) => child.type)).toContain("link_open");
    expect(table!.inline[2]!.children!.map((child) => child.type)).toContain("footnote_ref");
  });
});
