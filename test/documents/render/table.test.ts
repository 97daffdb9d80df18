// Tables written as one XML string (src/documents/render/table.ts) must be exactly what docx
// would have written for them, and must still read back with the renderer's text.
import { ExternalHyperlink, ImageRun } from "docx";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { docxTable } from "../../../src/documents/render/docx-table.ts";
import { packBody, type BodyElement } from "../../../src/documents/render/package.ts";
import { BOLD, CODE, ITALIC, LINK, RTL, STRIKE, breakRun, textRun } from "../../../src/documents/render/runs.ts";
import { foldColumns, MAX_TABLE_COLUMNS, plainTable, rawTable, type TableInput } from "../../../src/documents/render/table.ts";
import { mammothText, render } from "./docx.ts";

async function documentXml(child: BodyElement): Promise<string> {
  const docx = await packBody([child]);
  return (await JSZip.loadAsync(docx)).file("word/document.xml")!.async("string");
}

/** document.xml with hyperlink ids numbered in order of use (docx makes them random), and the links' targets. */
async function linkedXml(child: BodyElement): Promise<{ xml: string; links: string[] }> {
  const zip = await JSZip.loadAsync(await packBody([child]));
  const rels = await zip.file("word/_rels/document.xml.rels")!.async("string");
  const targets = new Map(
    [...rels.matchAll(/Id="([^"]+)" Type="[^"]*hyperlink" Target="([^"]*)"/g)].map(([, id, target]) => [id!, target!]),
  );
  const links: string[] = [];
  const xml = (await zip.file("word/document.xml")!.async("string")).replace(/r:id="([^"]+)"/g, (all, id: string) => {
    const target = targets.get(id);
    if (target === undefined) return all;
    links.push(target);
    return `r:id="LINK${links.length}"`;
  });
  return { xml, links };
}

/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const input = (indent: number): TableInput => ({
  columnWidth: 3000,
  columns: 3,
  indent,
  rows: [
    {
      header: true,
      cells: [
        { children: [textRun("Name", BOLD)], alignment: "left" },
        { children: [textRun("Amount & <tax> \"quoted\" 'x'", BOLD | ITALIC)], alignment: "right" },
        { children: [], alignment: "center" },
      ],
    },
    { header: false, cells: [] },
    {
      header: false,
      cells: [
        { children: [textRun("a\tb\t", CODE), breakRun(), textRun("struck", STRIKE | LINK)], alignment: undefined },
        { children: [], alignment: undefined },
        { children: [textRun("\u2610 caf\u00e9 \uD83D\uDE00", 0)], alignment: "center" },
      ],
    },
  ],
});

