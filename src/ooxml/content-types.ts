// The package's [Content_Types].xml (OPC §10.1.2): a part's type is its Override, else the Default
// for its extension; part names and extensions compare case-insensitively. Written back from what
// was parsed, like every XML part of a rewritten package.
import type { Budget } from "./budget.ts";
import { unsupported } from "./errors.ts";
import { partKey } from "./part-names.ts";
import { parseXmlPart } from "./parts.ts";
import { XmlWriter } from "./xml-write.ts";
import type { ZipItem } from "./zip-read.ts";

export const CONTENT_TYPES_PART = "[Content_Types].xml";

export class ContentTypes {
  private readonly overrides = new Map<string, string>();
  private readonly defaults = new Map<string, string>();
  /** The part written back from what was parsed. */
  xml = "";

  /** The type of a part, by its name; undefined when the package declares none. */
  of(part: string): string | undefined {
    const override = this.overrides.get(partKey(part));
    if (override !== undefined) return override;
    const slash = part.lastIndexOf("/");
    const dot = part.lastIndexOf(".");
    return dot > slash ? this.defaults.get(part.slice(dot + 1).toLowerCase()) : undefined;
  }

  static read(item: ZipItem, budget: Budget): ContentTypes {
    const types = new ContentTypes();
    const pieces: string[] = [];
    const writer = new XmlWriter((text) => pieces.push(text));
    parseXmlPart(item, budget, {
      open(element) {
        const type = element.attributes["ContentType"]?.trim();
        if (element.local === "Override" && type) {
          let name = element.attributes["PartName"]?.trim() ?? "";
          try {
            name = decodeURIComponent(name);
          } catch {
            throw unsupported("malformed", budget.kind, `${CONTENT_TYPES_PART} names a part with a bad percent-escape`);
          }
          types.overrides.set(partKey(name.replace(/^\/+/, "")), type);
        } else if (element.local === "Default" && type) {
          types.defaults.set((element.attributes["Extension"] ?? "").trim().toLowerCase(), type);
        }
        writer.open(element);
      },
      text: (text) => writer.text(text),
      close: (name) => writer.close(name),
    });
    writer.end();
    types.xml = pieces.join("");
    budget.hold(types.xml.length * 2);
    return types;
  }
}
