// formula.js (@formulajs/formulajs) as the function library behind a small evaluator of ours, which is
// what adopting its implementations would mean: @borgar/fx parses the formula; operators, literals,
// arrays and references are evaluated here; every function call goes to formula.js. References read
// the workbook as Excel saved it (constants, and Excel's cached results for formula cells), so each
// cell is judged on its own function calls with Excel's inputs, not on what other cells computed.
import { parse, parseA1Ref, tokenize } from "@borgar/fx";
import { canonicalFunction } from "../../test/spreadsheets/excel-corpus/categories.ts";
import type { Expected } from "../../test/spreadsheets/excel-corpus/cells.ts";

type Fn = (...args: unknown[]) => unknown;
export type FormulaJs = Record<string, unknown>;
type V = unknown;

interface Node {
  type: string;
  operator?: string;
  value?: unknown;
  kind?: string;
  callee?: { name: string };
  arguments?: Node[];
  elements?: Node[][];
}

/** A sheet's values: "row,column" (0-based) → value; `rows` its last row. */
export interface SheetValues {
  cells: Map<string, Expected>;
  rows: number;
}

/** formula.js's implementation of an Excel function (STDEV.S is F.STDEV.S), if it has one. */
export function formulaJsFunction(F: FormulaJs, name: string): Fn | undefined {
  const direct = F[name];
  if (typeof direct === "function") return direct as Fn;
  const nested = name
    .split(".")
    .reduce<unknown>(
      (o, key) => ((o && typeof o === "object") || typeof o === "function" ? (o as Record<string, unknown>)[key] : undefined),
      F,
    );
  return typeof nested === "function" ? (nested as Fn) : undefined;
}

class Failure {
  constructor(readonly error: string) {}
}

const EPOCH = Date.UTC(1899, 11, 30);
function toExpected(value: V): Expected | null {
  if (Array.isArray(value)) return toExpected(Array.isArray(value[0]) ? value[0][0] : value[0]);
  if (value instanceof Error) return { error: value.message };
  if (value instanceof Failure) return { error: value.error };
  if (value instanceof Date) return (value.getTime() - value.getTimezoneOffset() * 60_000 - EPOCH) / 86_400_000;
  if (typeof value === "number") return Number.isFinite(value) ? value : { error: "#NUM!" };
  if (typeof value === "string" || typeof value === "boolean") return value;
  return null;
}

const num = (v: V): number | Failure => {
  if (v instanceof Failure) return v;
  if (v instanceof Error) return new Failure(v.message);
  if (v === null || v === undefined || v === "") return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : new Failure("#VALUE!");
};

const scalar = (v: V): V => (Array.isArray(v) ? scalar(Array.isArray(v[0]) ? v[0][0] : v[0]) : v);

function binary(op: string, a: V, b: V): V {
  a = scalar(a);
  b = scalar(b);
  if (a instanceof Failure || a instanceof Error) return a;
  if (b instanceof Failure || b instanceof Error) return b;
  if (op === "&")
    return `${a === null ? "" : typeof a === "boolean" ? String(a).toUpperCase() : String(a)}${b === null ? "" : typeof b === "boolean" ? String(b).toUpperCase() : String(b)}`;
  if (["=", "<>", "<", ">", "<=", ">="].includes(op)) {
    const x = typeof a === "string" ? a.toLowerCase() : (a ?? 0);
    const y = typeof b === "string" ? b.toLowerCase() : (b ?? 0);
    const c = x === y ? 0 : (x as number) < (y as number) ? -1 : 1;
    return { "=": c === 0, "<>": c !== 0, "<": c < 0, ">": c > 0, "<=": c <= 0, ">=": c >= 0 }[op];
  }
  const x = num(a);
  const y = num(b);
  if (x instanceof Failure) return x;
  if (y instanceof Failure) return y;
  if (op === "/" && y === 0) return new Failure("#DIV/0!");
  return { "+": x + y, "-": x - y, "*": x * y, "/": x / y, "^": x ** y }[op] ?? new Failure("#VALUE!");
}

/** Evaluates one formula at `sheet`; `values` gives the workbook's sheets by lower-case name. */
export function evaluateWithFormulaJs(F: FormulaJs, formula: string, sheet: string, values: Map<string, SheetValues>): Expected | null {
  const read = (ref: string): V => {
    const parsed = parseA1Ref(ref);
    if (!parsed || !("range" in parsed) || !parsed.range) return new Failure("#REF!");
    const context = parsed.context ?? [];
    const target = values.get((context[0] ?? sheet).toLowerCase());
    if (!target || context.length > 1) return new Failure("#REF!");
    const { top, left, bottom, right } = parsed.range;
    const [t, l, b, r] = [top ?? 0, left ?? 0, Math.min(bottom ?? target.rows, target.rows), right ?? 255];
    const at = (row: number, column: number): V => {
      const v = target.cells.get(`${row},${column}`) ?? null;
      return v !== null && typeof v === "object" ? new Failure(v.error) : v;
    };
    if (t === b && l === r) return at(t, l);
    return Array.from({ length: Math.max(b - t + 1, 0) }, (_, i) => Array.from({ length: r - l + 1 }, (_, j) => at(t + i, l + j)));
  };
  const evaluate = (node: Node): V => {
    switch (node.type) {
      case "Literal":
        return node.value;
      case "ErrorLiteral":
        return new Failure(String(node.value));
      case "ReferenceIdentifier":
        return node.kind === "range" || node.kind === "beam" ? read(String(node.value)) : new Failure("#NAME?");
      case "ArrayExpression":
        return node.elements!.map((row) => row.map(evaluate));
      case "UnaryExpression": {
        const v = num(scalar(evaluate(node.arguments![0]!)));
        if (v instanceof Failure) return v;
        return node.operator === "-" ? -v : node.operator === "%" ? v / 100 : v;
      }
      case "BinaryExpression":
        return binary(node.operator!, evaluate(node.arguments![0]!), evaluate(node.arguments![1]!));
      case "CallExpression": {
        const fn = formulaJsFunction(F, canonicalFunction(node.callee!.name));
        if (!fn) return new Failure("#NAME?");
        const args = node.arguments!.map((a) => {
          const v = evaluate(a);
          return v instanceof Failure ? new Error(v.error) : v;
        });
        return fn(...args);
      }
      default:
        return new Failure("#NAME?");
    }
  };
  try {
    return toExpected(evaluate(parse(tokenize(`=${formula}`, { mergeRefs: true }), {}) as unknown as Node));
  } catch (failure) {
    return { error: `(threw: ${failure instanceof Error ? failure.message.slice(0, 60) : String(failure)})` };
  }
}
