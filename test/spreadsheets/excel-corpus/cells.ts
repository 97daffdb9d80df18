// The formula cells of a workbook as its writer saved them: each cell with an <f> element and a
// cached <v>, read straight from the package's XML (not through the engine's reader, so that a
// workbook the reader refuses still counts all its cells), and the same package with those cached
// values removed, so that whatever imports it has to compute every formula itself.
import { stringifyTokens, tokenize, translateTokensToA1, translateTokensToR1C1 } from "@borgar/fx/xlsx";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { decodeXstring } from "../../../src/spreadsheets/io/xlsx/xstring.ts";

export type Expected = number | string | boolean | { error: string };

export interface FormulaCell {
  sheet: string;
  /** A1 address in the sheet. */
  address: string;
  /** The formula without "=" (a shared formula's members: the anchor's, moved as Excel fills it). */
  text: string;
  /** The <f> element's t attribute: normal, shared, array or dataTable. */
  kind: string;
  expected: Expected;
}

export interface PackageCells {
  cells: FormulaCell[];
  date1904: boolean;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
export const decodeXml = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) =>
    name.startsWith("#x")
      ? String.fromCodePoint(parseInt(name.slice(2), 16))
      : name.startsWith("#")
        ? String.fromCodePoint(Number(name.slice(1)))
        : (ENTITIES[name] ?? whole),
  );

const attribute = (attributes: string, name: string): string | undefined => {
  const match = new RegExp(`(?:^|\\s)${name.replace(".", "\\.")}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attributes);
  return match ? decodeXml(match[2] ?? match[3] ?? "") : undefined;
};

/** Worksheet part path → sheet name, in the workbook's order. */
function worksheetParts(files: Record<string, Uint8Array>): [path: string, name: string][] {
  const workbook = strFromU8(files["xl/workbook.xml"] ?? new Uint8Array());
  const rels = strFromU8(files["xl/_rels/workbook.xml.rels"] ?? new Uint8Array());
  const targets = new Map<string, string>();
  for (const [, attributes] of rels.matchAll(/<Relationship\b([^>]*)>/g)) {
    const id = attribute(attributes!, "Id");
    const target = attribute(attributes!, "Target");
    if (id && target) targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`);
  }
  const parts: [string, string][] = [];
  for (const [, attributes] of workbook.matchAll(/<(?:\w+:)?sheet\b([^>]*)>/g)) {
    const name = attribute(attributes!, "name");
    const target = targets.get(attribute(attributes!, "r:id") ?? "");
    if (name !== undefined && target && files[target]) parts.push([target, name]);
  }
  return parts;
}

function sharedStrings(files: Record<string, Uint8Array>): string[] {
  const xml = files["xl/sharedStrings.xml"];
  if (!xml) return [];
  return [...strFromU8(xml).matchAll(/<si>([\s\S]*?)<\/si>/g)].map(([, si]) =>
    [...si!.replace(/<rPh\b[\s\S]*?<\/rPh>/g, "").matchAll(/<t\b[^>]*>([^<]*)<\/t>/g)]
      .map(([, t]) => decodeXstring(decodeXml(t!)))
      .join(""),
  );
}

const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const FORMULA = /<f\b([^>]*?)(?:\/>|>([\s\S]*?)<\/f>)/;
const VALUE = /<v\b[^>]*?(?:\/>|>([\s\S]*?)<\/v>)/;

function expectedOf(type: string, raw: string, strings: string[]): Expected {
  switch (type) {
    case "str":
    case "inlineStr":
      return decodeXstring(decodeXml(raw));
    case "s":
      return strings[Number(raw)] ?? "";
    case "b":
      return raw.trim() === "1" || raw.trim() === "true";
    case "e":
      return { error: raw.trim() };
    default:
      return Number(raw);
  }
}

/** A shared formula's anchor text as it reads at `address`. */
function shifted(anchor: { text: string; address: string }, address: string): string {
  try {
    const relative = translateTokensToR1C1(tokenize(anchor.text, { mergeRefs: true }), anchor.address);
    return stringifyTokens(translateTokensToA1(relative, address, { wrapEdges: false }));
  } catch {
    return anchor.text;
  }
}

/** Every formula cell that carries a cached value. */
export function formulaCells(bytes: Uint8Array): PackageCells {
  const files = unzipSync(bytes);
  const strings = sharedStrings(files);
  const date1904 = /<workbookPr\b[^>]*date1904\s*=\s*"(1|true)"/.test(strFromU8(files["xl/workbook.xml"] ?? new Uint8Array()));
  const cells: FormulaCell[] = [];
  for (const [path, sheet] of worksheetParts(files)) {
    const anchors = new Map<string, { text: string; address: string }>();
    for (const [, attributes, body] of strFromU8(files[path]!).matchAll(CELL)) {
      if (!body) continue;
      const f = FORMULA.exec(body);
      const v = VALUE.exec(body);
      if (!f || !v) continue;
      const address = attribute(attributes!, "r");
      if (!address) continue;
      const kind = attribute(f[1]!, "t") ?? "normal";
      let text = decodeXml(f[2] ?? "");
      const si = attribute(f[1]!, "si");
      if (kind === "shared" && si !== undefined) {
        if (text) anchors.set(si, { text, address });
        else if (anchors.has(si)) text = shifted(anchors.get(si)!, address);
      }
      const expected = expectedOf(attribute(attributes!, "t") ?? "n", v[1] ?? "", strings);
      if (typeof expected === "number" && !Number.isFinite(expected)) continue;
      cells.push({ sheet, address, text, kind, expected });
    }
  }
  return { cells, date1904 };
}

/** The same package with every formula cell's cached value taken out (the formulas are kept). */
export function withoutCachedValues(bytes: Uint8Array): Uint8Array {
  const files = unzipSync(bytes);
  for (const [path] of worksheetParts(files)) {
    const xml = strFromU8(files[path]!).replace(CELL, (cell: string, _attributes: string, body: string | undefined) =>
      body && FORMULA.test(body) ? cell.replace(VALUE, "") : cell,
    );
    files[path] = strToU8(xml);
  }
  return zipSync(files, { level: 1 });
}
