// numbering.xml as a string, for packages written from the template (./package-template.ts): the
// XML docx's Numbering writes for the same lists (test/documents/render/package-template.test.ts
// compares them), without its object graph (an abstract list of nine levels and a list instance
// of nine overrides per ordered list: ~10 % of a 400,000-character render).
import type { ILevelsOptions, INumberingOptions } from "docx";
import { listKey, type ListNumbering, type NumberingIds } from "./raw-xml.ts";

/** What every numbering.xml of the renderer starts with, and its first list instance (docx's default bullets). */
export interface NumberingTemplate {
  /** From the XML declaration to the last abstract list of the configuration. */
  head: string;
  /** `<w:num w:numId="1">…</w:num>`. */
  defaultNum: string;
}

/** docx numbers abstract lists from 1: its default bullets, then the configuration's in order. */
const FIRST_CONFIG_ABSTRACT_ID = 2;

function levelXml(level: ILevelsOptions): string {
  const indent = level.style?.paragraph?.indent;
  const ind = indent ? `<w:pPr><w:ind w:left="${indent.left}" w:hanging="${indent.hanging}"/></w:pPr>` : "";
  return (
    `<w:lvl w:ilvl="${level.level}" w:tentative="1"><w:start w:val="${level.start ?? 1}"/><w:numFmt w:val="${level.format}"/>` +
    `<w:lvlText w:val="${level.text}"/><w:lvlJc w:val="${level.alignment}"/>${ind}</w:lvl>`
  );
}

const abstractXml = (id: number, levels: readonly ILevelsOptions[]): string =>
  `<w:abstractNum w:abstractNumId="${id}" w15:restartNumberingAfterBreak="0"><w:multiLevelType w:val="hybridMultilevel"/>${levels.map(levelXml).join("")}</w:abstractNum>`;

const numXml = (numId: number, abstractId: number, levels: readonly ILevelsOptions[]): string =>
  `<w:num w:numId="${numId}"><w:abstractNumId w:val="${abstractId}"/>${levels
    .map((level) => `<w:lvlOverride w:ilvl="${level.level}"><w:startOverride w:val="${level.start ?? 1}"/></w:lvlOverride>`)
    .join("")}</w:num>`;

/** The lists of one document, registered as docx registers them (same ids, same order). */
export class RawNumbering implements NumberingIds {
  /** Abstract list id and levels by reference: the configuration's, then each new definition's. */
  private readonly abstracts = new Map<string, { id: number; levels: readonly ILevelsOptions[] }>();
  private readonly addedAbstracts: string[] = [];
  private readonly nums: string[] = [];
  private readonly numIds = new Map<string, number>();
  /** docx's default bullet list is numId 1. */
  private nextNumId = 2;
  private nextAbstractId: number;

  constructor(
    private readonly template: NumberingTemplate,
    config: INumberingOptions["config"],
  ) {
    config.forEach((definition, i) =>
      this.abstracts.set(definition.reference, { id: FIRST_CONFIG_ABSTRACT_ID + i, levels: definition.levels }),
    );
    this.nextAbstractId = FIRST_CONFIG_ABSTRACT_ID + config.length;
  }

  numId(numbering: ListNumbering): number {
    const { name, key } = listKey(numbering);
    let id = this.numIds.get(key);
    if (id !== undefined) return id;
    let abstract = this.abstracts.get(name);
    if (!abstract) {
      const reference = numbering.reference;
      if (typeof reference === "string") throw new Error(`no numbering for ${key}`);
      abstract = { id: this.nextAbstractId++, levels: reference.levels };
      this.abstracts.set(name, abstract);
      this.addedAbstracts.push(abstractXml(abstract.id, abstract.levels));
    }
    id = this.nextNumId++;
    this.numIds.set(key, id);
    this.nums.push(numXml(id, abstract.id, abstract.levels));
    return id;
  }

  /** numbering.xml: the template's head, the added abstract lists, then every list instance. */
  xml(): string {
    return `${this.template.head}${this.addedAbstracts.join("")}${this.template.defaultNum}${this.nums.join("")}</w:numbering>`;
  }
}
