// The warnings of a workbook as it is now, from its report (./report.ts): formula cells the engine
// does not compute, grouped by function, name or problem; the cells that still differ from what
// the file's writer saved (a cell rewritten since, or computing the writer's value now, is no
// longer one); then what the import found that is not kept. Bounded: a few groups, a few cells each.
import type { Book } from "../workbook/book.ts";
import { canonicalName } from "../formula/compile.ts";
import type { Program } from "../formula/program.ts";
import { slotOf, type FormulaCell } from "../cells/grid.ts";
import { agrees, rawOf } from "./agree.ts";
import { First, MAX_TRACKED, type WorkbookReport } from "./report.ts";
import { FIRST_CELLS, FIRST_DIFFERENCES, type CellDifference, type WorkbookWarning } from "./types.ts";

/** Groups of one kind (functions, names, problems) listed one by one; the rest are one warning. */
const MAX_GROUPS = 20;
const MAX_LISTED_NAMES = 40;

interface Group {
  count: number;
  first: First<string>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** Which of a program's unknown words are called as functions (FOO(…)) and which are bare names. */
const kinds = new WeakMap<Program, { functions: string[]; names: string[] }>();
function unknownOf(cell: FormulaCell): { functions: string[]; names: string[] } {
  let found = kinds.get(cell.program);
  if (!found) {
    const text = cell.text.toUpperCase();
    const words = [...new Set(cell.program.unknown.map((word) => word.toUpperCase()))];
    const called = (word: string) => text.includes(`${word}(`);
    // A function Excel added later is saved as _xlfn.NAME: the warning names NAME.
    found = { functions: [...new Set(words.filter(called).map(canonicalName))], names: words.filter((word) => !called(word)) };
    kinds.set(cell.program, found);
  }
  return found;
}

class Summary {
  private readonly index = new Map<number, number>();
  readonly functions = new Map<string, Group>();
  readonly names = new Map<string, Group>();
  readonly problems = new Map<string, Group>();

  constructor(private readonly book: Book) {
    book.sheets.forEach((sheet, i) => this.index.set(sheet.sid, i));
  }

  /** Whether the cell is still in the workbook, holding the formula it held (not replaced, cleared or deleted). */
  held(cell: FormulaCell): boolean {
    if (!this.index.has(cell.sid)) return false;
    const sheet = this.book.sheetById(cell.sid);
    return sheet?.grid.tile(cell.row, cell.col)?.formulas?.get(slotOf(cell.row, cell.col)) === cell;
  }

  /** The cell's place in the workbook's reading order: sheet, row, column. */
  key(cell: FormulaCell): number {
    return ((this.index.get(cell.sid) ?? 0) * 2 ** 20 + cell.row) * 2 ** 14 + cell.col;
  }

  where(cell: FormulaCell): string {
    return this.book.where(cell.sid, cell.row, cell.col);
  }

