// An uploaded .xlsx → WorkbookData (../../cells/types.ts), from any writer (Excel, LibreOffice, Google
// Sheets, openpyxl, ExcelJS). The package is opened and checked by ../../ooxml/ (zip bounds, part
// names, content types, relationships, XML parsed with DTDs refused); then the workbook part, the
// styles and the shared strings (wherever they lie in the zip), and each worksheet streamed into
// a compact store. Sheets come in the workbook's order, hidden ones too; chartsheets and dialog
// sheets are skipped. Refused (UnsupportedPackage, 415): not a zip, encrypted, macros, no
// workbook; past a limit (PackageTooLarge, 413): ./read-limits.ts. What the workbook will not keep
// (charts, pivot tables, links to other workbooks, data tables…) is counted as `facts`, and each
// formula cell's saved value can be read again (`formulaValues`) for the import's report.
import { OpcPackage, XLSX, type ZipItem } from "../../../ooxml/index.ts";
import { DATE_FORMAT, DATETIME_FORMAT } from "../../cells/formats.ts";
import { noFacts, type ImportFacts } from "../../report/types.ts";
import type { SheetData, WorkbookData } from "../../cells/types.ts";
import type { CellContext } from "./cell-store.ts";
import { sharedStringBound, XLSX_LIMITS, type XlsxLimits } from "./read-limits.ts";
import { readSharedStrings } from "./read-shared-strings.ts";
import { readSheet, type SheetContext } from "./read-sheet.ts";
import { dynamicArrayBlocks } from "./read-metadata.ts";
import { readStyles } from "./read-styles.ts";
import { readTables } from "./read-tables.ts";
import { readWorkbook } from "./read-workbook.ts";

const ISO_DATE = 0xfffe;
const ISO_DATE_TIME = 0xfffd;

export interface ReadXlsxOptions {
  /** Tests lower these; the service passes SHEETS_MAX_CELLS as `cells`. */
  limits?: Partial<XlsxLimits>;
}

/** Parts of a package the workbook does not keep, by content type, and the feature a warning names. */
const PART_FEATURES: [type: RegExp, feature: string][] = [
  [/drawingml\.chart\+xml$/i, "charts"],
  [/^image\//i, "images"],
  [/spreadsheetml\.pivotTable\+xml$/i, "pivotTables"],
  [/spreadsheetml\.comments\+xml$/i, "comments"],
  [/spreadsheetml\.connections\+xml$/i, "dataConnections"],
  [/spreadsheetml\.queryTable\+xml$/i, "queryTables"],
  [/ms-excel\.(slicer|timeline)\+xml$/i, "slicers"],
  [/(ctrlProp\+xml|activeX\+xml)$/i, "formControls"],
];

function packageFacts(pkg: OpcPackage, facts: ImportFacts): void {
  for (const item of pkg.items) {
    const type = pkg.contentType(item.name) ?? "";
    const feature = PART_FEATURES.find(([pattern]) => pattern.test(type))?.[1];
    if (feature) facts.parts[feature] = (facts.parts[feature] ?? 0) + 1;
  }
}

export function readXlsx(bytes: Uint8Array, options: ReadXlsxOptions = {}): WorkbookData {
  const limits: XlsxLimits = { ...XLSX_LIMITS, ...options.limits };
  // External relationships are never followed by this reader, and the package is not stored: a
  // workbook linking other workbooks or web pages is read for its cells.
  const pkg = OpcPackage.open(bytes, { kind: XLSX, limits, allowExternal: () => true });
  const workbook = readWorkbook(pkg, limits);
  const facts = noFacts();
  packageFacts(pkg, facts);
  facts.externalLinks = workbook.externalLinks;
  facts.skippedSheets = workbook.skipped;
  // What the directory declares is a hint only (bytes are counted as they come), but a package
  // that declares more than a bound is refused before anything more is inflated.
  const parsed = [workbook.styles, workbook.sharedStrings, workbook.metadata, ...workbook.sheets.map((sheet) => sheet.item)];
  const declared = (items: readonly (ZipItem | undefined)[]) => items.reduce((sum, item) => sum + (item?.declaredSize ?? 0), 0);
  pkg.budget.declared(declared(pkg.items), declared(parsed));
  const styles = readStyles(workbook.styles, pkg.budget);
  // Bounded by the sheets' declared sizes only where a part cannot inflate past what it declares.
  const sheetSizes = limits.declaredSizes === "bound" ? workbook.sheets.map((sheet) => sheet.item.declaredSize) : [Infinity];
  const sharedStrings = readSharedStrings(workbook.sharedStrings, pkg.budget, sharedStringBound(limits.cells, sheetSizes));
  // ISO date cells without a date style of their own get one of these two, at style indexes no
  // workbook uses (Excel allows 64,000 styles; the store keeps 16 bits).
  const iso = new Map([
    [ISO_DATE, DATE_FORMAT],
    [ISO_DATE_TIME, DATETIME_FORMAT],
  ]);
  const context: SheetContext = {
    budget: pkg.budget,
    limits,
    sharedStrings,
    dates: styles.dates,
    date1904: workbook.date1904,
    isoDate: ISO_DATE,
    isoDateTime: ISO_DATE_TIME,
    cells: { count: 0 },
    dynamicBlocks: dynamicArrayBlocks(workbook.metadata, pkg.budget),
    facts,
  };
  const cellContext: CellContext = { sharedStrings, format: (style) => iso.get(style) ?? styles.formats[style] };
  const sheets: SheetData[] = workbook.sheets.map(({ name, item }) => {
    const store = readSheet(name, item, context);
    const tables = readTables(pkg, item.name);
    return {
      name,
      rows: () => store.rowsOf(cellContext),
      formulaValues: () => store.formulaValuesOf(cellContext),
      ...(tables.length > 0 ? { tables } : {}),
    };
  });
  return { sheets, facts, ...(workbook.names.length > 0 ? { names: workbook.names } : {}) };
}
