// A real XML parser for untrusted parts: saxes (streaming, namespace-aware, checks
// well-formedness), with any DOCTYPE refused outright, so no entity other than the five predefined
// ones and character references can ever be expanded, and nothing is fetched. Text goes in as it
// is decoded (./xml-decode.ts).
import { SaxesParser, type SaxesTagNS } from "saxes";
import type { Budget } from "./budget.ts";
import { PackageTooLarge, unsupported, UnsupportedPackage } from "./errors.ts";
import { printable } from "./part-names.ts";

/** Elements nested deeper than this are refused: no real part comes near it, and readers recurse. */
export const MAX_XML_DEPTH = 256;

export interface XmlElement {
  /** The qualified name as written, e.g. w:t. */
  name: string;
  local: string;
  /** Namespace URI ("" for none). */
  uri: string;
  /** Attributes by qualified name, values as parsed (entities and references resolved, whitespace normalised). */
  attributes: Record<string, string>;
  /** Attribute values by local name, for lookups that ignore prefixes. */
  attribute(local: string): string | undefined;
}

export interface XmlHandler {
  open?(element: XmlElement): void;
  text?(text: string): void;
  close?(name: string, local: string): void;
}

/** An element as the namespace-aware parser read it; its attribute map is built only when asked for. */
class ParsedElement implements XmlElement {
  private map: Record<string, string> | undefined;
  constructor(private readonly tag: SaxesTagNS) {}
  get name(): string {
    return this.tag.name;
  }
  get local(): string {
    return this.tag.local;
  }
  get uri(): string {
    return this.tag.uri;
  }
  get attributes(): Record<string, string> {
    if (!this.map) {
      this.map = {};
      for (const name in this.tag.attributes) this.map[name] = this.tag.attributes[name]!.value;
    }
    return this.map;
  }
  attribute(local: string): string | undefined {
    // Most attributes have no prefix: their qualified name is their local name.
    const direct = this.tag.attributes[local];
    if (direct !== undefined && direct.prefix === "") return direct.value;
    for (const name in this.tag.attributes) {
      const attribute = this.tag.attributes[name]!;
      if (attribute.local === local) return attribute.value;
    }
    return undefined;
  }
}

/** An element as the plain parser read it (no namespace processing): names as written, no URI. */
class PlainElement implements XmlElement {
  readonly uri = "";
  constructor(
    readonly name: string,
    readonly attributes: Record<string, string>,
  ) {}
  get local(): string {
    return localName(this.name);
  }
  attribute(local: string): string | undefined {
    const direct = this.attributes[local];
    if (direct !== undefined) return direct;
    for (const name in this.attributes) if (localName(name) === local) return this.attributes[name];
    return undefined;
  }
}

const localName = (name: string): string => {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
};

export interface XmlParserOptions {
  /**
   * Namespace processing (prefixes must be declared; elements carry their URI). Default on; a
   * reader that goes by local names only (spreadsheet cells) turns it off for speed. DTDs are
   * refused either way.
   */
  namespaces?: boolean;
}

export class XmlParser {
  private readonly parser: SaxesParser;
  private depth = 0;

  constructor(
    private readonly part: string,
    private readonly budget: Budget,
    handler: XmlHandler,
    options: XmlParserOptions = {},
  ) {
    const namespaces = options.namespaces ?? true;
    const parser = (this.parser = new SaxesParser({ xmlns: namespaces, position: true }) as SaxesParser);
    parser.on("doctype", () => {
      throw unsupported("hostile", budget.kind, `the XML part ${printable(part)} contains a DTD (DOCTYPE), which is never read`);
    });
    parser.on("opentag", (tag) => {
      if (++this.depth > MAX_XML_DEPTH) {
        throw new PackageTooLarge(
          "depth",
          `The ${budget.kind.name} nests XML elements more than ${MAX_XML_DEPTH} deep in ${printable(part)}`,
          {
            reason: "xml_depth",
            limit: MAX_XML_DEPTH,
          },
        );
      }
      if (handler.open) {
        handler.open(
          namespaces ? new ParsedElement(tag as SaxesTagNS) : new PlainElement(tag.name, tag.attributes as Record<string, string>),
        );
      }
    });
    parser.on("closetag", (tag) => {
      this.depth--;
      handler.close?.(tag.name, namespaces ? (tag as SaxesTagNS).local : localName(tag.name));
    });
    if (handler.text) {
      parser.on("text", (t) => handler.text!(t));
      parser.on("cdata", (t) => handler.text!(t));
    }
  }

  write(text: string): void {
    if (text.length === 0) return;
    this.guard(() => this.parser.write(text));
  }

  end(): void {
    this.guard(() => this.parser.close());
  }

  private guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      if (error instanceof UnsupportedPackage || error instanceof PackageTooLarge) throw error;
      if (error instanceof Error && error.constructor === Error) {
        const message = error.message
          .replace(/^undefined:/, "")
          .trim()
          .slice(0, 200);
        throw unsupported("malformed", this.budget.kind, `the XML part ${printable(this.part)} is not well-formed XML (${message})`);
      }
      throw error;
    }
  }
}
