// The linear footnote_tail (src/documents/render/footnote-tail.ts) against markdown-it-footnote's
// own rule: the same tokens for the same markdown; and a document of 15,000 footnotes renders with
// every note in footnotes.xml and every reference in the body (the quadratic rule took most of the
// 30 s render deadline on it; the time is measured by `npx tsx bench/footnotes.ts`, not here).
import MarkdownIt from "markdown-it";
import footnote from "markdown-it-footnote";
import { describe, expect, it } from "vitest";
import { footnoteTail } from "../../../src/documents/render/footnote-tail.ts";
import { footnoteDocument } from "../../fixtures/gen-shapes.ts";
import { part, render } from "./docx.ts";

function parsers(): { plugin: MarkdownIt; linear: MarkdownIt } {
  const plugin = new MarkdownIt().use(footnote as unknown as (md: MarkdownIt) => void);
  const linear = new MarkdownIt().use(footnote as unknown as (md: MarkdownIt) => void);
  linear.core.ruler.at("footnote_tail", footnoteTail);
  return { plugin, linear };
}

/** Every token as plain data, children included (the class instances compared by content). */
const plain = (tokens: unknown): unknown => JSON.parse(JSON.stringify(tokens));

const CASES = {
  "references and definitions": "One[^a] and two[^b].\n\n[^a]: First.\n[^b]: Second, *with* `code`.\n",
  "a note referenced twice, an inline note, an unused one": "A[^x] B[^x] C^[inline **note**].\n\n[^x]: X.\n\n[^unused]: Never.\n",
  "a definition with paragraphs, a list and code":
    "Ref[^long].\n\n[^long]: First paragraph.\n\n    Second paragraph.\n\n    - item\n    - item\n\n        code\n",
  "an undefined reference stays text": "Missing[^nope] here.\n",
  "a definition nested in another": "A[^outer] B[^inner]\n\n[^outer]: Outer\n    [^inner]: Inner\n",
  "a definition inside a list and a quote": "- item[^l]\n\n  [^l]: In a list.\n\n> quote[^q]\n>\n> [^q]: In a quote.\n",
  "no footnotes at all": "# Title\n\nPlain text.\n",
  "many notes": footnoteDocument(200),
};

describe("footnoteTail: markdown-it-footnote's footnote_tail without the copy per note", () => {
  const { plugin, linear } = parsers();
  it.each(Object.entries(CASES))("%s: the same tokens as the plugin's rule", (_, markdown) => {
    const env = () => ({});
    expect(plain(linear.parse(markdown, env()))).toEqual(plain(plugin.parse(markdown, env())));
  });
});

describe("15,000 footnotes", () => {
  it("renders every note into footnotes.xml and every reference into the body, in order", { timeout: 120_000 }, async () => {
    const count = 15_000;
    const parts = await render(footnoteDocument(count));
    const references = [...parts.document.matchAll(/<w:footnoteReference w:id="(\d+)"\/>/g)].map((m) => Number(m[1]));
    expect(references).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    const notes = await part(parts.zip, "word/footnotes.xml");
    const texts = [...notes.matchAll(/<w:footnote [^>]*w:id="(\d+)"[^>]*>[\s\S]*?<\/w:footnote>/g)]
      .map((m) => [Number(m[1]), /Note \d\./.exec(m[0])?.[0]] as const)
      .filter(([id]) => id > 0);
    expect(texts).toHaveLength(count);
    expect(texts[0]).toEqual([1, "Note 1."]);
    expect(texts[count - 1]).toEqual([count, "Note 0."]);
    expect(texts.every(([id, text]) => text === `Note ${id % 10}.`)).toBe(true);
    // The body's text has the paragraphs' words and no [^label].
    expect(parts.text.split("\n\n")).toEqual(Array.from({ length: count / 10 }, () => "A A A A A A A A A A"));
    expect(parts.text).not.toContain("[^");
  });
});
