// Every fixture through the real server: POST the markdown, read the text back, download the
// .docx, and check that what a caller downloads is what the text says it is (mammoth's text of
// the downloaded bytes equals the stored text) and that it is Word structure, not markdown.
import { readFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentSummary, DocumentText } from "../../src/contract/documents.ts";
import { fixturesDir, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import {
  formatOf,
  mammothText,
  numberingOf,
  paragraph,
  paragraphText,
  readDocx,
  startOf,
  styleOf,
  type RenderedParts,
} from "../documents/render/docx.ts";

const fixtures = readdirSync(fixturesDir).filter((name) => name.endsWith(".md"));

let tg: TestGateway;
let auth: { authorization: string };
const trips = new Map<string, ReturnType<typeof roundTrip>>();
/** Each fixture's round trip runs once, for whichever test asks first. */
const trip = (file: string) => {
  let found = trips.get(file);
  if (!found) trips.set(file, (found = roundTrip(file)));
  return found;
};

beforeAll(async () => {
  tg = await startTestGateway();
  auth = { authorization: `Bearer ${await tg.key({ user: "roundtrip" })}` };
});
afterAll(() => tg.close());

/** POST → GET text → GET content, for one fixture; the parts of the downloaded .docx. */
async function roundTrip(file: string): Promise<{ created: DocumentSummary; read: DocumentText; parts: RenderedParts }> {
  const markdown = readFileSync(new URL(file, fixturesDir), "utf8");
  const name = file.replace(/\.md$/, "");
  const post = await fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name, markdown }),
  });
  expect(post.status).toBe(201);
  const created = (await post.json()) as DocumentSummary;

  const text = await fetch(`${tg.url}${created.url}?maxChars=1000000`, { headers: auth });
  expect(text.status).toBe(200);
  const read = (await text.json()) as DocumentText;

  const content = await fetch(`${tg.url}${created.downloadUrl}`, { headers: auth });
  expect(content.status).toBe(200);
  const bytes = new Uint8Array(await content.arrayBuffer());
  expect(bytes.byteLength).toBe(created.sizeBytes);
  return { created, read, parts: await readDocx(bytes, read.text) };
}

describe("each fixture over HTTP: POST, GET text, GET .docx", () => {
  it("there are fixtures to run", () => {
    expect(fixtures).toEqual(expect.arrayContaining(["kitchen-sink.md", "edge-cases.md"]));
  });

  it.each(fixtures)("%s: the downloaded .docx's text is the text the API returns", async (file) => {
    const { created, read, parts } = await trip(file);
    expect(read).toMatchObject({ id: created.id, name: created.name, truncated: false, totalChars: created.characters });
    expect(read.text.length).toBe(created.characters);
    expect(read.text.length).toBeGreaterThan(0);
    expect(await mammothText(parts.docx)).toBe(read.text);
    expect(parts.core).toContain(`<dc:title>${created.name}</dc:title>`);
  });
});

describe("the downloaded .docx is Word structure", () => {
  const parts = async (file: string): Promise<RenderedParts> => (await trip(file)).parts;

  it("kitchen-sink: headings, run formatting, links, lists, table, code, hard break", async () => {
    const kitchen = await parts("kitchen-sink.md");
    expect(styleOf(paragraph(kitchen, "Launch plan — Nordwind & Partners"))).toBe("Heading1");
    expect(styleOf(paragraph(kitchen, "Milestones, level two"))).toBe("Heading2");
    const opening = kitchen.paragraphs.find((p) => paragraphText(p).startsWith("Every construct of docs/api.md"))!;
    expect(opening).toMatch(/<w:rPr><w:b\/><w:bCs\/><\/w:rPr><w:t xml:space="preserve">bold<\/w:t>/);
    expect(opening).toContain("<w:hyperlink");
    expect(kitchen.rels).toContain('Target="https://example.net/status" TargetMode="External"');
    expect(opening).toContain("<w:br/>");
    expect(kitchen.text).toContain("hard break: still the same paragraph");

    const five = numberingOf(paragraph(kitchen, "ordered, starting at five"))!;
    const again = numberingOf(paragraph(kitchen, "a new ordered list starts at one again"))!;
    expect(formatOf(kitchen.numbering, five.numId)).toBe("decimal");
    expect([startOf(kitchen.numbering, five.numId), startOf(kitchen.numbering, again.numId)]).toEqual([5, 1]);
    expect(formatOf(kitchen.numbering, numberingOf(paragraph(kitchen, "design review"))!.numId)).toBe("bullet");

    const table = /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(kitchen.document)![0];
    expect(table.match(/<w:tr>/g)).toHaveLength(4);
    expect(table).toContain("<w:tblHeader/>");
    expect(styleOf(paragraph(kitchen, "function share(total, people) {"))).toBe("SourceCode");
    expect(styleOf(paragraph(kitchen, "A quoted remark, with emphasis inside."))).toBe("Quote");
  });

  it("edge-cases: loose bullets, ) ordered lists, escapes, hard breaks, bare links, unterminated fence", async () => {
    const edge = await parts("edge-cases.md");
    expect(formatOf(edge.numbering, numberingOf(paragraph(edge, "loose item alpha"))!.numId)).toBe("bullet");
    expect(formatOf(edge.numbering, numberingOf(paragraph(edge, "first with a parenthesis"))!.numId)).toBe("decimal");
    expect(paragraph(edge, "Escaped *not emphasis* and `not code` and a literal # sign.")).not.toContain("<w:i/>");
    expect(paragraph(edge, "Ends with a backslash then continues.")).toContain("<w:br/>");
    expect(paragraph(edge, "Two spaces at the end and a line after.")).toContain("<w:br/>");
    // GFM's extended autolinks: www. and e-mail addresses become hyperlinks too.
    expect(edge.rels).toContain('Target="http://www.example.com/docs" TargetMode="External"');
    expect(edge.rels).toContain('Target="mailto:team@example.com" TargetMode="External"');
    expect(numberingOf(paragraph(edge, "☒ nested task, done"))?.level).toBe(1);
    expect(styleOf(paragraph(edge, "a fence left open until the end"))).toBe("SourceCode");
  });
});
