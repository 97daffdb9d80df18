// sharedStrings.xml → its strings in order: an item's text (t), or its rich-text runs' texts (r/t)
// concatenated; phonetic runs (rPh) are not text. Read wherever the part lies in the zip (the
// workbook's relationships name it), before any sheet that uses it.
import { parseXmlPart, scanXmlPart, type Budget, type XmlElement, type XmlHandler, type ZipItem } from "../../../ooxml/index.ts";
import { tooManySharedStrings } from "./read-limits.ts";
import { decodeXstring } from "./xstring.ts";

/**
 * `bound`: how many strings the workbook's cells can use (read-limits.ts sharedStringBound): the
 * cell limit, or fewer when its sheets are too small to refer to more. Past it the part is refused
 * as soon as the string is counted, before the rest is parsed.
 */
export function readSharedStrings(
  item: ZipItem | undefined,
  budget: Budget,
  bound: { limit: number; sheetBytes?: number } = { limit: Infinity },
): string[] {
  if (!item) return [];
  // Scanned when the part is plain XML (./../../../ooxml/xml-scan.ts), else parsed in full from the start again.
  const scanned = new StringsReader(budget, bound);
  if (scanXmlPart(item, budget, scanned)) return scanned.strings;
  const reader = new StringsReader(budget, bound);
  parseXmlPart(item, budget, reader, { namespaces: false });
  return reader.strings;
}

class StringsReader implements XmlHandler {
  readonly strings: string[] = [];
  private current: string[] | undefined;
  private phonetic = 0;
  private inText = 0;
  constructor(
    private readonly budget: Budget,
    private readonly bound: { limit: number; sheetBytes?: number },
  ) {}

  open(element: XmlElement): void {
    if (element.local === "si") this.current = [];
    else if (element.local === "rPh") this.phonetic++;
    else if (element.local === "t" && this.current && this.phonetic === 0) this.inText++;
  }

  wantsText(): boolean {
    return this.inText > 0;
  }

  text(text: string): void {
    if (this.inText > 0) this.current!.push(text);
  }

  close(_name: string, local: string): void {
    if (local === "t" && this.inText > 0) this.inText--;
    else if (local === "rPh") this.phonetic--;
    else if (local === "si" && this.current) {
      const { limit, sheetBytes } = this.bound;
      if (this.strings.length >= limit) throw tooManySharedStrings(limit, sheetBytes);
      const text = decodeXstring(this.current.length === 1 ? this.current[0]! : this.current.join(""));
      this.budget.hold(text.length * 2 + 16);
      this.strings.push(text);
      this.current = undefined;
    }
  }
}
