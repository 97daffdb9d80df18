// The workbook part of an .xlsx (ECMA-376 Part 1, §18.2): its sheets in order with their names and
// parts (worksheets only: chartsheets and dialog sheets hold no cells and are skipped), the 1904
// date system flag, its defined names, and where its shared strings, styles and cell metadata are. Refuses what we do not import:
// a binary or macro-enabled workbook, or one carrying VBA or Excel 4 macro sheets (415).
import { parseXmlPart, typeName, unsupported, XLSX, type OpcPackage, type ZipItem } from "../../../ooxml/index.ts";
import type { DefinedName } from "../../workbook/names.ts";
import { tooManySheets, type XlsxLimits } from "./read-limits.ts";
import { decodeXstring } from "./xstring.ts";

const WORKBOOK_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
]);
const MACRO_TYPES = /^application\/vnd\.ms-excel\.(sheet|template|addin)\.macroenabled\.main\+xml$/i;
const BINARY_TYPE = /^application\/vnd\.ms-excel\.sheet\.binary\.macroenabled\.main$/i;
const VBA_TYPE = /^application\/vnd\.ms-office\.vbaproject$/i;
const MACRO_RELATIONSHIPS = new Set(["vbaProject", "macrosheet", "xlMacrosheet", "xlIntlMacrosheet"]);
const SKIPPED_SHEETS = new Set(["chartsheet", "dialogsheet"]);

export interface SheetPart {
  name: string;
  item: ZipItem;
}

export interface WorkbookInfo {
  date1904: boolean;
  sheets: SheetPart[];
  /** Chartsheets and dialog sheets, by name: they hold no cells. */
  skipped: string[];
  /** The other workbooks its formulas link to ([1], [2]… in this order), as the file names them. */
  externalLinks: string[];
  sharedStrings: ZipItem | undefined;
  styles: ZipItem | undefined;
  /** Cell metadata (which formulas are dynamic arrays), when the workbook has it. */
  metadata: ZipItem | undefined;
  names: DefinedName[];
}

interface DeclaredName {
  name: string;
  /** Index into the workbook's <sheets>, for a name local to a sheet. */
  local: number | null;
  hidden: boolean;
  comment: string | undefined;
  formula: string;
}

