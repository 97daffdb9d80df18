// The workbook's state and its cell-level changes: sheets by id and name, the format table, the
// formula compiler and dependency graph, what changed (for recalculation and for the store's tiles).
// model.ts puts the caller-facing operations on top of it.
import { formatRange, sheetNameProblem } from "../cells/a1.ts";
import { cellAddress } from "../cells/cells.ts";
import { Dirt } from "../cells/dirt.ts";
import { SheetsError } from "../cells/errors.ts";
import { dateKindOf, FormatTable } from "../cells/formats.ts";
import { FormulaCompiler } from "../formula/compile.ts";
import type { CompileEnv } from "../formula/env.ts";
import { FUNCTIONS } from "../formula/functions/index.ts";
import { OWN_SHEET, resolveRef, type Program } from "../formula/program.ts";
import { errorCode, isError, type Scalar } from "../formula/values.ts";
import { DependencyGraph } from "./graph.ts";
import {
  CLEAN,
  DIRTY,
  K_BOOLEAN,
  K_EMPTY,
  K_ERROR,
  K_FORMULA,
  K_NUMBER,
  K_SPILL,
  K_STRING,
  slotOf,
  type FormulaCell,
  type Grid,
  type Tile,
} from "../cells/grid.ts";
import { Names } from "./names.ts";
import { WorkbookReport } from "../report/report.ts";
import { Sheet } from "../cells/sheet.ts";
import { clearSpill, spillBox } from "./spill.ts";
import { Tables } from "./tables.ts";
import { MAX_SHEETS } from "../cells/types.ts";
import type { CellInput } from "./values.ts";

/** Non-empty cells a workbook may hold (SHEETS_MAX_CELLS). */
export const DEFAULT_MAX_CELLS = 2_000_000;
/** Characters of a formula, as Excel allows. */
export const MAX_FORMULA_LENGTH = 8192;

export interface BookOptions {
  /** Non-empty cells allowed in the workbook (SHEETS_MAX_CELLS); default 2,000,000. */
  maxCells?: number;
  /** The clock TODAY() and NOW() read, in epoch milliseconds (UTC); default Date.now. */
  now?: () => number;
}

export class Book {
  readonly sheets: Sheet[] = [];
  private readonly byId = new Map<number, Sheet>();
  private readonly byName = new Map<string, Sheet>();
  private nextSid = 1;
  readonly formats = new FormatTable();
  readonly graph = new DependencyGraph();
  readonly names = new Names();
  readonly tables = new Tables();
  /** What formulas compile against: sheets, names, tables. */
  readonly env: CompileEnv = this.compileEnv();
  readonly compiler = new FormulaCompiler(this.env, FUNCTIONS);
  readonly volatile = new Set<FormulaCell>();
  /** Formulas whose array result is blocked (#SPILL!): computed again when a cell in the way changes. */
  readonly blocked = new Set<FormulaCell>();
  readonly dirt = new Dirt();
  readonly maxCells: number;
  readonly now: () => number;
  totalCells = 0;
  /** Cells changed since the last recalculation, and formula cells written (not yet computed). */
  changed: { sid: number; row: number; col: number }[] = [];
  fresh: FormulaCell[] = [];
  /**
   * No formula cell has been computed: every one is in `fresh` (a load into an empty book, until
   * its first recalculation). Nothing then needs `changed`, which marks computed formulas again.
   */
  noneComputed = false;
  warnings = new Set<string>();
  /** What the gateway does not compute as the file's writer did, kept with every version (report/). */
  readonly report = new WorkbookReport();
  /** The stored tiles' hashes per sheet id, once the model was saved or loaded as tiles (tiles.ts). */
  tileIndex: Map<number, { input: Map<string, string>; values: Map<string, string> }> | null = null;

  constructor(options: BookOptions = {}) {
    this.maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
    this.now = options.now ?? Date.now;
  }

  private compileEnv(): CompileEnv {
    return {
      sheetId: (name) => this.byName.get(name.toLowerCase())?.sid ?? -1,
      sheetSpan: (first, last) => {
        const a = this.sheets.findIndex((s) => s.name.toLowerCase() === first.toLowerCase());
        const b = this.sheets.findIndex((s) => s.name.toLowerCase() === last.toLowerCase());
        if (a < 0 || b < 0) return null;
        return this.sheets.slice(Math.min(a, b), Math.max(a, b) + 1).map((s) => s.sid);
      },
      name: (name, sid) => this.names.get(name, sid),
      table: (name) => this.tables.byName(name),
      tableAt: (sid, row, col) => this.tables.at(sid, row, col),
    };
  }