  count(groups: Map<string, Group>, word: string, cell: FormulaCell): void {
    let group = groups.get(word);
    if (!group) groups.set(word, (group = { count: 0, first: new First(FIRST_CELLS) }));
    group.count++;
    group.first.add(this.key(cell), () => this.where(cell));
  }
}

function flaggedWarnings(report: WorkbookReport, summary: Summary): WorkbookWarning[] {
  for (const cell of report.flagged) {
    if (!summary.held(cell) || (cell.program.unknown.length === 0 && cell.program.problem === null)) {
      report.flagged.delete(cell);
      continue;
    }
    const { functions, names } = unknownOf(cell);
    for (const name of functions) summary.count(summary.functions, name, cell);
    for (const name of names) summary.count(summary.names, name, cell);
    if (cell.program.problem !== null) summary.count(summary.problems, cell.program.problem, cell);
  }
  return [
    ...grouped(summary.functions, (name, group) => ({
      code: "UNSUPPORTED_FUNCTION",
      function: name,
      message: `${plural(group.count, "cell")} call ${name}, which the gateway does not compute: they read #NAME? here (Excel computes ${name} when it opens the file).`,
    })),
    ...grouped(summary.names, (name, group) => ({
      code: "UNKNOWN_NAME",
      name,
      message: `${plural(group.count, "cell")} use ${name}, which is neither a function the gateway computes nor a name the workbook defines: they read #NAME?.`,
    })),
    ...grouped(summary.problems, (problem, group) => ({
      code: "NOT_COMPUTED",
      message: `${plural(group.count, "formula")} ${group.count === 1 ? "is" : "are"} kept but not computed (${group.count === 1 ? "it reads" : "they read"} #NAME?): ${problem}.`,
    })),
  ];
}

/** One warning per group, the largest first; past MAX_GROUPS the rest as one warning naming them. */
function grouped(
  groups: Map<string, Group>,
  make: (word: string, group: Group) => Pick<WorkbookWarning, "code" | "message" | "function" | "name">,
): WorkbookWarning[] {
  const sorted = [...groups].sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : 1));
  const listed = sorted
    .slice(0, MAX_GROUPS)
    .map(([word, group]) => ({ ...make(word, group), count: group.count, cells: group.first.list }));
  const rest = sorted.slice(MAX_GROUPS);
  if (rest.length === 0) return listed;
  const first = new First<string>(FIRST_CELLS);
  let count = 0;
  rest.forEach(([, group], i) => {
    count += group.count;
    group.first.list.forEach((cell, j) => first.add(i * FIRST_CELLS + j, () => cell));
  });
  const words = rest.slice(0, MAX_LISTED_NAMES).map(([word]) => word);
  const more = rest.length > words.length ? ` and ${rest.length - words.length} more` : "";
  const { code } = make(rest[0]![0], rest[0]![1]);
  return [
    ...listed,
    {
      code,
      count,
      cells: first.list,
      message: `${plural(count, "more cell")} with ${plural(rest.length, "more of these")}: ${words.join(", ")}${more}.`,
    },
  ];
}

/** The cells that still differ from the writer's values; those that no longer do are forgotten. */
function differenceWarning(report: WorkbookReport, summary: Summary): WorkbookWarning[] {
  const first = new First<CellDifference>(FIRST_DIFFERENCES);
  for (const [cell, expected] of report.distrusted) {
    if (!summary.held(cell) || agrees(expected, cell.value)) {
      report.distrusted.delete(cell);
      continue;
    }
    first.add(summary.key(cell), () => ({
      cell: summary.where(cell),
      formula: `=${cell.text}`,
      expected: rawOf(expected),
      got: rawOf(cell.value),
    }));
  }
  const count = report.distrusted.size + report.untracked;
  if (count === 0) return [];
  const differences = first.list;
  const untracked =
    report.untracked > 0
      ? ` (${plural(report.untracked, "cell")} past the first ${MAX_TRACKED.toLocaleString("en")} ${report.untracked === 1 ? "is" : "are"} counted as at the import; later writes do not update ${report.untracked === 1 ? "it" : "them"})`
      : "";
  return [
    {
      code: "VALUE_DIFFERS",
      count,
      checked: report.checked,
      cells: differences.slice(0, FIRST_CELLS).map((d) => d.cell),
      differences,
      message: `${plural(count, "formula cell")} of the ${report.checked.toLocaleString("en")} compared ${count === 1 ? "computes" : "compute"} another value than the one the file's writer saved${untracked}: do not trust ${count === 1 ? "its value" : "their values"} (see differences).`,
    },
  ];
}

/** The workbook's warnings now: differences, formulas not computed, then what the import did not keep. */
export function summarize(book: Book): WorkbookWarning[] {
  const report = book.report;
  const summary = new Summary(book);
  return [...differenceWarning(report, summary), ...flaggedWarnings(report, summary), ...report.facts];
}
