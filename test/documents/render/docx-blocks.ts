// The blocks (./blocks.ts) of a rendered .docx, read from its parts with htmlparser2 in XML mode:
// paragraph styles give the kind (Heading1… → h1…, SourceCode → code, a bottom border → hr),
// Quote the quote flag, the left indent (or the numbering level) the depth, numbering the marker
// (each w:num counted from its start), run properties and hyperlinks the inline flags.
import { Parser } from "htmlparser2";
import JSZip from "jszip";
import { TextCollector, type Block } from "./blocks.ts";

const INDENT_STEP = 720;

interface Numbering {
  /** numId → its level-0… starts and formats. */
  levels: Map<string, Map<string, { start: number; bullet: boolean }>>;
}

function readNumbering(xml: string): Numbering {
  const abstract = new Map<string, Map<string, { start: number; bullet: boolean }>>();
  const nums = new Map<string, { abstractId: string; overrides: Map<string, number> }>();
  let abstractId: string | undefined;
  let level: { id: string; start: number; bullet: boolean } | undefined;
  let num: { id: string; abstractId: string; overrides: Map<string, number> } | undefined;
  let overrideLevel: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === "w:abstractNum") abstractId = a["w:abstractNumId"];
        else if (name === "w:lvl" && abstractId !== undefined) level = { id: a["w:ilvl"] ?? "0", start: 1, bullet: false };
        else if (name === "w:start" && level) level.start = Number(a["w:val"]);
        else if (name === "w:numFmt" && level) level.bullet = a["w:val"] === "bullet";
        else if (name === "w:num") num = { id: a["w:numId"] ?? "", abstractId: "", overrides: new Map() };
        else if (name === "w:abstractNumId" && num) num.abstractId = a["w:val"] ?? "";
        else if (name === "w:lvlOverride") overrideLevel = a["w:ilvl"];
        else if (name === "w:startOverride" && num && overrideLevel !== undefined) num.overrides.set(overrideLevel, Number(a["w:val"]));
      },
      onclosetag(name) {
        if (name === "w:lvl" && level && abstractId !== undefined) {
          if (!abstract.has(abstractId)) abstract.set(abstractId, new Map());
          abstract.get(abstractId)!.set(level.id, { start: level.start, bullet: level.bullet });
          level = undefined;
        } else if (name === "w:abstractNum") abstractId = undefined;
        else if (name === "w:num" && num) {
          nums.set(num.id, num);
          num = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  const levels = new Map<string, Map<string, { start: number; bullet: boolean }>>();
  for (const [id, { abstractId: aid, overrides }] of nums) {
    const base = abstract.get(aid) ?? new Map<string, { start: number; bullet: boolean }>();
    levels.set(id, new Map([...base].map(([lvl, value]) => [lvl, { ...value, start: overrides.get(lvl) ?? value.start }])));
  }
  return { levels };
}

function readRelationships(xml: string): Map<string, string> {
  const targets = new Map<string, string>();
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === "Relationship" && a["Id"] && a["Target"] !== undefined) targets.set(a["Id"], a["Target"]);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return targets;
}

export async function docxBlocks(docx: Uint8Array): Promise<Block[]> {
  const zip = await JSZip.loadAsync(docx);
  const read = async (name: string) => (await zip.file(name)?.async("string")) ?? "";
  const numbering = readNumbering(await read("word/numbering.xml"));
  const rels = readRelationships(await read("word/_rels/document.xml.rels"));
  const counters = new Map<string, number>();
  const blocks: Block[] = [];

  let paragraph:
    { style: string; numId?: string; ilvl?: string; indent?: number; rule: boolean; text: TextCollector; inCell: boolean } | undefined;
  let run: string[] = [];
  let link: string | undefined;
  let inText = false;
  let inRunProperties = false;
  let cellDepth = 0;

  const finish = () => {
    const p = paragraph!;
    paragraph = undefined;
    const heading = /^Heading(\d)$/.exec(p.style);
    const code = p.style === "SourceCode";
    let marker = "";
    let depth = p.style === "Quote" ? 1 : 0;
    if (p.numId !== undefined) {
      const level = numbering.levels.get(p.numId)?.get(p.ilvl ?? "0");
      const key = `${p.numId}/${p.ilvl}`;
      const n = counters.get(key) ?? level?.start ?? 1;
      counters.set(key, n + 1);
      marker = level?.bullet === false ? `${n}.` : "•";
      depth = Number(p.ilvl ?? 0) + 1;
    }
    if (p.indent !== undefined) depth = Math.round(p.indent / INDENT_STEP);
    const kind = p.inCell ? "cell" : heading ? `h${heading[1]}` : code ? "code" : p.rule ? "hr" : "p";
    blocks.push({
      kind,
      depth: p.inCell ? 0 : depth,
      quote: (kind === "p" || kind === "hr") && p.style === "Quote",
      marker: p.inCell ? "" : marker,
      text: code ? p.text.raw() : p.text.marked(),
    });
  };

  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === "w:tc") cellDepth++;
        else if (name === "w:p") paragraph = { style: "", rule: false, text: new TextCollector(), inCell: cellDepth > 0 };
        else if (!paragraph) return;
        else if (name === "w:pStyle") paragraph.style = a["w:val"] ?? "";
        else if (name === "w:numId") paragraph.numId = a["w:val"];
        else if (name === "w:ilvl") paragraph.ilvl = a["w:val"];
        else if (name === "w:ind" && a["w:left"] !== undefined) paragraph.indent = Number(a["w:left"]);
        else if (name === "w:pBdr") paragraph.rule = true;
        // docx writes a URL's #fragment as w:anchor beside the relationship's target, as Word does.
        else if (name === "w:hyperlink")
          link = a["r:id"] ? `a<${rels.get(a["r:id"]) ?? ""}${a["w:anchor"] ? `#${a["w:anchor"]}` : ""}>` : undefined;
        else if (name === "w:r") run = link ? [link] : [];
        else if (name === "w:rPr") inRunProperties = true;
        else if (inRunProperties && name === "w:b") run.push("b");
        else if (inRunProperties && name === "w:i") run.push("i");
        else if (inRunProperties && name === "w:strike") run.push("s");
        else if (inRunProperties && name === "w:rStyle" && a["w:val"] === "VerbatimChar") run.push("c");
        else if (name === "w:t") inText = true;
        else if (name === "w:tab") paragraph.text.add("\t", run);
        else if (name === "w:br") paragraph.text.add("\n", run);
      },
      ontext(data) {
        if (inText && paragraph) paragraph.text.add(data, run);
      },
      onclosetag(name) {
        if (name === "w:tc") cellDepth--;
        else if (name === "w:p" && paragraph) finish();
        else if (name === "w:t") inText = false;
        else if (name === "w:rPr") inRunProperties = false;
        else if (name === "w:hyperlink") link = undefined;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(await read("word/document.xml"));
  // Word wants a paragraph at the end of the body (after a final table, in an empty document): not content.
  const last = blocks[blocks.length - 1];
  if (last && last.kind === "p" && last.text === "" && !last.marker && last.depth === 0) blocks.pop();
  return blocks;
}