  /** A sheet by name (case-insensitive), or the first sheet for null; UNKNOWN_SHEET otherwise. */
  sheet(name: string | null | undefined): Sheet {
    const sheet = name === null || name === undefined ? this.sheets[0] : this.byName.get(name.toLowerCase());
    if (!sheet) {
      const names = this.sheets.map((s) => `"${s.name}"`).join(", ");
      throw new SheetsError("UNKNOWN_SHEET", `There is no sheet "${name}"; the sheets are ${names}.`, { subject: String(name) });
    }
    return sheet;
  }

  sheetById(sid: number): Sheet | undefined {
    return this.byId.get(sid);
  }

  addSheet(name: string, index = this.sheets.length): Sheet {
    const problem = sheetNameProblem(name);
    if (problem) throw new SheetsError("BAD_INPUT", `${problem[0]?.toUpperCase()}${problem.slice(1)}.`, { subject: name });
    if (this.byName.has(name.toLowerCase()))
      throw new SheetsError("BAD_INPUT", `A sheet named "${name}" already exists (names ignore case).`, { subject: name });
    if (this.sheets.length >= MAX_SHEETS)
      throw new SheetsError("LIMIT", `A workbook holds at most ${MAX_SHEETS} sheets.`, { limit: "MAX_SHEETS" });
    if (!Number.isInteger(index) || index < 0 || index > this.sheets.length)
      throw new SheetsError("BAD_INPUT", `Sheet index ${index} is not between 0 and ${this.sheets.length}.`);
    const sheet = new Sheet(this.nextSid++, name);
    this.sheets.splice(index, 0, sheet);
    this.byId.set(sheet.sid, sheet);
    this.byName.set(name.toLowerCase(), sheet);
    this.compiler.clear();
    this.dirt.sheetsChanged = true;
    return sheet;
  }

  renameSheet(sheet: Sheet, name: string): void {
    const problem = sheetNameProblem(name);
    if (problem) throw new SheetsError("BAD_INPUT", `${problem[0]?.toUpperCase()}${problem.slice(1)}.`, { subject: name });
    const other = this.byName.get(name.toLowerCase());
    if (other && other !== sheet)
      throw new SheetsError("BAD_INPUT", `A sheet named "${name}" already exists (names ignore case).`, { subject: name });
    this.byName.delete(sheet.name.toLowerCase());
    sheet.name = name;
    this.byName.set(name.toLowerCase(), sheet);
    this.compiler.clear();
    this.dirt.sheetsChanged = true;
  }

  removeSheet(sheet: Sheet): void {
    if (this.sheets.length === 1) throw new SheetsError("BAD_INPUT", "A workbook keeps at least one sheet.", { subject: sheet.name });
    this.sheets.splice(this.sheets.indexOf(sheet), 1);
    this.byId.delete(sheet.sid);
    this.byName.delete(sheet.name.toLowerCase());
    this.names.dropSheet(sheet.sid);
    this.tables.dropSheet(sheet.sid);
    this.totalCells -= sheet.grid.cells;
    this.compiler.clear();
    this.dirt.sheetsChanged = true;
  }

