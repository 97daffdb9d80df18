// The small parts around the worksheets: content types, relationships, document properties and
// xl/workbook.xml (the sheets in order, and the request that Excel and LibreOffice recalculate
// every formula on load, since the gateway's values are cached ones).
import type { DefinedName } from "../../workbook/names.ts";
import { METADATA_PATH, tablePath } from "./write-tables.ts";
import { xmlAttr, xmlText } from "./write-xml.ts";

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";
/** Excel 2019/365's calculation engine: with fullCalcOnLoad, any version recalculates on open. */
const CALC_ID = 191029;

export const sheetPath = (index: number) => `xl/worksheets/sheet${index + 1}.xml`;

/** What the package holds besides sheets, styles and strings: tables, and the dynamic-array metadata. */
export interface Extras {
  tables: number;
  metadata: boolean;
}

export function contentTypes(sheetCount: number, extras: Extras = { tables: 0, metadata: false }): string {
  const sheets =
    Array.from({ length: sheetCount }, (_, i) => `<Override PartName="/${sheetPath(i)}" ContentType="${SML}.worksheet+xml"/>`).join("") +
    Array.from({ length: extras.tables }, (_, i) => `<Override PartName="/${tablePath(i + 1)}" ContentType="${SML}.table+xml"/>`).join("") +
    (extras.metadata ? `<Override PartName="/${METADATA_PATH}" ContentType="${SML}.sheetMetadata+xml"/>` : "");
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/>${sheets}` +
    `<Override PartName="/xl/styles.xml" ContentType="${SML}.styles+xml"/>` +
    `<Override PartName="/xl/sharedStrings.xml" ContentType="${SML}.sharedStrings+xml"/>` +
    `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
    `<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>` +
    `</Types>`
  );
}

export const packageRelationships = (): string =>
  `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  `<Relationship Id="rId2" Type="${PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/>` +
  `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
  `</Relationships>`;

/** W3CDTF without milliseconds, as Office writes it. */
const w3cdtf = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export function coreProperties(title: string, created: Date, modified: Date): string {
  return (
    `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ` +
    `xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    `<dc:title>${xmlText(title)}</dc:title><dc:creator>workspace-gateway</dc:creator>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${w3cdtf(created)}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${w3cdtf(modified)}</dcterms:modified>` +
    `</cp:coreProperties>`
  );
}

export function appProperties(sheetNames: readonly string[]): string {
  const titles = sheetNames.map((name) => `<vt:lpstr>${xmlText(name)}</vt:lpstr>`).join("");
  return (
    `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
    `xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
    `<Application>workspace-gateway</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>` +
    `<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant>` +
    `<vt:variant><vt:i4>${sheetNames.length}</vt:i4></vt:variant></vt:vector></HeadingPairs>` +
    `<TitlesOfParts><vt:vector size="${sheetNames.length}" baseType="lpstr">${titles}</vt:vector></TitlesOfParts>` +
    `<LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged><AppVersion>16.0300</AppVersion>` +
    `</Properties>`
  );
}

/** The workbook's <definedNames> (sheet-local names by the index of their sheet); "" for none. */
function definedNames(names: readonly DefinedName[], sheetNames: readonly string[]): string {
  const items = names.flatMap((n) => {
    const local = n.sheet === null ? -1 : sheetNames.findIndex((s) => s.toLowerCase() === n.sheet?.toLowerCase());
    if (n.sheet !== null && local < 0) return [];
    const attrs =
      `name="${xmlAttr(n.name)}"` +
      (local >= 0 ? ` localSheetId="${local}"` : "") +
      (n.hidden ? ' hidden="1"' : "") +
      (n.comment ? ` comment="${xmlAttr(n.comment)}"` : "");
    return [`<definedName ${attrs}>${xmlText(n.formula)}</definedName>`];
  });
  return items.length === 0 ? "" : `<definedNames>${items.join("")}</definedNames>`;
}

export function workbook(sheetNames: readonly string[], names: readonly DefinedName[] = []): string {
  const sheets = sheetNames.map((name, i) => `<sheet name="${xmlAttr(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("");
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<workbookPr/><bookViews><workbookView activeTab="0"/></bookViews>` +
    `<sheets>${sheets}</sheets>${definedNames(names, sheetNames)}<calcPr calcId="${CALC_ID}" fullCalcOnLoad="1"/></workbook>`
  );
}

export function workbookRelationships(sheetCount: number, metadata = false): string {
  const sheets = Array.from(
    { length: sheetCount },
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  ).join("");
  return (
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">${sheets}` +
    `<Relationship Id="rId${sheetCount + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    `<Relationship Id="rId${sheetCount + 2}" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
    (metadata ? `<Relationship Id="rId${sheetCount + 3}" Type="${REL_NS}/sheetMetadata" Target="metadata.xml"/>` : "") +
    `</Relationships>`
  );
}
