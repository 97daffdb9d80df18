// The corpus's figures as tables: agreement per function category for each engine on the same
// cells (a cell counts in every category whose functions it calls), disagreements by reason, the
// functions the corpus uses that an engine lacks, and the full disagreement list.
import { CATEGORIES } from "./categories.ts";
import { NO_FUNCTION, NOT_EXCEL, type CellCategory } from "./analysis.ts";
import type { Got, ScoredCell } from "./score.ts";
import type { Expected } from "./cells.ts";

export interface Column {
  name: string;
  /** The same cells, in the same order, for every column. */
  cells: ScoredCell[];
}

export interface CategoryRow {
  category: "All formula cells" | CellCategory;
  cells: number;
  /** Per column: cells that agree with Excel. */
  agree: number[];
}

const ORDER: CellCategory[] = [...CATEGORIES, NO_FUNCTION, NOT_EXCEL];

export function categoryRows(columns: Column[]): CategoryRow[] {
  const first = columns[0]!.cells;
  const rows: CategoryRow[] = [
    { category: "All formula cells", cells: first.length, agree: columns.map((c) => c.cells.filter((x) => x.agree).length) },
  ];
  for (const category of ORDER) {
    const indexes = first.flatMap((cell, i) => (cell.analysis.categories.includes(category) ? [i] : []));
    if (indexes.length === 0) continue;
    rows.push({ category, cells: indexes.length, agree: columns.map((c) => indexes.filter((i) => c.cells[i]!.agree).length) });
  }
  return rows;
}

const pct = (n: number, of: number) => (of === 0 ? "—" : `${((100 * n) / of).toFixed(1)}%`);

/** A markdown table: category, cells, then "agree (percent)" per column. */
export function categoryTable(columns: Column[]): string {
  const rows = categoryRows(columns);
  const head = `| category | formula cells | ${columns.map((c) => c.name).join(" | ")} |`;
  const rule = `|---|---:|${columns.map(() => "---:").join("|")}|`;
  const body = rows.map((r) => `| ${r.category} | ${r.cells} | ${r.agree.map((a) => `${a} (${pct(a, r.cells)})`).join(" | ")} |`);
  return [head, rule, ...body].join("\n");
}

/** Disagreements by reason, most cells first. */
export function reasonCounts(cells: ScoredCell[]): [reason: string, cells: number][] {
  const counts = new Map<string, number>();
  for (const cell of cells) if (!cell.agree) counts.set(cell.reason ?? "?", (counts.get(cell.reason ?? "?") ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Functions the corpus calls that `has` says the engine lacks, with the cells that call each. */
export function missingFunctions(cells: ScoredCell[], has: (fn: string) => boolean): [fn: string, cells: number][] {
  const counts = new Map<string, number>();
  for (const cell of cells) for (const fn of cell.analysis.functions) if (!has(fn)) counts.set(fn, (counts.get(fn) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export const show = (value: Expected | Got): string =>
  value === null
    ? "(empty)"
    : typeof value === "object"
      ? "error" in value
        ? value.error
        : `(${value.notComputed})`
      : typeof value === "string"
        ? JSON.stringify(value)
        : String(value);

/** Every disagreement, one line each: workbook, cell, formula, expected, got, reason. */
export function disagreementLines(cells: ScoredCell[]): string[] {
  return cells
    .filter((c) => !c.agree)
    .map((c) => [c.workbook, `${c.sheet}!${c.address}`, `=${c.formula}`, show(c.expected), show(c.got), c.reason ?? ""].join("\t"));
}

/** Functions whose value depends on the instant or on chance: a recomputation never reproduces what Excel cached. */
export const UNREPRODUCIBLE = new Set(["NOW", "TODAY", "RAND", "RANDBETWEEN", "RANDARRAY"]);

const unreproducible = (cell: ScoredCell): boolean => cell.analysis.functions.some((fn) => UNREPRODUCIBLE.has(fn));

/**
 * The cells calling NOW, TODAY, RAND, RANDBETWEEN or RANDARRAY: their cached value is Excel's own
 * instant or draw, which no recomputation reproduces, so they are named apart rather than silently
 * averaged in: how many, how many each column disagrees on (they stay in the table's counts, listed
 * under the reason "volatile FN"), and each column's agreement on all the other cells.
 */
export function volatileSummary(columns: Column[]): string {
  const first = columns[0]!.cells;
  const indexes = first.flatMap((cell, i) => (unreproducible(cell) ? [i] : []));
  const others = first.length - indexes.length;
  const parts = columns.map((c) => {
    const missed = indexes.filter((i) => !c.cells[i]!.agree).length;
    const agree = c.cells.filter((x) => x.agree && !unreproducible(x)).length;
    return `${c.name}: ${missed} of them disagree; on the other cells ${agree}/${others} (${pct(agree, others)}) agree`;
  });
  return [
    `cells calling ${[...UNREPRODUCIBLE].join(", ")}: ${indexes.length} — Excel cached its own instant or draw, which no recomputation reproduces (counted above, listed as "volatile FN")`,
    ...parts.map((p) => `  ${p}`),
  ].join("\n");
}
