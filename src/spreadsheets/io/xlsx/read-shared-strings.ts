// sharedStrings.xml → its strings in order: an item's text (t), or its rich-text runs' texts (r/t)
// concatenated; phonetic runs (rPh) are not text. Read wherever the part lies in the zip (the
// workbook's relationships name it), before any sheet that uses it.
import { parseXmlPart, type Budget, type ZipItem } from "../../../ooxml/index.ts";
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
  const { limit } = bound;
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
          if (strings.length >= limit) throw tooManySharedStrings(limit, bound.sheetBytes);
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
