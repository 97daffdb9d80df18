// sharedStrings.xml → its strings in order: an item's text (t), or its rich-text runs' texts (r/t)
// concatenated; phonetic runs (rPh) are not text. Read wherever the part lies in the zip (the
// workbook's relationships name it), before any sheet that uses it.
import { parseXmlPart, type Budget, type ZipItem } from "../../ooxml/index.ts";
import { decodeXstring } from "./xstring.ts";

export function readSharedStrings(item: ZipItem | undefined, budget: Budget): string[] {
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
