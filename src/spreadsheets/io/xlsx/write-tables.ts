// The parts a workbook's tables and dynamic arrays add to an .xlsx: one table part a table
// (xl/tables/tableN.xml, ECMA-376 Part 1 §18.5), each sheet's relationships to its tables, and the
// cell metadata that marks dynamic-array formulas (xl/metadata.xml, Excel's XLDAPR; cells say cm="1").
import { formatBox } from "../../cells/a1.ts";
import type { TableData } from "../../workbook/tables.ts";
import { xmlAttr } from "./write-xml.ts";

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

export const tablePath = (n: number) => `xl/tables/table${n}.xml`;
export const sheetRelsPath = (index: number) => `xl/worksheets/_rels/sheet${index + 1}.xml.rels`;
export const METADATA_PATH = "xl/metadata.xml";

const bit = (b: boolean) => (b ? "1" : "0");

/** A table part; `id` is the table's number in the workbook (1-based). */
export function tableXml(table: TableData, id: number): string {
  const ref = formatBox(table.box);
  const rows = table.totals ? { ...table.box, bottom: table.box.bottom - 1 } : table.box;
  const counts = `${table.header ? "" : ' headerRowCount="0"'}${table.totals ? ' totalsRowCount="1"' : ' totalsRowShown="0"'}`;
  const filter = table.autoFilter && table.header ? `<autoFilter ref="${formatBox(rows)}"/>` : "";
  const columns = table.columns
    .map((name, i) => {
      const totals = table.totalsRow[i];
      const fn = totals?.fn ? ` totalsRowFunction="${xmlAttr(totals.fn)}"` : "";
      const label = totals?.label ? ` totalsRowLabel="${xmlAttr(totals.label)}"` : "";
      return `<tableColumn id="${i + 1}" name="${xmlAttr(name)}"${label}${fn}/>`;
    })
    .join("");
  const s = table.style;
  const style = s
    ? `<tableStyleInfo name="${xmlAttr(s.name)}" showFirstColumn="${bit(s.firstColumn)}" showLastColumn="${bit(s.lastColumn)}" showRowStripes="${bit(s.rowStripes)}" showColumnStripes="${bit(s.columnStripes)}"/>`
    : "";
  const name = xmlAttr(table.name);
  return (
    `${XML_HEAD}<table xmlns="${MAIN_NS}" id="${id}" name="${name}" displayName="${name}" ref="${ref}"${counts}>` +
    `${filter}<tableColumns count="${table.columns.length}">${columns}</tableColumns>${style}</table>`
  );
}

/** A sheet's relationships to its tables, rId1 … in order; `first` is the number of its first table. */
export function sheetRels(first: number, count: number): string {
  const rels = Array.from(
    { length: count },
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/table" Target="../tables/table${first + i}.xml"/>`,
  ).join("");
  return `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">${rels}</Relationships>`;
}

/** The worksheet's <tableParts> (after <sheetData>), for its `count` tables. */
export const tableParts = (count: number): string =>
  count === 0
    ? ""
    : `<tableParts count="${count}">${Array.from({ length: count }, (_, i) => `<tablePart r:id="rId${i + 1}"/>`).join("")}</tableParts>`;

/** The cell metadata part: one block, a dynamic array (what cm="1" names). */
export const metadataXml = (): string =>
  `${XML_HEAD}<metadata xmlns="${MAIN_NS}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
  `<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>` +
  `<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>` +
  `<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`;
