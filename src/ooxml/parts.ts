// One part of a package, streamed: inflated in small steps (./zip-read.ts), and, for an XML part,
// counted against the XML budget, decoded as XML decodes it (./xml-decode.ts) and parsed
// (./xml-parse.ts) as the bytes come, so no XML part is ever held whole here.
import type { Budget } from "./budget.ts";
import { XmlDecoder } from "./xml-decode.ts";
import { XmlParser, type XmlHandler, type XmlParserOptions } from "./xml-parse.ts";
import { inflateItem, type ZipItem } from "./zip-read.ts";

/** Content types of XML parts: `…/xml` or `…+xml` (RFC 7303). */
export const isXmlContentType = (type: string | undefined): boolean => type !== undefined && /[/+]xml\s*(;|$)/i.test(type);

/** Parts read as XML by name, whatever their declared type says. */
export const isXmlName = (name: string): boolean => /\.(xml|rels)$/i.test(name);

/** Whether the first bytes of a part look like XML (optional BOM and whitespace, then "<"), in UTF-8 or UTF-16. */
export function looksLikeXml(head: Uint8Array): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  if ((head[0] === 0x3c && head[1] === 0x00) || (head[0] === 0x00 && head[1] === 0x3c)) return true;
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return head[i] === 0x3c;
}

/** Feeds bytes of one XML part through the decoder and parser, counting them against the XML budget. */
export class XmlPartReader {
  private readonly decoder: XmlDecoder;
  private readonly parser: XmlParser;
  constructor(
    part: string,
    private readonly budget: Budget,
    handler: XmlHandler,
    options: XmlParserOptions = {},
  ) {
    this.decoder = new XmlDecoder(part, budget.kind);
    this.parser = new XmlParser(part, budget, handler, options);
  }
  write(bytes: Uint8Array): void {
    this.budget.parse(bytes.length);
    this.parser.write(this.decoder.write(bytes));
  }
  end(): void {
    this.parser.write(this.decoder.end());
    this.parser.end();
  }
}

/** Streams an XML part through `handler`: the whole part is parsed (and so checked) before this returns. */
export function parseXmlPart(item: ZipItem, budget: Budget, handler: XmlHandler, options: XmlParserOptions = {}): void {
  const reader = new XmlPartReader(item.name, budget, handler, options);
  inflateItem(item, budget, (chunk) => reader.write(chunk));
  reader.end();
}
