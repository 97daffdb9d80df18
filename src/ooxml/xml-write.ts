// XML written back from what the parser saw (./xml-parse.ts): elements, attributes and text,
// escaped, in UTF-8 with a declaration of our own. No DTD, comment or processing instruction
// survives, and an attribute value is what the parser read (whitespace-normalised, entities
// resolved), so a rewritten part says to every later reader exactly what it said to our checks.
import type { XmlElement, XmlHandler } from "./xml-parse.ts";

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

/** Characters gathered before they are handed on. */
const BATCH = 1 << 16;

const escapeText = (text: string): string =>
  /[&<>\r]/.test(text) ? text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;") : text;

const escapeAttribute = (value: string): string =>
  /[&<"\t\n\r]/.test(value)
    ? value
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/"/g, "&quot;")
        .replace(/\t/g, "&#9;")
        .replace(/\n/g, "&#10;")
        .replace(/\r/g, "&#13;")
    : value;

/**
 * A handler that writes the XML back out, in batches, to `sink`. `rewrite` may change an
 * element's attributes on the way (e.g. a relationship's TargetMode, trimmed).
 */
export class XmlWriter implements XmlHandler {
  private batch = XML_DECLARATION;
  /** An element opened but not yet known to have content: written as `<a/>` if it closes at once. */
  private pending = false;

  constructor(
    private readonly sink: (text: string) => void,
    private readonly rewrite?: (element: XmlElement) => Record<string, string>,
  ) {}

  open(element: XmlElement): void {
    this.settle();
    let tag = `<${element.name}`;
    const attributes = this.rewrite ? this.rewrite(element) : element.attributes;
    for (const name in attributes) tag += ` ${name}="${escapeAttribute(attributes[name]!)}"`;
    this.push(tag);
    this.pending = true;
  }

  text(text: string): void {
    if (text.length === 0) return;
    this.settle();
    this.push(escapeText(text));
  }

  close(name: string): void {
    if (this.pending) {
      this.pending = false;
      this.push("/>");
    } else {
      this.push(`</${name}>`);
    }
  }

  /** Hands on what is left; call once the part has been parsed. */
  end(): void {
    this.settle();
    if (this.batch) this.sink(this.batch);
    this.batch = "";
  }

  private settle(): void {
    if (!this.pending) return;
    this.pending = false;
    this.push(">");
  }

  private push(text: string): void {
    this.batch += text;
    if (this.batch.length >= BATCH) {
      this.sink(this.batch);
      this.batch = "";
    }
  }
}
