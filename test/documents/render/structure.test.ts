// Block structure the CommonMark examples and the README corpus found wrong, read back as blocks
// (./docx-blocks.ts): each case is the fix's own regression test.
import { describe, expect, it } from "vitest";
import { renderDocument } from "../../../src/documents/render/index.ts";
import { showBlock } from "./blocks.ts";
import { docxBlocks } from "./docx-blocks.ts";

const blocks = async (markdown: string) => (await docxBlocks((await renderDocument(markdown, { title: "t" })).docx)).map(showBlock);

describe("block structure", () => {
  it("a list as an item's first block: the outer marker comes first, on a paragraph of its own", async () => {
    expect(await blocks("- - foo\n")).toEqual(["p d1 •: ", "p d2 •: foo"]);
    expect(await blocks("1. - 2. foo\n")).toEqual(["p d1 1.: ", "p d2 •: ", "p d3 2.: foo"]);
  });

  it("a heading or code block in a quote keeps the quote's indent", async () => {
    expect(await blocks("> # Foo\n> bar\n")).toEqual(["h1 d1: Foo", "p q d1: bar"]);
    expect(await blocks("> ```\n> code\n> ```\n")).toEqual(["code d1: code"]);
  });

  it("an HTML list in a table cell: one line per item, with its number or bullet", async () => {
    const html = "<table><tr><td><ol><li>one</li><li>two</li></ol></td><td><ul><li>a</li></ul></td></tr></table>\n";
    expect(await blocks(html)).toEqual(["cell d0: 1. one 2. two", "cell d0: • a"]);
  });

  it("<pre><code>: a newline after <code> is content, only one right after <pre> is not", async () => {
    expect(await blocks("<pre><code>\nx\n</code></pre>\n")).toEqual(["code d0: ", "code d0: x"]);
    expect(await blocks("<pre>\nx\n</pre>\n")).toEqual(["code d0: x"]);
  });
});