describe("tables as one XML string", () => {
  it.each([0, 720])("equal docx's own XML byte for byte (indent %i)", async (indent) => {
    const raw = rawTable(input(indent));
    expect(raw).toBeDefined();
    expect(await documentXml(raw!)).toBe(await documentXml(docxTable(input(indent))));
  });

  it("write a table with hyperlinks and right-to-left cells as docx would, the links' targets the same", async () => {
    const table: TableInput = {
      columnWidth: 2000,
      columns: 2,
      indent: 0,
      rows: [
        {
          header: true,
          cells: [
            { children: [textRun("\u0646\u0627\u0645", BOLD | RTL)], alignment: "left", bidi: true },
            { children: [textRun("Top", BOLD)], alignment: undefined },
          ],
        },
        {
          header: false,
          cells: [
            {
              children: [
                new ExternalHyperlink({ link: "#smileys--emotion", children: [textRun("top", LINK)] }),
                textRun(" and ", 0),
                new ExternalHyperlink({ link: "https://example.com/a?b=1&c=2#part", children: [textRun("more", LINK | CODE)] }),
              ],
              alignment: "center",
            },
            { children: [textRun("\u05e9\u05dc\u05d5\u05dd", RTL)], alignment: "right", bidi: true },
          ],
        },
      ],
    };
    const raw = rawTable(table);
    expect(raw).toBeDefined();
    const [ours, theirs] = await Promise.all([linkedXml(raw!), linkedXml(docxTable(table))]);
    expect(ours.xml).toBe(theirs.xml);
    expect(ours.links).toEqual(theirs.links);
    expect(ours.xml).toContain("<w:bidi/>");
  });

  it("leave a table with an image in a cell to docx", () => {
    const image = new ImageRun({ type: "png", data: PNG, transformation: { width: 1, height: 1 } });
    const withImage: TableInput = { ...input(0), rows: [{ header: false, cells: [{ children: [image], alignment: undefined }] }] };
    expect(rawTable(withImage)).toBeUndefined();
  });

  it("fold cells past Word's 63 columns into the last one, as docx would write them", async () => {
    const cells = Array.from({ length: 100 }, (_, c) => ({ children: [textRun(`c${c}`, 0)], alignment: undefined }));
    const folded: TableInput = {
      columnWidth: 100,
      columns: MAX_TABLE_COLUMNS,
      indent: 0,
      rows: [{ header: false, cells: foldColumns(cells) }],
    };
    expect(folded.rows[0]!.cells).toHaveLength(MAX_TABLE_COLUMNS);
    expect(await documentXml(rawTable(folded)!)).toBe(await documentXml(docxTable(folded)));
  });

  it("a table wider than Word allows keeps 63 columns and every cell's text, in order", async () => {
    const markdown = `${"|h".repeat(200)}|\n${"|-".repeat(200)}|\n${Array.from({ length: 200 }, (_, c) => `|v${c}`).join("")}|\n`;
    const parts = await render(markdown);
    const xml = await (await JSZip.loadAsync(parts.docx)).file("word/document.xml")!.async("string");
    expect(xml.match(/<w:gridCol /g)).toHaveLength(MAX_TABLE_COLUMNS);
    expect(xml.match(/<w:tc>/g)).toHaveLength(2 * MAX_TABLE_COLUMNS);
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.text.split("\n\n").filter((line) => /^v\d+$/.test(line))).toEqual(Array.from({ length: 200 }, (_, c) => `v${c}`));
  });

  it("a wide table's text is mammoth's, cell by cell", async () => {
    const row = (r: number) => `|${Array.from({ length: 40 }, (_, c) => ` r${r}c${c} **b** `).join("|")}|\n`;
    const markdown = `${row(0)}|${"---|".repeat(40)}\n${Array.from({ length: 30 }, (_, r) => row(r + 1)).join("")}`;
    const parts = await render(markdown);
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.text).toContain("r30c39 b");
  });
});

describe("plain tables written from their cells' text", () => {
  // Column i's alignment; cells with and without a tab (two ways of writing a run), some empty.
  const aligns = Array.from({ length: 70 }, (_, i) => (["left", undefined, "center", "right"] as const)[i % 4]);
  // Every fifth cell right-to-left (a paragraph w:bidi, its run w:rtl), with and without a tab.
  const cells = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i % 7 === 3 ? "" : i % 5 === 1 ? `\u0633\u0644\u0627\u0645 ${i}${i % 2 ? "\t" : ""}` : i % 2 ? `c${i} & <x>\t"q"` : `c${i} 'é' <y>`,
    );
  const rows = [cells(70), [], cells(3), cells(63)];

  it("equal rawTable's XML for the same cells as runs, folding past 63 columns included", async () => {
    const geometry = { columnWidth: 143, columns: MAX_TABLE_COLUMNS, indent: 720 };
    const plain = plainTable({ ...geometry, rows, aligns });
    const runs = rawTable({
      ...geometry,
      rows: rows.map((row, r) => ({
        header: r === 0,
        cells: foldColumns(
          row.map((text, c) => {
            const rtl = text.startsWith("\u0633");
            const flags = (r === 0 ? BOLD : 0) | (rtl ? RTL : 0);
            return { children: text ? [textRun(text, flags)] : [], alignment: aligns[c], ...(rtl ? { bidi: true } : {}) };
          }),
        ),
      })),
    })!;
    expect(await documentXml(plain)).toBe(await documentXml(runs));
  });
});