  /** Puts `input` into a cell; formulas are compiled and registered, computed by the next recalculation. */
  setCell(sheet: Sheet, row: number, col: number, input: CellInput, strict: boolean): void {
    const grid = sheet.grid;
    let tile = grid.tile(row, col);
    if (!tile) {
      if (input.kind === "clear") return;
      tile = grid.tileFor(row, col);
    }
    const slot = slotOf(row, col);
    const old = tile.kinds[slot] as number;
    if (old === K_SPILL) {
      // A cell an array fills: clearing it changes nothing; writing it blocks the array (#SPILL!).
      if (input.kind === "clear") return;
      this.writeOverSpill(tile, slot, row, col);
    }
    if (old === K_FORMULA) this.dropFormula(tile, slot);
    if (old === K_STRING && tile.strs) tile.strs[slot] = undefined;
    if (this.blocked.size > 0) this.unblock(sheet.sid, row, col);
    this.dirt.markInput(sheet.sid, row, col);
    // Nothing can depend on a cell while no formula is registered (a workbook built from rows), and
    // a model loaded from tiles has every value already.
    if (!this.graph.empty && !this.dirt.paused && !this.noneComputed) this.changed.push({ sid: sheet.sid, row, col });
    if (input.kind === "clear") {
      if (tile.fmts) tile.fmts[slot] = 0;
      if (old !== K_EMPTY) {
        tile.kinds[slot] = K_EMPTY;
        tile.nums[slot] = 0;
        grid.counted(tile, row, col, -1);
        this.totalCells--;
      }
      return;
    }
    if (old === K_EMPTY) this.count(grid, tile, row, col);
    if (input.kind === "value") {
      storeScalar(tile, slot, input.value);
      if (input.numFmt) this.setFormat(tile, slot, input.numFmt);
      return;
    }
    this.storeFormula(sheet, tile, row, col, input, strict);
  }

  /** A cell of an array's spill is written: the array is computed again (and shows #SPILL!); part of an array formula's range is refused. */
  private writeOverSpill(tile: Tile, slot: number, row: number, col: number): void {
    const anchor = tile.spills?.get(slot);
    if (anchor?.fixed) {
      const where = this.where(anchor.sid, row, col);
      throw new SheetsError(
        "BAD_INPUT",
        `${where} is part of the array formula at ${this.where(anchor.sid, anchor.row, anchor.col)}; change the array formula's cell instead (Excel refuses to change part of an array).`,
        { subject: where },
      );
    }
    // The cell stays counted: the value written takes its place.
    tile.spills?.delete(slot);
    if (anchor) this.again(anchor);
  }

  /** Marks a formula to be computed by the next recalculation. */
  again(cell: FormulaCell): void {
    if (cell.state !== CLEAN) return;
    cell.state = DIRTY;
    this.fresh.push(cell);
  }

  /** A cell changed where a blocked array would spill: the array tries again. */
  private unblock(sid: number, row: number, col: number): void {
    for (const anchor of this.blocked) {
      if (anchor.sid !== sid || !anchor.spill) continue;
      const box = spillBox(anchor, anchor.spill);
      if (row >= box.top && row <= box.bottom && col >= box.left && col <= box.right) this.again(anchor);
    }
  }

  /** Counts a cell an array spills into (LIMIT past SHEETS_MAX_CELLS, as any cell). */
  countSpill(grid: Grid, tile: Tile, row: number, col: number): void {
    this.count(grid, tile, row, col);
  }

  private count(grid: Grid, tile: Tile, row: number, col: number): void {
    grid.counted(tile, row, col, 1);
    if (++this.totalCells > this.maxCells)
      throw new SheetsError("LIMIT", `A workbook holds at most ${this.maxCells} non-empty cells (SHEETS_MAX_CELLS).`, {
        limit: "SHEETS_MAX_CELLS",
      });
  }

  setFormat(tile: Tile, slot: number, code: string | undefined): void {
    const id = this.formats.id(code);
    if (id === 0 && !tile.fmts) return;
    tile.fmts ??= new Uint16Array(tile.kinds.length);
    tile.fmts[slot] = id;
  }

  /** Compiles and registers a formula; the cell's value stays unknown until the recalculation. */
  private storeFormula(
    sheet: Sheet,
    tile: Tile,
    row: number,
    col: number,
    input: Extract<CellInput, { kind: "formula" }>,
    strict: boolean,
  ): FormulaCell {
    const { formula, numFmt } = input;
    if (formula.length > MAX_FORMULA_LENGTH) {
      const where = this.where(sheet.sid, row, col);
      throw new SheetsError("LIMIT", `A formula holds at most ${MAX_FORMULA_LENGTH} characters (${where}).`, {
        limit: "MAX_FORMULA_LENGTH",
        subject: where,
      });
    }
    const at = { sid: sheet.sid, row, col };
    const { text, program } = this.compiler.compile(formula, at, { strict, legacy: input.legacy === true && !input.fixed });
    const cell: FormulaCell = {
      text,
      program,
      value: null,
      state: DIRTY,
      sid: sheet.sid,
      row,
      col,
    };
    if (input.fixed) cell.fixed = { rows: input.fixed.rows, cols: input.fixed.cols };
    const slot = slotOf(row, col);
    tile.kinds[slot] = K_FORMULA;
    (tile.formulas ??= new Map()).set(slot, cell);
    this.graph.add(cell);
    if (program.volatile) this.volatile.add(cell);
    this.fresh.push(cell);
    this.dirt.markValue(sheet.sid, row, col);
    if (numFmt !== undefined) this.setFormat(tile, slot, numFmt);
    else if (!tile.fmts?.[slot]) this.setFormat(tile, slot, this.impliedFormat(program, sheet.sid, row, col));
    this.warn(program, sheet.sid, row, col);
    this.report.flag(cell);
    return cell;
  }

