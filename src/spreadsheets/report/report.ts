// A workbook's report, held by its model (Book.report) and saved with every version
// (./codec.ts): the formula cells the gateway does not compute (followed as formulas are written,
// replaced and deleted), the cells whose value differed from the file's writer's at the import
// (each with the writer's value, checked again on every save), and what the import found that is
// not kept. ./summary.ts turns it into the warnings callers read.
import type { FormulaCell } from "../cells/grid.ts";
import type { CellValue } from "../cells/types.ts";
import type { WorkbookWarning } from "./types.ts";

/** Differing cells followed with the writer's value; past it they are only counted. */
export const MAX_TRACKED = 5_000;

/** The first few of many, by position: a bounded list kept in order as items come. */
export class First<T> {
  private readonly items: [key: number, item: T][] = [];
  constructor(private readonly max: number) {}

  /** Keeps the item if it is among the first by `key`; `make` runs only then (most of many are not). */
  add(key: number, make: () => T): void {
    const items = this.items;
    if (items.length === this.max && key >= items[items.length - 1]![0]) return;
    let at = items.length;
    while (at > 0 && items[at - 1]![0] > key) at--;
    items.splice(at, 0, [key, make()]);
    if (items.length > this.max) items.pop();
  }

  get list(): T[] {
    return this.items.map(([, item]) => item);
  }
}

/** Cells an import kept as values because their formula cannot be stored here. */
export interface KeptValues {
  count: number;
  first: First<string>;
}

export class WorkbookReport {
  /** Formula cells with a function or name the engine lacks, or a formula it cannot compute (checked again when summarised). */
  readonly flagged = new Set<FormulaCell>();
  /** Formula cells whose value differed from the writer's at the import: the writer's value. */
  readonly distrusted = new Map<FormulaCell, CellValue>();
  /** Differing cells past MAX_TRACKED: counted as at the import. */
  untracked = 0;
  /** Formula cells compared with the writer's values at the import. */
  checked = 0;
  /** What the import found that the workbook does not keep (warnings as they stay). */
  facts: WorkbookWarning[] = [];
  /** While an import loads: formulas kept as values (other workbooks; refused functions). */
  kept: { external: KeptValues; refused: KeptValues } | null = null;

  flag(cell: FormulaCell): void {
    if (cell.program.unknown.length > 0 || cell.program.problem !== null) this.flagged.add(cell);
  }

  /** Whether there is nothing to say (no blob is saved for such a workbook). */
  get empty(): boolean {
    return this.flagged.size === 0 && this.distrusted.size === 0 && this.untracked === 0 && this.facts.length === 0;
  }
}
