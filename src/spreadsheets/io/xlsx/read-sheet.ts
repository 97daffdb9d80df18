// One worksheet part, streamed (SAX, ../../../ooxml/parts.ts) into a compact store (./cell-store.ts):
// rows and cells with or without their r attributes, every cell type (shared, inline and rich
// strings, formula strings, numbers, booleans, errors, ISO dates), formulas (normal, the anchors
// and members of shared groups, array formulas with their range, dynamic arrays by their cell
// metadata), and each cell's style for its number format. The other cells of an array formula's
// range hold its cached results: they are left out (the engine computes and fills them again).
// 1904-system dates are moved to the 1900 system. Counts cells and checks their text
// against the workbook's limits as they come (413).
import { parseXmlPart, scanXmlPart, unsupported, XLSX, type Budget, type XmlElement, type ZipItem } from "../../../ooxml/index.ts";
import { quoteSheetName } from "../../cells/a1.ts";
import { cellAddress, parseCellAddress } from "../../cells/cells.ts";
import { serialFrom1904, serialFromIso } from "../../cells/dates.ts";
import { FIRST_CELLS, type ImportFacts } from "../../report/types.ts";
import { ERROR_VALUES, MAX_COLUMNS, MAX_ROWS } from "../../cells/types.ts";
import { CellStore, Kind } from "./cell-store.ts";
import { cellTooLong, tooManyCells, type XlsxLimits } from "./read-limits.ts";
import { decodeXstring } from "./xstring.ts";

export interface SheetContext {
  budget: Budget;
  limits: XlsxLimits;
  sharedStrings: readonly string[];
  /** Per style: whether it formats dates. */
  dates: readonly boolean[];
  date1904: boolean;
  /** Style index of the default date and date-time formats, for ISO cells with no date style of their own. */
  isoDate: number;
  isoDateTime: number;
  /** Non-empty cells read so far across the workbook. */
  cells: { count: number };
  /** Cell metadata blocks (`cm`) that mark dynamic-array formulas (./read-metadata.ts). */
  dynamicBlocks: ReadonlySet<number>;
  /** What the workbook will not keep, counted as it is met (data tables, sheet items). */
  facts: ImportFacts;
}

interface PendingCell {
  row: number;
  column: number;
  type: string;
  style: number;
  value: string | undefined;
  inline: string | undefined;
  formula: { type: string; shared: string | undefined; ref: string | undefined; text: string } | undefined;
  /** The cell metadata block (cm), 0 for none. */
  cm: number;
}

/** Worksheet elements the gateway does not keep, by the feature a warning names. */
const SHEET_ITEMS: Record<string, string> = {
  conditionalFormatting: "conditionalFormatting",
  dataValidation: "dataValidation",
  mergeCell: "mergedCells",
  hyperlink: "hyperlinks",
};

/** Where text goes: nowhere, a cell's <v>, its <f>, or an inline string's <t> (not its phonetic runs). */
const enum Sink {
  None,
  Value,
  Formula,
  Inline,
}

const ERROR_INDEX = new Map<string, number>(ERROR_VALUES.map((e, i) => [e, i]));

class SheetReader {
  readonly store: CellStore;
  private row = -1;
  private column = -1;
  private cell: PendingCell | undefined;
  private readonly pending: PendingCell = {
    row: 0,
    column: 0,
    type: "n",
    style: 0,
    value: undefined,
    inline: undefined,
    formula: undefined,
    cm: 0,
  };
  private sink = Sink.None;
  private phonetic = 0;
  private readonly shared = new Map<string, number>();
  /** Ranges of array formulas whose other cells are still to come (their cached values are left out). */
  private arrays: { top: number; left: number; bottom: number; right: number }[] = [];

  constructor(
    private readonly sheet: string,
    private readonly context: SheetContext,
  ) {
    this.store = new CellStore(context.budget);
  }

  private malformed(why: string) {
    return unsupported("malformed", XLSX, `its sheet ${JSON.stringify(this.sheet)} ${why}`);
  }

  open(element: XmlElement): void {
    switch (element.local) {
      case "row": {
        const r = element.attribute("r");
        this.row = r === undefined ? this.row + 1 : Number(r) - 1;
        if (!Number.isInteger(this.row) || this.row < 0 || this.row >= MAX_ROWS)
          throw this.malformed(`has a row numbered ${JSON.stringify(r)}`);
        this.column = -1;
        break;
      }
      case "c":
        this.openCell(element);
        break;
      case "v":
        if (this.cell) {
          this.cell.value = "";
          this.sink = Sink.Value;
        }
        break;
      case "f":
        if (this.cell) {
          this.cell.formula = {
            type: element.attribute("t") ?? "normal",
            shared: element.attribute("si"),
            ref: element.attribute("ref"),
            text: "",
          };
          this.sink = Sink.Formula;
        }
        break;
      case "is":
        if (this.cell) this.cell.inline = "";
        break;
      case "rPh":
        this.phonetic++;
        break;
      case "t":
        if (this.cell?.inline !== undefined && this.phonetic === 0) this.sink = Sink.Inline;
        break;
      default: {
        const item = SHEET_ITEMS[element.local];
        if (item) this.context.facts.sheetItems[item] = (this.context.facts.sheetItems[item] ?? 0) + 1;
      }
    }
  }

