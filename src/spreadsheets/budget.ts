// How much computation one write may spend: steps (formula evaluations and cells read) and wall
// time. Past either, the write stops with SheetsError BUDGET instead of running away.
import { SheetsError } from "./errors.ts";

export interface Budget {
  /** Formula evaluations plus cells read by ranges; default 200,000,000. */
  maxSteps?: number;
  /** Milliseconds of computation; default 10,000. */
  maxMs?: number;
}

export const DEFAULT_BUDGET: Required<Budget> = { maxSteps: 200_000_000, maxMs: 10_000 };

export class Meter {
  steps = 0;
  private nextCheck = 1 << 14;
  private readonly deadline: number;
  private readonly maxSteps: number;

  constructor(budget: Budget = {}) {
    this.maxSteps = budget.maxSteps ?? DEFAULT_BUDGET.maxSteps;
    this.deadline = performance.now() + (budget.maxMs ?? DEFAULT_BUDGET.maxMs);
  }

  charge(count: number): void {
    this.steps += count;
    if (this.steps < this.nextCheck) return;
    this.nextCheck = this.steps + (1 << 14);
    if (this.steps > this.maxSteps)
      throw new SheetsError("BUDGET", `The write needs more than ${this.maxSteps} computation steps; nothing was written.`, {
        limit: "maxSteps",
      });
    if (performance.now() > this.deadline)
      throw new SheetsError("BUDGET", "The write's recalculation ran past its time budget; nothing was written.", { limit: "maxMs" });
  }
}