/** Defined names as .xlsx writes them, with sheet-local ones on their sheet's name; those naming other workbooks are left out. */
function namesOf(declared: DeclaredName[], sheets: { name: string }[], kept: Set<string>): DefinedName[] {
  const out: DefinedName[] = [];
  for (const d of declared) {
    const sheet = d.local === null ? null : sheets[d.local]?.name;
    // A name on a chartsheet, or one pointing into another workbook ([1]Sheet1!A1): nothing here can compute it.
    if (sheet === undefined || (sheet !== null && !kept.has(sheet)) || /(^|[^'])\[\d+\]/.test(d.formula) || d.formula.trim() === "")
      continue;
    out.push({
      name: d.name,
      sheet,
      formula: d.formula,
      ...(d.hidden ? { hidden: true } : {}),
      ...(d.comment ? { comment: d.comment } : {}),
    });
  }
  return out;
}

/** Refuses a package with macros: a VBA project (by name, type or relationship) or a macro sheet. */
function refuseMacros(pkg: OpcPackage, workbook: string): void {
  const macros = () =>
    unsupported("macros", XLSX, "it carries macros (a macro-enabled workbook or a VBA project), which are never imported");
  for (const item of pkg.items) {
    if (/(^|\/)vbaProject\.bin$/i.test(item.name) || VBA_TYPE.test(pkg.contentType(item.name) ?? "")) throw macros();
  }
  if (pkg.relationships(workbook).some((r) => MACRO_RELATIONSHIPS.has(typeName(r.type)))) throw macros();
}

function checkType(pkg: OpcPackage, workbook: ZipItem): void {
  const type = (pkg.contentType(workbook.name) ?? "").trim();
  if (MACRO_TYPES.test(type)) {
    throw unsupported("macros", XLSX, "it is a macro-enabled workbook (.xlsm), whose macros are never imported");
  }
  if (BINARY_TYPE.test(type)) throw unsupported("not-package", XLSX, "it is a binary workbook (.xlsb), not an Office Open XML one");
  if (!WORKBOOK_TYPES.has(type.toLowerCase())) {
    throw unsupported("not-package", XLSX, `its main part is ${type ? `of type ${type}` : "of no declared type"}, not a workbook`);
  }
}

/** The file an externalLink part stands for (its external relationship's target), or "(unknown)". */
function linkTarget(pkg: OpcPackage, part: string | undefined): string {
  const target = part === undefined ? undefined : pkg.relationships(part).find((r) => r.external)?.target;
  return target ?? "(unknown)";
}

export function readWorkbook(pkg: OpcPackage, limits: XlsxLimits): WorkbookInfo {
  const workbook = pkg.mainPart();
  checkType(pkg, workbook);
  refuseMacros(pkg, workbook.name);
  const declared: { name: string; id: string }[] = [];
  const names: DeclaredName[] = [];
  let name: DeclaredName | null = null;
  const externalReferences: string[] = [];
  let date1904 = false;
  parseXmlPart(workbook, pkg.budget, {
    open(element) {
      if (element.local === "workbookPr") {
        const flag = element.attribute("date1904");
        date1904 = flag === "1" || flag === "true";
      } else if (element.local === "sheet") {
        if (declared.length >= limits.sheets) throw tooManySheets(limits.sheets);
        declared.push({ name: element.attribute("name") ?? "", id: element.attribute("id") ?? "" });
      } else if (element.local === "externalReference" && externalReferences.length < limits.sheets) {
        externalReferences.push(element.attribute("id") ?? "");
      } else if (element.local === "definedName") {
        const local = element.attribute("localSheetId");
        const hidden = element.attribute("hidden");
        name = {
          name: decodeXstring(element.attribute("name") ?? ""),
          local: local === undefined || !/^\d+$/.test(local) ? null : Number(local),
          hidden: hidden === "1" || hidden === "true",
          comment: element.attribute("comment"),
          formula: "",
        };
      }
    },
    text(text) {
      if (name) name.formula += text;
    },
    close(_name, local) {
      if (local === "definedName" && name) {
        names.push({ ...name, formula: decodeXstring(name.formula) });
        name = null;
      }
    },
  });
  const relationships = pkg.relationships(workbook.name);
  const sheets: SheetPart[] = [];
  const skipped: string[] = [];
  for (const sheet of declared) {
    const relationship = relationships.find((r) => r.id === sheet.id);
    if (!relationship)
      throw unsupported("malformed", XLSX, `its sheet ${JSON.stringify(sheet.name)} has no part (relationship ${sheet.id} is missing)`);
    const type = typeName(relationship.type);
    if (SKIPPED_SHEETS.has(type)) {
      skipped.push(sheet.name);
      continue;
    }
    if (type !== "worksheet")
      throw unsupported("malformed", XLSX, `its sheet ${JSON.stringify(sheet.name)} is a ${type || "part of no type"}, not a worksheet`);
    const item = relationship.part === undefined ? undefined : pkg.get(relationship.part);
    if (!item) throw unsupported("malformed", XLSX, `the part of its sheet ${JSON.stringify(sheet.name)} is missing`);
    sheets.push({ name: sheet.name, item });
  }
  const part = (type: string) => relationships.find((r) => typeName(r.type) === type && !r.external);
  const item = (type: string) => {
    const relationship = part(type);
    return relationship?.part === undefined ? undefined : pkg.get(relationship.part);
  };
  const kept = new Set(sheets.map((s) => s.name));
  return {
    date1904,
    sheets,
    skipped,
    externalLinks: externalReferences.map((id) => linkTarget(pkg, relationships.find((r) => r.id === id)?.part)),
    sharedStrings: item("sharedStrings"),
    styles: item("styles"),
    metadata: item("sheetMetadata"),
    names: namesOf(names, declared, kept),
  };
}
