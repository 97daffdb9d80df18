// A worksheet's tables (Excel ListObjects, ECMA-376 Part 1 §18.5): each a part related to its
// sheet, with its name (displayName, what formulas use), range, header and totals rows, column
// names, style and the totals row's functions — what the model and the writer keep.
import { parseXmlPart, typeName, type OpcPackage } from "../../../ooxml/index.ts";
import { parseCellAddress } from "../../cells/cells.ts";
import type { TableData } from "../../workbook/tables.ts";
import { decodeXstring } from "./xstring.ts";

const flag = (v: string | undefined, fallback: boolean) => (v === undefined ? fallback : v === "1" || v === "true");

function box(ref: string | undefined): TableData["box"] | null {
  const [a, b] = (ref ?? "").split(":");
  const first = a ? parseCellAddress(a) : null;
  const last = b ? parseCellAddress(b) : first;
  if (!first || !last) return null;
  return { top: first.row, left: first.column, bottom: last.row, right: last.column };
}

/** The tables of the worksheet part `sheetPart`; one that does not describe a table is left out. */
export function readTables(pkg: OpcPackage, sheetPart: string): TableData[] {
  const tables: TableData[] = [];
  for (const relationship of pkg.relationships(sheetPart)) {
    if (typeName(relationship.type) !== "table" || relationship.external || relationship.part === undefined) continue;
    const item = pkg.get(relationship.part);
    if (!item) continue;
    let table: TableData | null = null;
    let valid = true;
    parseXmlPart(item, pkg.budget, {
      open(element) {
        if (element.local === "table") {
          const range = box(element.attribute("ref"));
          const name = element.attribute("displayName") ?? element.attribute("name");
          if (!range || !name) return void (valid = false);
          table = {
            name: decodeXstring(name),
            box: range,
            header: Number(element.attribute("headerRowCount") ?? 1) > 0 ? 1 : 0,
            totals: Number(element.attribute("totalsRowCount") ?? 0) > 0 ? 1 : 0,
            columns: [],
            style: null,
            autoFilter: false,
            totalsRow: [],
          };
        } else if (!table) return;
        else if (element.local === "autoFilter") (table as TableData).autoFilter = true;
        else if (element.local === "tableColumn") {
          const t = table as TableData;
          t.columns.push(decodeXstring(element.attribute("name") ?? `Column${t.columns.length + 1}`));
          const fn = element.attribute("totalsRowFunction");
          const label = element.attribute("totalsRowLabel");
          t.totalsRow.push(fn || label ? { ...(fn ? { fn } : {}), ...(label ? { label: decodeXstring(label) } : {}) } : null);
        } else if (element.local === "tableStyleInfo") {
          (table as TableData).style = {
            name: element.attribute("name") ?? "",
            firstColumn: flag(element.attribute("showFirstColumn"), false),
            lastColumn: flag(element.attribute("showLastColumn"), false),
            rowStripes: flag(element.attribute("showRowStripes"), false),
            columnStripes: flag(element.attribute("showColumnStripes"), false),
          };
        }
      },
    });
    if (table && valid) tables.push(table);
  }
  return tables;
}
