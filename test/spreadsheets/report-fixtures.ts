// An .xlsx as Excel would save it, for the import report's tests (./report.test.ts,
// ./warnings-surfaces.test.ts): formulas with their saved values — some the engine computes
// otherwise, one calling a function it lacks, one without a value, one linking another workbook, one refused —
// an array formula (computed, no warning), a data table, a chart, merged cells and a conditional format.
import { buildXlsx } from "./xlsx-fixtures.ts";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const TYPES = "application/vnd.openxmlformats-officedocument";

const sheet = (rows: string, after = "") =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${rows}</sheetData>${after}</worksheet>`;

/** A workbook as Excel would save it: formulas with their cached values, some the engine computes otherwise. */
export function excelLike(): Uint8Array {
  const data = sheet(
    `<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*3</f><v>6</v></c><c r="C1"><f>FOOBAR(A1)</f><v>42</v></c>` +
      `<c r="D1"><f>A1/3</f><v>0.5</v></c><c r="E1"><f>A1+1</f></c><c r="F1"><f>[1]Prices!A1*2</f><v>10</v></c>` +
      `<c r="G1"><f>NOW()</f><v>1</v></c><c r="H1"><f>D1*2</f><v>1</v></c><c r="I1" t="str"><f>WEBSERVICE("http://x")</f><v>fetched</v></c></row>` +
      `<row r="2"><c r="A2"><f t="array" ref="A2:A3">A1*{1;2}</f><v>2</v></c><c r="B2"><f t="dataTable" ref="B2:B3" dt2D="0" dtr="0" r1="A1"/><v>7</v></c>` +
      `<c r="C2" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="D2" t="str"><f>"a"&amp;"b"</f><v>ab</v></c></row>` +
      `<row r="3"><c r="A3"><v>4</v></c><c r="B3"><v>8</v></c></row>`,
    `<mergeCells count="1"><mergeCell ref="E3:F3"/></mergeCells><conditionalFormatting sqref="A1:A3"><cfRule type="cellIs" priority="1" operator="greaterThan"><formula>1</formula></cfRule></conditionalFormatting>`,
  );
  return buildXlsx({
    sheets: [{ name: "Data", data }],
    overrides: {
      "/xl/charts/chart1.xml": `${TYPES}.drawingml.chart+xml`,
      "/xl/externalLinks/externalLink1.xml": `${TYPES}.spreadsheetml.externalLink+xml`,
    },
    workbookRelationships: [`<Relationship Id="rIdX" Type="${REL}/externalLink" Target="externalLinks/externalLink1.xml"/>`],
    workbookExtra: `<externalReferences><externalReference r:id="rIdX"/></externalReferences>`,
    extra: {
      "xl/charts/chart1.xml": `<?xml version="1.0"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"/>`,
      "xl/externalLinks/externalLink1.xml": `<?xml version="1.0"?><externalLink xmlns="${MAIN}"/>`,
      "xl/externalLinks/_rels/externalLink1.xml.rels": `<?xml version="1.0"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/externalLinkPath" Target="file:///C:/Data/Prices.xlsx" TargetMode="External"/></Relationships>`,
    },
  });
}
