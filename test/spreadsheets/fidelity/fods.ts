// Writes the fidelity corpus as a flat ODF spreadsheet (.fods) that LibreOffice computes on load:
// sheet "Data" holds the fixtures, sheet "Calc" one formula a row in column A (in Excel syntax,
// table:formula="msoxl:…", as .xlsx stores it) and, beside it, what tells the result's type
// apart in CSV: ISLOGICAL, ISERROR, ISNUMBER and the number as TEXT with 15 significant digits.
import { tokenize } from "@borgar/fx";
import { toXlsxFormula } from "../../../src/spreadsheets/formula/xlsx.ts";
import type { JsonCellInput } from "../../../src/spreadsheets/workbook/values.ts";

const xml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * A formula as Calc's Excel-syntax import reads it: newer functions with "_xlfn." (as .xlsx keeps
 * them) and the constants TRUE/FALSE as TRUE()/FALSE() (Calc's msoxl import reads a bare TRUE as 1).
 */
export function forCalc(formula: string): string {
  const text = toXlsxFormula(formula);
  return tokenize(`=${text}`, { mergeRefs: true })
    .map((t) => (t.type === "bool" ? `${t.value.toUpperCase()}()` : t.value))
    .join("");
}

function cell(value: JsonCellInput): string {
  if (value === null) return "<table:table-cell/>";
  if (typeof value === "number") return `<table:table-cell office:value-type="float" office:value="${value}"/>`;
  if (typeof value === "boolean") return `<table:table-cell office:value-type="boolean" office:boolean-value="${value}"/>`;
  if (value.startsWith("=")) return `<table:table-cell table:formula="msoxl:${xml(forCalc(value))}"/>`;
  return `<table:table-cell office:value-type="string"><text:p>${xml(value)}</text:p></table:table-cell>`;
}

const formulaCell = (formula: string) => `<table:table-cell table:formula="msoxl:${xml(formula)}"/>`;

function calcRow(formula: string, row: number): string {
  const a = `A${row}`;
  return [
    `<table:table-row>${formulaCell(forCalc(formula))}`,
    formulaCell(`=ISLOGICAL(${a})`),
    formulaCell(`=ISERROR(${a})`),
    formulaCell(`=ISNUMBER(${a})`),
    formulaCell(`=IF(ISNUMBER(${a}),TEXT(${a},"0.00000000000000E+000"),"")`),
    "</table:table-row>",
  ].join("");
}

/** The .fods text: Excel's comparison rules (case-insensitive, wildcards, whole cells), dates from 1899-12-30. */
export function corpusFods(data: JsonCellInput[][], formulas: string[]): string {
  const dataRows = data.map((row) => `<table:table-row>${row.map(cell).join("")}</table:table-row>`).join("\n");
  const calcRows = formulas.map((f, i) => calcRow(f, i + 1)).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" xmlns:msoxl="http://schemas.microsoft.com/office/excel/formula" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet>
<table:calculation-settings table:case-sensitive="false" table:search-criteria-must-apply-to-whole-cell="true" table:use-wildcards="true" table:use-regular-expressions="false" table:automatic-find-labels="false"><table:null-date table:date-value="1899-12-30"/></table:calculation-settings>
<table:table table:name="Data">
${dataRows}
</table:table>
<table:table table:name="Calc">
${calcRows}
</table:table>
</office:spreadsheet></office:body></office:document>
`;
}

/** RFC 4180 CSV → rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}
