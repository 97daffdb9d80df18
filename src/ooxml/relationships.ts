// Relationships parts (OPC §6.5), parsed and checked: every Relationship's TargetMode read as XML
// reads it (attribute whitespace normalised, so "External " is External) and only "Internal" or
// "External"; a relationship that reaches outside the package, by its mode or by an absolute
// target, is allowed only for the types the caller lets out (hyperlinks for a .docx). Each part is
// also written back from what was parsed, with TargetMode normalised, for a package rewritten
// from its checked parts.
import type { Budget } from "./budget.ts";
import { unsupported } from "./errors.ts";
import { isAbsoluteReference, printable, resolveTarget } from "./part-names.ts";
import { parseXmlPart } from "./parts.ts";
import type { XmlElement } from "./xml-parse.ts";
import { XmlWriter } from "./xml-write.ts";
import type { ZipItem } from "./zip-read.ts";

export const RELATIONSHIPS_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

export interface Relationship {
  id: string;
  /** The relationship type URI, whitespace-trimmed. */
  type: string;
  target: string;
  external: boolean;
  /** For an internal relationship: the part it names, resolved from its source part. */
  part: string | undefined;
}

/** The last segment of a relationship type: ".../relationships/officeDocument" → "officeDocument". */
export const typeName = (type: string): string => type.slice(type.lastIndexOf("/") + 1);

const collapse = (value: string): string => value.replace(/[\t\n\r ]+/g, " ").trim();

/**
 * Parses one relationships part of `source` ("" for the package's own), checks it, and returns its
 * relationships and its text written back.
 */
export function readRelationships(
  item: ZipItem,
  source: string,
  budget: Budget,
  allowExternal: (type: string) => boolean,
): { relationships: Relationship[]; xml: string } {
  const relationships: Relationship[] = [];
  const pieces: string[] = [];
  const refuse = (why: string) => unsupported("hostile", budget.kind, `${printable(item.name)} ${why}`);
  const check = (element: XmlElement): Record<string, string> => {
    if (element.local !== "Relationship") return element.attributes;
    if (element.uri !== RELATIONSHIPS_NS) throw refuse(`has a Relationship outside the relationships namespace`);
    const type = collapse(element.attributes["Type"] ?? "");
    const target = element.attributes["Target"] ?? "";
    const modeText = element.attributes["TargetMode"];
    const mode = modeText === undefined ? "Internal" : collapse(modeText);
    if (mode !== "Internal" && mode !== "External")
      throw refuse(`has a TargetMode of ${printable(modeText ?? "")}, neither Internal nor External`);
    const external = mode === "External" || isAbsoluteReference(target.trim());
    if (external && !allowExternal(type)) {
      throw unsupported(
        "hostile",
        budget.kind,
        `it has an external ${typeName(type) || "(untyped)"} relationship (${type || "no type"}); only hyperlinks may point outside the file`,
      );
    }
    const part = external ? undefined : resolveTarget(source, target);
    relationships.push({ id: element.attributes["Id"] ?? "", type, target, external, part });
    const attributes: Record<string, string> = { ...element.attributes, Type: type };
    if (modeText !== undefined) attributes["TargetMode"] = mode;
    return attributes;
  };
  const writer = new XmlWriter((text) => pieces.push(text), check);
  parseXmlPart(item, budget, writer);
  writer.end();
  const xml = pieces.join("");
  budget.hold(xml.length * 2);
  return { relationships, xml };
}
