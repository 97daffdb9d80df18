// A workbook for the function-family tests: Microsoft's documented examples are typed into
// formulas, or into a sheet when the example reads a range. Numbers compare to the digits
// Microsoft's pages show.
import { expect } from "vitest";
import { Workbook } from "../../../src/spreadsheets/workbook/workbook.ts";

export type Row = (string | number | boolean | null)[];

/** A workbook whose first sheet "S" holds `rows` (A1 at the top left). */
export function sheet(rows: Row[], more: { name: string; values: Row[] }[] = []) {
  const { workbook } = Workbook.create([{ name: "S", values: rows }, ...more], "raw");
  return (formula: string) => workbook.evaluate(formula, { sheet: "S" });
}

/**
 * Expects a result: an error code ("#NUM!"), a string, a boolean, or a number to the decimals the
 * expected literal shows (0.981666428 is checked to ±5e-10; an integer to 1e-12 of itself, 0 to 1e-15).
 */
export function near(actual: unknown, expected: number | string | boolean): void {
  if (typeof expected === "string" && expected.startsWith("#")) return void expect(actual).toEqual({ error: expected });
  if (typeof expected !== "number") return void expect(actual).toBe(expected);
  expect(typeof actual, `got ${JSON.stringify(actual)}`).toBe("number");
  const a = actual as number;
  const text = String(expected);
  const exponent = /e([+-]\d+)$/.exec(text);
  const mantissa = text.replace(/e[+-]\d+$/, "");
  const decimals = (mantissa.split(".")[1] ?? "").length - (exponent ? Number(exponent[1]) : 0);
  const tolerance = decimals > 0 ? 0.5 * 10 ** -decimals : expected === 0 ? 1e-15 : Math.abs(expected) * 1e-12;
  expect(Math.abs(a - expected), `${a} vs ${expected}`).toBeLessThanOrEqual(tolerance * (1 + 1e-9) + 1e-300);
}
