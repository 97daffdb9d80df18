// The workbook model callers (the service layer, in a worker thread) use: create, import, write,
// append, edit, read, evaluate, describe, export. Every write recalculates what it affects and
// says how many formula cells it computed. Errors are all or nothing by the caller's design: on
// any thrown error the caller drops this model and loads the stored version again.
import { Book, type BookOptions } from "./book.ts";
import { Meter, type Budget } from "../formula/budget.ts";
import { loadData, toData } from "./data.ts";
import { applyOperation, recompileAll, type EditOperation } from "./edits.ts";
import { SheetsError } from "../cells/errors.ts";
import { evaluateFormula } from "./evaluate.ts";
import { defineName, deleteName, listNames, type DefinedName } from "./names.ts";
import { describeSheets, readRange, type ReadOptions, type ReadResult, type SheetDescription } from "./read.ts";
import { recalculate } from "./recalc.ts";
import type { WorkbookData } from "../cells/types.ts";
import type { InputMode, JsonCellInput, JsonCellValue } from "./values.ts";
import { appendRows, writeBlock, writeRange, type AppendInput } from "./write.ts";

export type WorkbookOptions = BookOptions;

export interface WriteResult {
  /** "Sheet1!A1:C3": what the write covered (the last write's, for an edit; null when it wrote no cells). */
  updatedRange: string | null;
  updatedCells: number;
  /** Formula cells computed by this write. */
  recalculatedCells: number;
  warnings: string[];
}

export interface NewSheet {
  name: string;
  values?: JsonCellInput[][];
}

export class Workbook {
  /** @internal The state; model-level code outside this file (tiles) reads it. */
  readonly book: Book;

  private constructor(options: WorkbookOptions) {
    this.book = new Book(options);
  }

  /** A new workbook from sheets of values (one empty "Sheet1" when none are given). */
  static create(
    sheets: NewSheet[] = [],
    input: InputMode = "parse",
    options: WorkbookOptions & { budget?: Budget } = {},
  ): { workbook: Workbook; result: WriteResult } {
    const workbook = new Workbook(options);
    const list = sheets.length > 0 ? sheets : [{ name: "Sheet1" }];
    for (const sheet of list) workbook.book.addSheet(sheet.name);
    let cells = 0;
    list.forEach((spec, index) => {
      if (spec.values && spec.values.length > 0)
        cells += writeBlock(workbook.book, workbook.book.sheets[index]!, 0, 0, spec.values, input).updatedCells;
    });
    return { workbook, result: workbook.finish(null, cells, options.budget) };
  }

  /**
   * A one-sheet workbook written block by block as the blocks come (a CSV import), computed once
   * at the end: no copy of the whole sheet's values is held beside the reader's and the model's.
   */
  static fromBlocks(
    name: string,
    blocks: Iterable<{ top: number; values: JsonCellInput[][] }>,
    input: InputMode,
    options: WorkbookOptions & { budget?: Budget } = {},
  ): { workbook: Workbook; result: WriteResult } {
    const workbook = new Workbook(options);
    const sheet = workbook.book.addSheet(name);
    let cells = 0;
    for (const block of blocks) cells += writeBlock(workbook.book, sheet, block.top, 0, block.values, input).updatedCells;
    return { workbook, result: workbook.finish(null, cells, options.budget) };
  }

  /** A workbook from what the .xlsx/.csv readers produce; every formula is computed again. */
  static fromData(data: WorkbookData, options: WorkbookOptions & { budget?: Budget } = {}): { workbook: Workbook; result: WriteResult } {
    const workbook = new Workbook(options);
    loadData(workbook.book, data);
    return { workbook, result: workbook.finish(null, workbook.book.totalCells, options.budget) };
  }

  /** @internal A model to fill from stored tiles (tiles.ts). */
  static empty(options: WorkbookOptions = {}): Workbook {
    return new Workbook(options);
  }

