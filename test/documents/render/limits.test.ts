// Inputs built to hurt the renderer: nesting far past markdown-it's limit, lone surrogates, and a
// run of line endings that made the trailing-newline trim quadratic. Each keeps the document's text.
import { describe, expect, it } from "vitest";
import { MAX_NESTING } from "../../../src/documents/render/markdown.ts";
import { withoutTrailingLineEndings } from "../../../src/contract/documents.ts";
import { mammothText, render } from "./docx.ts";

describe("nesting deeper than the parser's limit keeps its text, flattened", () => {
  it.each([
    ["a list 100,000 deep", `${"- ".repeat(100_000)}hello deep world`, "hello deep world"],
    ["an ordered list 50,000 deep", `${"1. ".repeat(50_000)}ordered deep words`, "ordered deep words"],
    ["a quote 100,000 deep", `${">".repeat(100_000)} quoted deep words`, "quoted deep words"],
    ["a spaced quote 60,000 deep", `${"> ".repeat(60_000)}spaced words`, "spaced words"],
  ])("%s", async (_label, markdown, words) => {
    const parts = await render(markdown);
    expect(parts.text).toContain(words);
    // Markers past the limit are not kept as text, and the text is still mammoth's.
    expect(parts.text).not.toMatch(/(- ){3}|>>>|(1\. ){3}/);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("every paragraph and list past the limit is kept, in order", async () => {
    const deep = `${"> ".repeat(MAX_NESTING)}first words\n${"> ".repeat(MAX_NESTING)}\n${"> ".repeat(MAX_NESTING)}- second words\n\nafter the quote`;
    const parts = await render(deep);
    expect(parts.text).toMatch(/first words\n\nsecond words\n\nafter the quote$/);
  });

  it("nesting within the limit is unchanged (real lists and quotes)", async () => {
    const parts = await render("- a\n  - b\n    - c\n\n> q\n> > r");
    expect(parts.text).toBe("a\n\nb\n\nc\n\nq\n\nr");
  });
});

describe("lone UTF-16 surrogates in markdown", () => {
  it("become U+FFFD in the text and the .docx, which stays well-formed", async () => {
    const parts = await render("text \uD800 here, `code\uDC00`, [link\uD83D](https://example.com/\uD800) and ![alt\uDFFF](x.png)");
    expect(parts.text).toBe("text \uFFFD here, code\uFFFD, link\uFFFD and \u{1F5BC}\uFE0F alt\uFFFD");
    expect(parts.text).toBe(await mammothText(parts.docx));
    // No lone surrogate (the placeholder's mark is a pair).
    expect(parts.document).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("withoutTrailingLineEndings", () => {
  it("removes only the trailing run of line endings", () => {
    expect(withoutTrailingLineEndings("a\n\nb\r\n\n")).toBe("a\n\nb");
    expect(withoutTrailingLineEndings("\n\r\n")).toBe("");
    expect(withoutTrailingLineEndings("abc")).toBe("abc");
  });

  it("is linear on a long run of line endings that is not trailing (was quadratic: 40 s for 200,000)", () => {
    const markdown = `${"\n".repeat(400_000)}x`;
    expect(withoutTrailingLineEndings(markdown)).toBe(markdown);
  });
});
