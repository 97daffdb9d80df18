// Body elements the renderer writes as XML strings rather than as docx's object graph (tables,
// runs of text paragraphs), and what they need from the document being written. The packager
// (./package.ts) streams their strings into document.xml without joining them.
import type { File, IParagraphOptions, NumberingDefinition } from "docx";
import { escapeXml } from "./runs.ts";

export type ListNumbering = NonNullable<Exclude<IParagraphOptions["numbering"], false>>;

const HYPERLINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";
/** docx's limit on a w:anchor (a longer fragment stays in the relationship's target). */
const MAX_ANCHOR_LENGTH = 255;

/** Where a list's w:numId comes from: docx's numbering registry, or ./numbering-xml.ts's. */
export interface NumberingIds {
  numId(numbering: ListNumbering): number;
}

/** A list's key in docx's registry: its reference and instance. */
export const listKey = (numbering: ListNumbering): { name: string; instance: number; key: string } => {
  const reference = numbering.reference;
  const name = typeof reference === "string" ? reference : reference.reference;
  const instance = numbering.instance ?? 0;
  return { name, instance, key: `${name}-${instance}` };
};

/** List numbering in docx's registry (docx writes numbering.xml): for packages docx writes. */
export class DocxNumbering implements NumberingIds {
  private readonly numIds = new Map<string, number>();

  constructor(private readonly file: File) {}

  numId(numbering: ListNumbering): number {
    const { name, instance, key } = listKey(numbering);
    let id = this.numIds.get(key);
    if (id === undefined) {
      const reference = numbering.reference;
      const definition: NumberingDefinition | undefined = typeof reference === "string" ? undefined : reference;
      this.file.Numbering.createConcreteNumberingInstance(name, instance, definition);
      id = this.file.Numbering.ConcreteNumbering.find((n) => n.reference === name && n.instance === instance)?.numId;
      if (id === undefined) throw new Error(`no numbering for ${key}`);
      this.numIds.set(key, id);
    }
    return id;
  }
}

/**
 * What raw elements register in the document being written: list numbering (in `numbering`),
 * external hyperlinks as relationships of our own, written into document.xml.rels by the packager
 * (docx's relationship objects cost more than the body).
 */
export class PartContext {
  private readonly links: string[] = [];

  constructor(private readonly numbering: NumberingIds) {}

  numId(numbering: ListNumbering): number {
    return this.numbering.numId(numbering);
  }

  /** An external hyperlink's relationship id, and its #fragment as w:anchor (as docx and Word split them). */
  link(href: string): { id: string; anchor?: string } {
    const hash = href.indexOf("#");
    const fragment = hash > 0 ? href.slice(hash + 1) : "";
    const split = fragment.length > 0 && fragment.length <= MAX_ANCHOR_LENGTH;
    // docx numbers its own relationships rId1, rId2, …: these cannot collide with them.
    const id = `rIdLink${this.links.length + 1}`;
    const target = split ? href.slice(0, hash) : href;
    this.links.push(`<Relationship Id="${id}" Type="${HYPERLINK}" Target="${escapeXml(target)}" TargetMode="External"/>`);
    return split ? { id, anchor: fragment } : { id };
  }

  /** The relationships link() made, as document.xml.rels entries. */
  relationships(): string {
    return this.links.join("");
  }
}

/** A body element written as XML strings. */
export abstract class RawXml {
  /** The element's XML in order; called once, while the document is written. */
  abstract chunks(part: PartContext): readonly string[];
}
