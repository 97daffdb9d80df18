// Hand-built .xlsx packages for the reader's tests: each part written here, in the zip order the
// test asks for (shared strings after the sheets, say), so every construct a writer may use is
// exercised without committing binaries.
import { strToU8, zipSync, type Zippable } from "fflate";
import { expect } from "vitest";
import { cellAddress } from "../../src/spreadsheets/cells/cells.ts";
import type { Cell, SheetData } from "../../src/spreadsheets/cells/types.ts";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

export interface SheetSpec {
  name: string;
  /** The inside of <sheetData>, or a whole part when it starts with "<?xml". */
  data: string;
  state?: "visible" | "hidden" | "veryHidden";
  kind?: "worksheet" | "chartsheet";
}

export interface WorkbookSpec {
  sheets: SheetSpec[];
  /** <si> items of the shared strings part (absent: no part). */
  sharedStrings?: string[];
  /** The inside of <styleSheet> (absent: no part). */
  styles?: string;
  date1904?: boolean;
  /** Shared strings and styles after the sheets in the zip (default) or before. */
  stringsFirst?: boolean;
  /** The workbook's content type. */
  workbookType?: string;
  /** More entries, raw. */
  extra?: Record<string, string | Uint8Array>;
  /** Content types of more parts, by part name ("/xl/charts/chart1.xml"). */
  overrides?: Record<string, string>;
  /** More of the workbook part, after <sheets> (<definedNames>, <externalReferences> …). */
  workbookExtra?: string;
  /** More relationships of the workbook part, as <Relationship …/> elements. */
  workbookRelationships?: string[];
}

export const sheetXml = (data: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${data}</sheetData></worksheet>`;

export function buildXlsx(spec: WorkbookSpec): Uint8Array {
  const type = spec.workbookType ?? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml";
  const overrides = [`<Override PartName="/xl/workbook.xml" ContentType="${type}"/>`];
  const relationships: string[] = [];
  const sheetEntries: string[] = [];
  const parts: [string, string | Uint8Array][] = [];
  spec.sheets.forEach((sheet, i) => {
    const kind = sheet.kind ?? "worksheet";
    const part = `xl/${kind}s/sheet${i + 1}.xml`;
    overrides.push(`<Override PartName="/${part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.${kind}+xml"/>`);
    relationships.push(`<Relationship Id="rId${i + 1}" Type="${REL}/${kind}" Target="${kind}s/sheet${i + 1}.xml"/>`);
    const state = sheet.state ? ` state="${sheet.state}"` : "";
    sheetEntries.push(`<sheet name="${sheet.name}" sheetId="${i + 1}"${state} r:id="rId${i + 1}"/>`);
    parts.push([part, sheet.data.startsWith("<?xml") ? sheet.data : sheetXml(sheet.data)]);
  });
  const shared: [string, string][] = [];
  if (spec.sharedStrings) {
    overrides.push(
      `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`,
    );
    relationships.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
    shared.push([
      "xl/sharedStrings.xml",
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="${spec.sharedStrings.length}">${spec.sharedStrings.map((si) => `<si>${si}</si>`).join("")}</sst>`,
    ]);
  }
  if (spec.styles) {
    overrides.push(
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>`,
    );
    relationships.push(`<Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/>`);
    shared.push(["xl/styles.xml", `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${MAIN}">${spec.styles}</styleSheet>`]);
  }
  const pr = spec.date1904 ? `<workbookPr date1904="1"/>` : "";
  for (const [part, type] of Object.entries(spec.overrides ?? {})) overrides.push(`<Override PartName="${part}" ContentType="${type}"/>`);
  relationships.push(...(spec.workbookRelationships ?? []));
  const files: Zippable = {};
  const put = (name: string, content: string | Uint8Array) => (files[name] = typeof content === "string" ? strToU8(content) : content);
  put(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>${overrides.join("")}</Types>`,
  );
  put(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  put(
    "xl/workbook.xml",
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}">${pr}<sheets>${sheetEntries.join("")}</sheets>${spec.workbookExtra ?? ""}</workbook>`,
  );
  put(
    "xl/_rels/workbook.xml.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}">${relationships.join("")}</Relationships>`,
  );
  if (spec.stringsFirst) for (const [name, xml] of shared) put(name, xml);
  for (const [name, xml] of parts) put(name, xml);
  if (!spec.stringsFirst) for (const [name, xml] of shared) put(name, xml);
  for (const [name, content] of Object.entries(spec.extra ?? {})) put(name, content);
  return zipSync(files);
}

/** A sheet's cells by A1 address, checking the rows come in ascending order with no empty row. */
export function cellsOf(sheet: SheetData): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  let last = -1;
  for (const [row, cells] of sheet.rows()) {
    expect(row).toBeGreaterThan(last);
    last = row;
    expect(cells.some((cell) => cell !== undefined)).toBe(true);
    cells.forEach((cell, column) => {
      if (cell) out[cellAddress(row, column)] = cell;
    });
  }
  return out;
}
