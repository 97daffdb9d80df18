// Random Excel formulas from the grammar the engine parses, for the formula fuzzer: literals
// (numbers, texts, booleans, errors, arrays), references (cells, ranges, whole rows and columns,
// another sheet, a few very large ranges), unary and binary operators, LET and LAMBDA, and calls of
// every function in the engine's table with arities around its own (some outside it). Random cells
// for the workbook the formulas run against, long texts and formulas among them.
import fc from "fast-check";
import { FUNCTIONS } from "../../src/spreadsheets/formula/functions/index.ts";

const NAMES = Object.keys(FUNCTIONS).sort();
const COLUMNS = "ABCDEF";

const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

const numberLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 40 }).map(String),
  fc.constantFrom("0", "0.5", "1E308", "1E-308", "32767", "32768", "1048576", "16384", "2958465", "-1", "1E15", "100000", "1E300"),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).map((n) => String(n).replace("e", "E").replace("E+", "E")),
);

const stringLiteral: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      "",
      "a",
      "abc",
      "*",
      "?",
      "~*",
      "1",
      "2026-01-31",
      "TRUE",
      "#N/A",
      " x ",
      "a,b;c",
      "Sheet1!A1",
      "A1:B2",
      "R1C1",
      "0.00%",
      "yyyy-mm-dd",
    ),
    fc.string({ maxLength: 12 }),
  )
  .map(quoted);

const errorLiteral = fc.constantFrom("#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!");

const cell = fc
  .tuple(fc.constantFrom(...COLUMNS), fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.boolean())
  .map(([col, row, colAbs, rowAbs]) => `${colAbs ? "$" : ""}${col}${rowAbs ? "$" : ""}${row}`);

const reference: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: cell },
  { weight: 4, arbitrary: fc.tuple(cell, cell).map(([a, b]) => `${a}:${b}`) },
  { weight: 1, arbitrary: fc.constantFrom("A:A", "B:C", "1:1", "2:3", "A:XFD", "A1:XFD1000", "A1:XFD1048576", "Sheet1!A1:F12") },
  { weight: 1, arbitrary: cell.map((c) => `'Sheet 2'!${c}`) },
  { weight: 1, arbitrary: fc.constantFrom("'Sheet 2'!A1:C3", "Sheet1:'Sheet 2'!A1:B2", "(A1,C1:C3)", "A1:C3 B2:D4", "A1#") },
);

const array = fc
  .array(fc.array(fc.oneof(numberLiteral, stringLiteral, fc.constantFrom("TRUE", "FALSE")), { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((rows) => {
    const width = Math.min(...rows.map((r) => r.length));
    return `{${rows.map((r) => r.slice(0, width).join(",")).join(";")}}`;
  });

const leaf: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: numberLiteral },
  { weight: 3, arbitrary: stringLiteral },
  { weight: 1, arbitrary: fc.constantFrom("TRUE", "FALSE") },
  { weight: 1, arbitrary: errorLiteral },
  { weight: 5, arbitrary: reference },
  { weight: 1, arbitrary: array },
);

const BINARY = ["+", "-", "*", "/", "^", "&", "=", "<>", "<", ">", "<=", ">="];

/** How many arguments to give a function: mostly within its arity, now and then one outside. */
function arity(name: string): fc.Arbitrary<number> {
  const spec = FUNCTIONS[name]!;
  const max = Math.min(spec.max, spec.min + 3);
  return fc.oneof({ weight: 9, arbitrary: fc.integer({ min: spec.min, max }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 5 }) });
}

/** A formula without its "=", nested up to `depth` calls and operators. */
export function expression(depth: number): fc.Arbitrary<string> {
  if (depth <= 0) return leaf;
  const inner = expression(depth - 1);
  const call = fc
    .constantFrom(...NAMES)
    .chain((name) => arity(name).chain((n) => fc.array(inner, { minLength: n, maxLength: n }).map((args) => `${name}(${args.join(",")})`)));
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 5, arbitrary: call },
    { weight: 3, arbitrary: fc.tuple(inner, fc.constantFrom(...BINARY), inner).map(([a, op, b]) => `${a}${op}${b}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("-", "+"), inner).map(([op, a]) => `${op}(${a})`) },
    { weight: 1, arbitrary: inner.map((a) => `(${a})%`) },
    { weight: 1, arbitrary: fc.tuple(inner, inner).map(([a, b]) => `LET(x,${a},y,${b},x&y)`) },
    { weight: 1, arbitrary: fc.tuple(inner, inner).map(([a, b]) => `LAMBDA(v,w,v*w+LEN(v))(${a},${b})`) },
    { weight: 1, arbitrary: fc.tuple(reference, inner).map(([r, a]) => `MAP(${r},LAMBDA(v,IFERROR(v&${a},v)))`) },
    { weight: 1, arbitrary: fc.tuple(reference, inner).map(([r, a]) => `REDUCE(0,${r},LAMBDA(acc,v,acc+N(v)+N(${a})))`) },
  );
}

/** A formula, "=" first. */
export const formula = (depth = 3): fc.Arbitrary<string> => expression(depth).map((e) => `=${e}`);

/** What a random cell holds, as a caller writes it (`input=parse`). */
export const cellInput: fc.Arbitrary<string | number | boolean | null> = fc.oneof(
  { weight: 4, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }) },
  { weight: 2, arbitrary: fc.integer({ min: -10, max: 100 }) },
  { weight: 3, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(32_767), "ab".repeat(16_000), "2026-01-31", "12%", "#N/A", "#DIV/0!", "TRUE") },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: expression(1).map((e) => `=${e}`) },
);

/** Rows × columns of random cells. */
export const cells = (rows: number, columns: number): fc.Arbitrary<(string | number | boolean | null)[][]> =>
  fc.array(fc.array(cellInput, { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows });
