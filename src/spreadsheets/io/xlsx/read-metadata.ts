// Cell metadata (xl/metadata.xml, ECMA-376 Part 1 §18.9 and Excel's dynamic-array extension): a
// formula cell's `cm` attribute names a cell-metadata block, whose record names a metadata type;
// the type "XLDAPR" (dynamic array properties) marks a dynamic-array formula. Every other formula
// in the file was saved without dynamic arrays.
import { parseXmlPart, type Budget, type ZipItem } from "../../../ooxml/index.ts";

/** The `cm` values that mark dynamic-array formulas (1-based block numbers). */
export function dynamicArrayBlocks(item: ZipItem | undefined, budget: Budget): Set<number> {
  const dynamic = new Set<number>();
  if (!item) return dynamic;
  const types: string[] = [];
  let inCells = false;
  let block = 0;
  parseXmlPart(item, budget, {
    open(element) {
      if (element.local === "metadataType") types.push(element.attribute("name") ?? "");
      else if (element.local === "cellMetadata") inCells = true;
      else if (inCells && element.local === "bk") block++;
      else if (inCells && element.local === "rc" && types[Number(element.attribute("t")) - 1] === "XLDAPR") dynamic.add(block);
    },
    close(_name, local) {
      if (local === "cellMetadata") inCells = false;
    },
  });
  return dynamic;
}
