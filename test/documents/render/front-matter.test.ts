// YAML front matter (src/documents/render/front-matter.ts): what counts as front matter, how its
// values read, and that a document without it renders as before (a leading rule stays a rule).
import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "../../../src/documents/render/front-matter.ts";
import { mammothText, paragraphText, render, styleOf } from "./docx.ts";

describe("splitFrontMatter", () => {
  it("takes a YAML mapping between --- lines: its keys and values in order, its title, the body after it", () => {
    const front = splitFrontMatter('---\ntitle: "Latency"\nweight: 20\ndraft: false\nempty:\n---\n# Body\n');
    expect(front).toEqual({
      rows: [
        ["title", "Latency"],
        ["weight", "20"],
        ["draft", "false"],
        ["empty", ""],
      ],
      title: "Latency",
      body: "# Body\n",
    });
  });

  it("lists of scalars are comma-separated; deeper values in YAML's flow style", () => {
    const front = splitFrontMatter("---\ntags: [a, b, 3]\nauthor:\n  name: Ada\n  links: [x, y]\nsteps:\n  - run: make\n---\n");
    expect(front?.rows).toEqual([
      ["tags", "a, b, 3"],
      ["author", "{ name: Ada, links: [x, y] }"],
      ["steps", "[{ run: make }]"],
    ]);
    expect(front?.title).toBeUndefined();
  });

  it("closes on ... too, and reads CRLF files and a byte-order mark", () => {
    expect(splitFrontMatter("---\r\ntitle: T\r\n...\r\nbody")).toMatchObject({ title: "T", body: "body" });
    expect(splitFrontMatter("\uFEFF---\ntitle: 7\n---\n")).toMatchObject({ title: "7", body: "" });
  });

  it("is not front matter unless it is a non-empty mapping that parses, closed, at the very start", () => {
    for (const markdown of [
      "---\n\nJust a rule, then a paragraph.\n\n---\n", // a string, not a mapping
      "---\n- a\n- b\n---\n", // a list
      "---\n---\ntext", // empty
      "---\ntitle: [unclosed\n---\n", // invalid YAML
      "---\ntitle: never closed\n", // no closing line
      "text\n---\ntitle: x\n---\n", // not at the start
      " ---\ntitle: x\n---\n", // indented
    ])
      expect(splitFrontMatter(markdown), JSON.stringify(markdown)).toBeUndefined();
  });

  it("aliases are expanded but bounded (no billion laughs)", () => {
    const laughs = `---\na: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `${"b".repeat(i + 1)}: &l${i} [${`*${i === 0 ? "a" : `l${i - 1}`}, `.repeat(10).slice(0, -2)}]`).join("\n")}\n---\n`;
    expect(splitFrontMatter(laughs)).toBeUndefined();
  });
});

describe("rendered front matter", () => {
  it("a leading rule that is not front matter stays a rule, and its text a paragraph", async () => {
    const parts = await render("---\n\nJust a rule, then a paragraph.\n");
    expect(parts.paragraphs[0]).toContain("<w:pBdr>");
    expect(paragraphText(parts.paragraphs[1]!)).toBe("Just a rule, then a paragraph.");
  });

  it("the table's text is the document's, and the name is the title when front matter has none", async () => {
    const parts = await render("---\nlayout: post\n---\n\n# Heading\n", "Named");
    expect(parts.text).toBe("layout\n\npost\n\nHeading");
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.core).toContain("<dc:title>Named</dc:title>");
    expect(styleOf(parts.paragraphs[2]!)).toBe("Heading1");
  });
});
