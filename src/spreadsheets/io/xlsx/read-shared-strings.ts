// sharedStrings.xml → its strings in order: an item's text (t), or its rich-text runs' texts (r/t)
// concatenated; phonetic runs (rPh) are not text. Read wherever the part lies in the zip (the
// workbook's relationships name it), before any sheet that uses it.
import { parseXmlPart, type Budget, type ZipItem } from "../../../ooxml/index.ts";
import { tooManySharedStrings } from "./read-limits.ts";
import { decodeXstring } from "./xstring.ts";

/**
 * `limit`: the workbook's cell limit. A string nothing uses is never kept, so a workbook needs no
 * more strings than it may have cells: past that the part is refused as soon as the string is
 * counted, before the rest is parsed.
 */
export function readSharedStrings(item: ZipItem | undefined, budget: Budget, limit = Infinity): string[] {
  const strings: string[] = [];
  if (!item) return strings;
  let current: string[] | undefined;
  let phonetic = 0;
  let inText = 0;
  parseXmlPart(
    item,
    budget,
    {
      open(element) {
        if (element.local === "si") current = [];
        else if (element.local === "rPh") phonetic++;
        else if (element.local === "t" && current && phonetic === 0) inText++;
      },
      text(text) {
        if (inText > 0) current!.push(text);
      },
      close(_name, local) {
        if (local === "t" && inText > 0) inText--;
        else if (local === "rPh") phonetic--;
        else if (local === "si" && current) {
          if (strings.length >= limit) throw tooManySharedStrings(limit);
          const text = decodeXstring(current.join(""));
          budget.hold(text.length * 2 + 16);
          strings.push(text);
          current = undefined;
        }
      },
    },
    { namespaces: false },
  );
  return strings;
}
