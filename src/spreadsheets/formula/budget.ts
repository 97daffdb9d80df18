// How much computation one job (a write's recalculation, or an evaluate) may spend: steps (formula
// evaluations, cells read, array cells made, text characters made), wall time, and the cells of
// any one array a formula makes. Past any of them the job stops with SheetsError BUDGET, and the
// message says which job and which bound (with the configuration variable that sets it). An array
// is counted before it is made, so a formula over A1:XFD1000 is refused without allocating it.
import { SheetsError } from "../cells/errors.ts";

export interface Budget {
  /** Steps: formula evaluations, cells read by ranges, array cells and text characters made (SHEETS_MAX_STEPS); default 200,000,000. */
  maxSteps?: number;
  /** Milliseconds of computation (SHEETS_WRITE_BUDGET_MS); default 10,000. */
  maxMs?: number;
  /** Cells one array a formula makes may have (SHEETS_MAX_ARRAY_CELLS); default 10,000,000. */
  maxArrayCells?: number;
}

export const DEFAULT_BUDGET: Required<Budget> = { maxSteps: 200_000_000, maxMs: 10_000, maxArrayCells: 10_000_000 };

/** What the budget is spent on: the messages say "the write" or "the formula" (an evaluate writes nothing). */
export type JobKind = "write" | "evaluate";

/** Steps between two looks at the clock: a few hundred microseconds of the cheapest work. */
const CLOCK_EVERY = 1 << 14;

const grouped = (n: number): string => n.toLocaleString("en-US");

/** The meter of the job under way (a worker runs one job at a time): see `work`. */
let running: Meter | null = null;

/**
 * Charges `count` steps to the job under way, if any: for work done where no EvalContext reaches
 * (special.ts's series and continued fractions, which a function may run thousands of times).
 */
export function work(count: number): void {
  running?.charge(count);
}

/** Makes `meter` the one `work` charges until the returned function is called. */
export function enterJob(meter: Meter): () => void {
  const outer = running;
  running = meter;
  return () => {
    running = outer;
  };
}

export class Meter {
  steps = 0;
  private nextCheck = CLOCK_EVERY;
  private readonly deadline: number;
  private readonly maxSteps: number;
  private readonly maxMs: number;
  private readonly maxArrayCells: number;

  constructor(
    budget: Budget = {},
    private readonly kind: JobKind = "write",
  ) {
    this.maxSteps = budget.maxSteps ?? DEFAULT_BUDGET.maxSteps;
    this.maxMs = budget.maxMs ?? DEFAULT_BUDGET.maxMs;
    this.maxArrayCells = budget.maxArrayCells ?? DEFAULT_BUDGET.maxArrayCells;
    this.deadline = performance.now() + this.maxMs;
  }

  /** Adds `count` steps; every CLOCK_EVERY steps (a large charge crosses the mark at once) checks the steps and the clock. */
  charge(count: number): void {
    this.steps += count;
    if (this.steps < this.nextCheck) return;
    this.nextCheck = this.steps + CLOCK_EVERY;
    if (this.steps > this.maxSteps)
      throw this.refused(`needs more than ${grouped(this.maxSteps)} computation steps (SHEETS_MAX_STEPS)`, "SHEETS_MAX_STEPS");
    if (performance.now() > this.deadline)
      throw this.refused(`ran past its time budget of ${grouped(this.maxMs)} ms (SHEETS_WRITE_BUDGET_MS)`, "SHEETS_WRITE_BUDGET_MS");
  }

  /**
   * An array of `cells` cells is about to be made: refused past SHEETS_MAX_ARRAY_CELLS before any of
   * it is allocated. The caller charges the cells as steps while it fills them (so the clock is
   * looked at during the filling, not only before it).
   */
  array(cells: number): void {
    if (cells > this.maxArrayCells)
      throw this.refused(
        `would make an array of ${grouped(cells)} cells; a formula's array may have at most ${grouped(this.maxArrayCells)} (SHEETS_MAX_ARRAY_CELLS)`,
        "SHEETS_MAX_ARRAY_CELLS",
      );
    if (this.steps + cells > this.maxSteps)
      throw this.refused(`needs more than ${grouped(this.maxSteps)} computation steps (SHEETS_MAX_STEPS)`, "SHEETS_MAX_STEPS");
  }

  private refused(what: string, limit: string): SheetsError {
    const message =
      this.kind === "evaluate"
        ? `The formula's evaluation ${what}; nothing was computed.`
        : `The write's recalculation ${what}; nothing was written.`;
    return new SheetsError("BUDGET", message, { limit, job: this.kind });
  }
}