  private openCell(element: XmlElement): void {
    const r = element.attribute("r");
    let row = this.row;
    let column = this.column + 1;
    if (r !== undefined) {
      const address = parseCellAddress(r);
      if (!address)
        throw this.malformed(`has a cell at ${JSON.stringify(r.slice(0, 20))}, which is not a cell address within the sheet's limits`);
      ({ row, column } = address);
    }
    if (row < 0) row = 0;
    if (column >= MAX_COLUMNS) throw this.malformed(`has a cell past column XFD in row ${row + 1}`);
    this.row = row;
    this.column = column;
    const style = Number(element.attribute("s") ?? 0);
    const cm = Number(element.attribute("cm") ?? 0);
    // One object for every cell in turn: nothing of it is kept once the cell is finished.
    const cell = (this.cell = this.pending);
    cell.cm = Number.isInteger(cm) && cm > 0 ? cm : 0;
    cell.row = row;
    cell.column = column;
    cell.type = element.attribute("t") ?? "n";
    cell.style = Number.isInteger(style) && style >= 0 && style < 0xfffd ? style : 0;
    cell.value = undefined;
    cell.inline = undefined;
    cell.formula = undefined;
  }

  text(text: string): void {
    const cell = this.cell;
    if (!cell || this.sink === Sink.None) return;
    if (this.sink === Sink.Value) cell.value += text;
    else if (this.sink === Sink.Formula) cell.formula!.text += text;
    else cell.inline += text;
  }

  /** Text is used only inside a cell's <v>, <f> or inline <t> (the scanner decodes nothing else). */
  wantsText(): boolean {
    return this.sink !== Sink.None && this.cell !== undefined;
  }

  close(_name: string, local: string): void {
    if (local === "v" || local === "f" || local === "t") this.sink = Sink.None;
    else if (local === "rPh") this.phonetic--;
    else if (local === "c" && this.cell) {
      this.finish(this.cell);
      this.cell = undefined;
    }
  }

  private checkText(text: string, cell: PendingCell): string {
    if (text.length > this.context.limits.cellText)
      throw cellTooLong(this.context.limits.cellText, `${this.sheet}!${cellAddress(cell.row, cell.column)}`);
    return text;
  }

  /** Whether a cell lies in an array formula's range (and is not its first cell). */
  private inArray(row: number, column: number): boolean {
    if (this.arrays.length === 0) return false;
    this.arrays = this.arrays.filter((a) => a.bottom >= row);
    return this.arrays.some((a) => row >= a.top && row <= a.bottom && column >= a.left && column <= a.right);
  }

  private finish(cell: PendingCell): void {
    if (!cell.formula && this.inArray(cell.row, cell.column)) return;
    const formula = this.formulaOf(cell);
    this.valueOf(cell);
    if (this.kind === Kind.Empty && formula < 0) return;
    if (++this.context.cells.count > this.context.limits.cells) throw tooManyCells(this.context.limits.cells);
    this.store.add(cell.row, cell.column, this.kind, this.value, formula, this.style);
  }

  /** Counts a what-if data table: the workbook keeps its cells' values and does not compute it. */
  private countDataTable(f: NonNullable<PendingCell["formula"]>, cell: PendingCell): void {
    const facts = this.context.facts.dataTables;
    const ref = f.ref ?? cellAddress(cell.row, cell.column);
    facts.count++;
    if (facts.ranges.length < FIRST_CELLS) facts.ranges.push(`${quoteSheetName(this.sheet)}!${ref.slice(0, 40)}`);
  }

  /** The cell's formula entry: its own, its shared group's, or -1. */
  private formulaOf(cell: PendingCell): number {
    const f = cell.formula;
    if (f?.type === "dataTable") this.countDataTable(f, cell);
    if (!f || f.type === "dataTable") return -1;
    const text = f.text;
    const dynamic = cell.cm > 0 && this.context.dynamicBlocks.has(cell.cm);
    if (f.type === "shared" && f.shared !== undefined) {
      if (text === "") return this.shared.get(f.shared) ?? -1;
      const entry = this.store.addFormula({ text, row: cell.row, column: cell.column, shared: true, dynamic });
      this.shared.set(f.shared, entry);
      return entry;
    }
    if (text === "") return -1;
    const array = f.type === "array" ? this.arrayRange(f.ref, cell) : undefined;
    return this.store.addFormula({ text, row: cell.row, column: cell.column, shared: false, dynamic, ...(array ? { array } : {}) });
  }

