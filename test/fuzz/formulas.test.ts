// The formula fuzzer (issue 37): random formulas from the grammar (test/fuzz/formula-grammar.ts)
// over random cells, computed by the engine itself (no HTTP, for speed) the three ways a caller
// reaches it: a workbook created with formula cells, an evaluate, and a write of formulas followed
// by a read. Every answer is a value or an Excel error; the only exceptions allowed are the
// engine's own refusals (SheetsError BAD_FORMULA, REFUSED_FORMULA, BUDGET, LIMIT), which the
// surfaces answer as 4xx; no function call may run into a JavaScript limit (contain.ts turns one
// into #VALUE! and tells us), and no job may run past its time budget by more than its slack.
// `npm test` runs a few hundred formulas, seeded; `npm run fuzz:deep` at least 100,000.
// FORMULA_TRACE=<file> writes each job to the file before it runs: the last one is the culprit when
// a formula never ends (a loop no budget sees, as FACT(1E300) was).
import { writeFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { isSheetsError } from "../../src/spreadsheets/cells/errors.ts";
import { onContainedError } from "../../src/spreadsheets/formula/contain.ts";
import { cells, formula } from "./formula-grammar.ts";
import { fuzzParams, fuzzSeconds, invariant } from "./harness.ts";

/** A tight budget, so heavy random formulas are refused quickly rather than slowing the run. */
const BUDGET = { maxSteps: 300_000, maxMs: 50, maxArrayCells: 20_000 };
/** How far past maxMs a job may run: the clock is looked at every 16,384 steps; GC and a loaded machine add the rest. */
const SLACK_MS = 1_000;
const ALLOWED = new Set(["BAD_FORMULA", "REFUSED_FORMULA", "BUDGET", "LIMIT"]);
const FORMULAS_PER_CASE = 32;
/** `npm run fuzz:deep` (FUZZ_SCALE 1000) runs this property for 10 minutes at least, enough for 100,000 formulas on a loaded machine. */
const DEEP = Number(process.env["FUZZ_SCALE"] ?? 1) >= 1000;
const SECONDS = Math.max(fuzzSeconds(), DEEP ? 600 : 0);

const contained: string[] = [];
let stop: () => void;
beforeAll(() => {
  stop = onContainedError((error, fn) => void contained.push(`${fn}: ${error.message}`));
});
afterAll(() => stop?.());

let formulas = 0;
let slowest = 0;
/** Refusals by code (and bound), for the summary line. */
const refusals = new Map<string, number>();

/** Runs `job`; an exception is allowed only as one of the engine's refusals. Checks the time it took. */
function attempt<T>(what: string, job: () => T): T | undefined {
  if (process.env["FORMULA_TRACE"]) writeFileSync(process.env["FORMULA_TRACE"], what);
  const started = performance.now();
  try {
    return job();
  } catch (error) {
    invariant(isSheetsError(error) && ALLOWED.has(error.code), `${what} threw ${error instanceof Error ? error.stack : String(error)}`);
    const key = `${error.code}${error.details.limit ? ` ${String(error.details.limit)}` : ""}`;
    refusals.set(key, (refusals.get(key) ?? 0) + 1);
    return undefined;
  } finally {
    const took = performance.now() - started;
    slowest = Math.max(slowest, took);
    invariant(took <= BUDGET.maxMs + SLACK_MS, `${what} took ${Math.round(took)} ms, past its ${BUDGET.maxMs} ms budget`);
    invariant(contained.length === 0, `${what}: a function ran into a JavaScript limit: ${contained.join("; ")}`);
  }
}

/** A value as the engine answers one: a JSON scalar, or {error} with an Excel error; text within 32,767 characters. */
function checkValue(value: unknown, what: string): void {
  if (value === null || typeof value === "number" || typeof value === "boolean") return;
  if (typeof value === "string") return invariant(value.length <= 32_767, `${what}: text of ${value.length} characters`);
  invariant(
    typeof value === "object" && typeof (value as { error?: unknown }).error === "string" && /^#/.test((value as { error: string }).error),
    `${what}: answered ${JSON.stringify(value)?.slice(0, 200)}`,
  );
}

const sheet1 = cells(12, 6);
const sheet2 = cells(3, 3);

describe("the formula engine under random formulas", () => {
  it(
    "answers every formula with a value or an Excel error, within its budget",
    () => {
      fc.assert(
        fc.property(
          sheet1,
          sheet2,
          fc.array(formula(3), { minLength: FORMULAS_PER_CASE, maxLength: FORMULAS_PER_CASE }),
          (one, two, list) => {
            const where = `cells ${JSON.stringify([one, two]).slice(0, 300)}`;
            const made = attempt(`create (${where})`, () =>
              Workbook.create(
                [
                  { name: "Sheet1", values: one },
                  { name: "Sheet 2", values: two },
                ],
                "parse",
                { budget: BUDGET },
              ),
            );
            if (!made) return;
            const { workbook } = made;
            for (const f of list) {
              const value = attempt(`evaluate ${f}`, () => workbook.evaluate(f, { budget: BUDGET }));
              if (value !== undefined) checkValue(value, `evaluate ${f}`);
            }
            const written = attempt(`write ${JSON.stringify(list)}`, () =>
              workbook.write(
                `H1:H${list.length}`,
                list.map((f) => [f]),
                { budget: BUDGET },
              ),
            );
            formulas += list.length;
            if (!written) return;
            const read = attempt(`read after writing ${JSON.stringify(list)}`, () => workbook.read("A1:Z40"));
            for (const row of read?.values ?? []) for (const v of row) checkValue(v, `read after writing ${JSON.stringify(list)}`);
          },
        ),
        { ...fuzzParams(37, Math.ceil(320 / FORMULAS_PER_CASE)), interruptAfterTimeLimit: SECONDS * 1000, includeErrorInReport: true },
      );
      console.log(
        `[fuzz] formulas: ${formulas}, each evaluated and written; slowest job ${Math.round(slowest)} ms (budget ${BUDGET.maxMs} ms); refused: ${JSON.stringify(Object.fromEntries(refusals))}`,
      );
      // `npm run fuzz:deep` (FUZZ_SCALE 1000) must get through at least 100,000 formulas in its time.
      expect(formulas).toBeGreaterThanOrEqual(DEEP ? 100_000 : 1);
    },
    (SECONDS + 120) * 1000,
  );
});