  /** Writes values from the range's top-left (the range may be larger than the values, never smaller). */
  write(range: string, values: JsonCellInput[][], options: { input?: InputMode; budget?: Budget } = {}): WriteResult {
    const written = writeRange(this.book, range, values, options.input ?? "parse");
    return this.finish(written.updatedRange, written.updatedCells, options.budget);
  }

  /** Appends rows under the sheet's last non-empty row; records go to the header row's columns by name. */
  append(request: AppendInput & { budget?: Budget }): WriteResult {
    const written = appendRows(this.book, request);
    return this.finish(written.updatedRange, written.updatedCells, request.budget);
  }

  /** Applies structure edits in order, all or nothing (the caller drops the model on an error). */
  edit(operations: EditOperation[], options: { budget?: Budget } = {}): WriteResult {
    if (!Array.isArray(operations) || operations.length === 0) throw new SheetsError("BAD_INPUT", "operations must be a non-empty array.");
    let cells = 0;
    let range: string | null = null;
    for (const op of operations) {
      const done = applyOperation(this.book, op);
      cells += done.cells;
      range = done.range ?? range;
      if (done.structural) recompileAll(this.book);
    }
    return this.finish(range, cells, options.budget);
  }

  read(range: string, options: ReadOptions = {}): ReadResult {
    return readRange(this.book, range, options);
  }

  /** Computes a formula against the workbook (relative references from A1 of `sheet`), writing nothing. */
  evaluate(formula: string, options: { sheet?: string; budget?: Budget } = {}): JsonCellValue {
    return evaluateFormula(this.book, formula, options.sheet ?? null, new Meter(options.budget, "evaluate"));
  }

  describe(): SheetDescription[] {
    return describeSheets(this.book);
  }

  /** The workbook's defined names (workbook-scoped: sheet null), sorted by name. */
  names(): DefinedName[] {
    return listNames(this.book);
  }

  /**
   * Defines a name, or redefines it: `formula` ("Sheet1!$B$2", "0.07", "=SUM(Sheet1!A:A)",
   * "LAMBDA(x,x*1.07)") is what it refers to; `sheet` the sheet it is local to (null or absent: the
   * whole workbook). The formulas using the name are computed again, as for any write. BAD_INPUT for
   * an invalid name (or one a table has), BAD_FORMULA for a definition that does not parse,
   * REFUSED_FORMULA for one reaching outside the workbook, UNKNOWN_SHEET for the scope's sheet.
   */
  defineName(
    input: { name: string; formula: string; sheet?: string | null; hidden?: boolean; comment?: string },
    options: { budget?: Budget } = {},
  ): WriteResult {
    defineName(this.book, { ...input, sheet: input.sheet ?? null });
    return this.finish(null, 0, options.budget);
  }

  /** Deletes a name (in `sheet`'s scope, or the workbook's): formulas using it compute #NAME?, as in Excel. BAD_INPUT when there is none. */
  deleteName(input: { name: string; sheet?: string | null }, options: { budget?: Budget } = {}): WriteResult {
    deleteName(this.book, input.name, input.sheet ?? null);
    return this.finish(null, 0, options.budget);
  }

  /** Non-empty cells of the whole workbook. */
  get cells(): number {
    return this.book.totalCells;
  }

  /**
   * The workbook for the .xlsx/.csv writers: values computed, formulas without "=", number formats,
   * names and tables; `xlsx`: formulas and array ranges as an .xlsx file writes them.
   */
  toData(options: { xlsx?: boolean } = {}): WorkbookData {
    return toData(this.book, options);
  }

  /** Recalculates after changes and gathers the write's result. */
  private finish(updatedRange: string | null, updatedCells: number, budget?: Budget): WriteResult {
    const recalculatedCells = recalculate(this.book, new Meter(budget));
    const warnings = [...this.book.warnings];
    this.book.warnings.clear();
    return { updatedRange, updatedCells, recalculatedCells, warnings };
  }
}