  /** An array formula's range, which must start at its cell ("A1:C3"; one cell when none is given); remembered so its other cells are skipped. */
  private arrayRange(ref: string | undefined, cell: PendingCell): string {
    const [a, b] = (ref ?? "").split(":");
    const first = a ? parseCellAddress(a) : null;
    const last = b ? parseCellAddress(b) : first;
    if (!first || !last || first.row !== cell.row || first.column !== cell.column || last.row < first.row || last.column < first.column)
      return cellAddress(cell.row, cell.column);
    if (last.row > first.row || last.column > first.column)
      this.arrays.push({ top: first.row, left: first.column, bottom: last.row, right: last.column });
    return `${cellAddress(first.row, first.column)}:${cellAddress(last.row, last.column)}`;
  }

  /** A cell's value as the store keeps it, set by valueOf (fields, not a tuple per cell: less for the worker's small young generation). */
  private kind = Kind.Empty;
  private value = 0;
  private style = 0;
  private out(kind: Kind, value: number, style: number): void {
    this.kind = kind;
    this.value = value;
    this.style = style;
  }

  private valueOf(cell: PendingCell): void {
    const raw = cell.value;
    const { context } = this;
    switch (cell.type) {
      case "s": {
        const index = Number(raw);
        const text = context.sharedStrings[index];
        if (raw === undefined || raw === "") return this.out(Kind.Empty, 0, cell.style);
        if (text === undefined) throw this.malformed(`refers to shared string ${JSON.stringify(raw.slice(0, 20))}, which does not exist`);
        this.checkText(text, cell);
        return this.out(Kind.SharedString, index, cell.style);
      }
      case "inlineStr":
        return cell.inline !== undefined
          ? this.out(Kind.LocalString, this.store.addString(this.checkText(decodeXstring(cell.inline), cell)), cell.style)
          : this.out(Kind.Empty, 0, cell.style);
      case "str":
        return raw === undefined
          ? this.out(Kind.Empty, 0, cell.style)
          : this.out(Kind.LocalString, this.store.addString(this.checkText(decodeXstring(raw), cell)), cell.style);
      case "b":
        return raw === undefined || raw === ""
          ? this.out(Kind.Empty, 0, cell.style)
          : this.out(Kind.Boolean, raw.trim() === "1" || raw.trim() === "true" ? 1 : 0, cell.style);
      case "e":
        return raw === undefined
          ? this.out(Kind.Empty, 0, cell.style)
          : this.out(Kind.Error, ERROR_INDEX.get(raw.trim()) ?? ERROR_INDEX.get("#VALUE!")!, cell.style);
      case "d": {
        if (raw === undefined || raw === "") return this.out(Kind.Empty, 0, cell.style);
        // Excel's ISO cells may carry a UTC designator; the day and time are what the cell shows.
        const iso = serialFromIso(raw.trim().replace(/(Z|[+-]00:?00)$/, ""));
        if (!iso) throw this.malformed(`has a date cell ${JSON.stringify(raw.slice(0, 40))} that is not an ISO 8601 date from 1900 on`);
        const style = context.dates[cell.style] ? cell.style : iso.kind === "date" ? context.isoDate : context.isoDateTime;
        return this.out(Kind.Number, iso.serial, style);
      }
      default: {
        if (raw === undefined || raw.trim() === "") return this.out(Kind.Empty, 0, cell.style);
        const number = Number(raw);
        if (!Number.isFinite(number)) throw this.malformed(`has a number cell ${JSON.stringify(raw.slice(0, 40))} that is not a number`);
        // A 1904 workbook's dates: the same day as a 1900-system serial.
        return this.out(Kind.Number, context.date1904 && context.dates[cell.style] ? serialFrom1904(number) : number, cell.style);
      }
    }
  }
}

/** Reads one worksheet part into a store of its cells: scanned (plain XML), else parsed in full from the start again. */
export function readSheet(name: string, item: ZipItem, context: SheetContext): CellStore {
  const facts = structuredClone(context.facts);
  const cells = context.cells.count;
  const scanned = new SheetReader(name, context);
  if (scanXmlPart(item, context.budget, scanned)) return scanned.store;
  Object.assign(context.facts, facts);
  context.cells.count = cells;
  const reader = new SheetReader(name, context);
  parseXmlPart(
    item,
    context.budget,
    {
      open: (element) => reader.open(element),
      text: (text) => reader.text(text),
      close: (name, local) => reader.close(name, local),
    },
    { namespaces: false },
  );
  return reader.store;
}