  /** The warnings a formula's cell gets (its address is made only then: most have none). */
  private warn(program: Program, sid: number, row: number, col: number): void {
    for (const name of program.unknown)
      this.warnings.add(
        `${this.where(sid, row, col)}: ${name} is not a function or name the gateway computes; the cell shows #NAME? here (Excel computes it on open).`,
      );
    if (program.problem) this.warnings.add(`${this.where(sid, row, col)}: the formula is kept but not computed: ${program.problem}.`);
  }

  /** Compiles a formula cell again (names, tables or sheets changed) and marks it for the recalculation. */
  recompile(cell: FormulaCell): void {
    this.graph.remove(cell);
    this.volatile.delete(cell);
    const { text, program } = this.compiler.compile(cell.text, cell, { strict: false });
    Object.assign(cell, { text, program });
    this.graph.add(cell);
    if (program.volatile) this.volatile.add(cell);
    if (cell.state === CLEAN) {
      cell.state = DIRTY;
      this.fresh.push(cell);
    }
    this.warn(program, cell.sid, cell.row, cell.col);
    this.report.flag(cell);
  }

  /** The format a new formula's result takes: its outer function's (DATE…), or that of a dated cell it adds to. */
  private impliedFormat(program: Program, sid: number, row: number, col: number): string | undefined {
    if (program.format) return program.format;
    const from = program.formatFrom;
    if (!from) return undefined;
    const box = resolveRef(from, row, col);
    const source = this.sheetById(from.sid === OWN_SHEET ? sid : from.sid);
    if (!box || !source) return undefined;
    const code = this.formatAt(source, box.top, box.left);
    return code && dateKindOf(code) ? code : undefined;
  }

  formatAt(sheet: Sheet, row: number, col: number): string | undefined {
    const tile = sheet.grid.tile(row, col);
    const id = tile?.fmts?.[slotOf(row, col)] ?? 0;
    return id === 0 ? undefined : this.formats.code(id);
  }

  private dropFormula(tile: Tile, slot: number): void {
    const cell = tile.formulas?.get(slot);
    if (!cell) return;
    this.graph.remove(cell);
    this.volatile.delete(cell);
    tile.formulas?.delete(slot);
    this.dirt.markValue(cell.sid, cell.row, cell.col);
    if (cell.spill) {
      const emptied = clearSpill(this, cell);
      if (!this.graph.empty && !this.dirt.paused) this.changed.push(...emptied);
    }
  }

  /** "Sheet1!B2" for warnings. */
  where(sid: number, row: number, col: number): string {
    const sheet = this.sheetById(sid);
    return sheet ? formatRange(sheet.name, { top: row, left: col, bottom: row, right: col }) : cellAddress(row, col);
  }
}

/** Writes a constant into a tile slot (numbers, text, booleans, errors). */
export function storeScalar(tile: Tile, slot: number, value: Exclude<Scalar, null>): void {
  if (typeof value === "number") {
    tile.kinds[slot] = K_NUMBER;
    tile.nums[slot] = value;
  } else if (typeof value === "string") {
    tile.kinds[slot] = K_STRING;
    (tile.strs ??= new Array<string | undefined>(tile.kinds.length))[slot] = value;
  } else if (typeof value === "boolean") {
    tile.kinds[slot] = K_BOOLEAN;
    tile.nums[slot] = value ? 1 : 0;
  } else if (isError(value)) {
    tile.kinds[slot] = K_ERROR;
    tile.nums[slot] = errorCode(value);
  }
}
