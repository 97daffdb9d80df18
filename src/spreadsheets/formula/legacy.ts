// Formulas saved before dynamic arrays ("legacy": an .xlsx cell formula without the dynamic-array
// flag) mean something else than the same text today: where one value is wanted and a range or an
// array is given, Excel intersected implicitly (`=C7+G7:J7` takes the one cell of G7:J7 in the
// formula's column). Excel 365 shows such formulas with "@" at each of those places, and so does
// the gateway: legacySpots finds them, the compiler writes the "@", and from then on the formula is
// an ordinary one. Which places want one value follows each function's parameter classes: value
// parameters (ROUND's number, VLOOKUP's lookup value, CONCATENATE's texts) intersect; reference
// parameters (SUM's, COUNTIF's range) take a reference whole but intersect an expression given
// there (SUM(A1:A3*B1:B3) took A1*B1 in one row); array parameters (SUMPRODUCT's, INDEX's array,
// LOOKUP's vectors) evaluate everything inside as arrays.
import type { Token } from "@borgar/fx";
import type { AstNode } from "./compile-node.ts";
import type { CompileEnv } from "./env.ts";
import type { FnTable } from "./functions/spec.ts";
import { parseRefToken } from "./refs.ts";
import { resolveStructured } from "./structured.ts";
import { formulaTokens, parseTokens } from "./tokens.ts";
import { isError } from "./values.ts";

/** Where "@" goes: the first and last token of the expression, and whether "@" binds without parentheses. */
export type Spot = [first: number, last: number, atomic: boolean];

export type Context = "value" | "ref" | "array";

export interface LegacyEnv {
  functions: FnTable;
  env: CompileEnv;
  sid: number;
}

const ALL = "all";
type Args = readonly number[] | typeof ALL;

/** Parameters that take arrays (everything inside is evaluated as an array, no intersection). */
const ARRAY_ARGS: Record<string, Args> = {
  SUMPRODUCT: ALL,
  LOOKUP: [1, 2],
  MMULT: ALL,
  MINVERSE: ALL,
  MDETERM: ALL,
  TRANSPOSE: ALL,
  FREQUENCY: ALL,
  LINEST: ALL,
  LOGEST: ALL,
  TREND: ALL,
  GROWTH: ALL,
  CORREL: [0, 1],
  COVAR: [0, 1],
  "COVARIANCE.P": [0, 1],
  "COVARIANCE.S": [0, 1],
  PEARSON: [0, 1],
  RSQ: [0, 1],
  SLOPE: [0, 1],
  INTERCEPT: [0, 1],
  STEYX: [0, 1],
  FORECAST: [1, 2],
  "FORECAST.LINEAR": [1, 2],
  SUMX2MY2: ALL,
  SUMX2PY2: ALL,
  SUMXMY2: ALL,
  TTEST: [0, 1],
  "T.TEST": [0, 1],
  CHITEST: [0, 1],
  "CHISQ.TEST": [0, 1],
  FTEST: [0, 1],
  "F.TEST": [0, 1],
  PROB: [0, 1],
  INDEX: [0],
  MIRR: [0],
  XNPV: [1, 2],
  XIRR: [0, 1],
};

/** Parameters of reference-taking functions that still want one value each. */
const VALUE_ARGS: Record<string, Args> = {
  CONCATENATE: ALL,
  VLOOKUP: [0, 2, 3],
  HLOOKUP: [0, 2, 3],
  MATCH: [0, 2],
  XLOOKUP: [0, 4, 5],
  XMATCH: [0, 2, 3],
  INDEX: [1, 2, 3],
  OFFSET: [1, 2, 3, 4],
  COUNTIF: [1],
  SUMIF: [1],
  AVERAGEIF: [1],
  LARGE: [1],
  SMALL: [1],
  PERCENTILE: [1],
  "PERCENTILE.INC": [1],
  "PERCENTILE.EXC": [1],
  QUARTILE: [1],
  "QUARTILE.INC": [1],
  "QUARTILE.EXC": [1],
  RANK: [0, 2],
  "RANK.EQ": [0, 2],
  "RANK.AVG": [0, 2],
  NPV: [0],
  IRR: [1],
  NETWORKDAYS: [0, 1],
  WORKDAY: [0, 1],
  TEXTJOIN: [0, 1],
  INDIRECT: ALL,
  ADDRESS: ALL,
  HYPERLINK: ALL,
};

/** Functions whose result may be a range or an array even from single values. */
const ARRAY_RESULTS = new Set([
  ..."OFFSET INDIRECT TRANSPOSE MMULT MINVERSE MUNIT FREQUENCY LINEST LOGEST TREND GROWTH ANCHORARRAY".split(" "),
  // Dynamic-array functions: a formula with one where one value is wanted needs the dynamic-array flag in .xlsx.
  ..."FILTER SORT SORTBY UNIQUE SEQUENCE RANDARRAY TAKE DROP CHOOSEROWS CHOOSECOLS VSTACK HSTACK TOCOL TOROW WRAPROWS WRAPCOLS EXPAND MAP SCAN BYROW BYCOL MAKEARRAY".split(
    " ",
  ),
]);

const has = (args: Args | undefined, i: number) => args !== undefined && (args === ALL || args.includes(i));
const canonical = (name: string) => name.toUpperCase().replace(/^_XLFN\.(_XLWS\.)?|^_XLWS\./, "");

/** The class of parameter `i` of function `name`. */
export function argClass(name: string, i: number, functions: FnTable): Context {
  if (has(ARRAY_ARGS[name], i)) return "array";
  if (has(VALUE_ARGS[name], i)) return "value";
  if (/IFS$/.test(name) && name !== "IFS")
    return name === "COUNTIFS" ? (i % 2 === 1 ? "value" : "ref") : i >= 2 && i % 2 === 0 ? "value" : "ref";
  const spec = functions[name];
  if (!spec) return "value";
  if (spec.liftArgs?.includes(i)) return "value";
  return spec.call ? "ref" : "value";
}

const isReferenceOp = (node: AstNode) =>
  (node.type === "BinaryExpression" && [":", " ", ","].includes(node.operator ?? "")) ||
  (node.type === "UnaryExpression" && node.operator === "#");

/** Whether a reference or an expression can give more than one value (a range, an array, a name for either). */
export function mayBeMulti(node: AstNode, env: LegacyEnv, depth = 0): boolean {
  if (depth > 8) return false;
  switch (node.type) {
    case "ReferenceIdentifier":
      return referenceIsMulti(node, env, depth);
    case "ArrayExpression":
      return (node.elements?.length ?? 0) > 1 || (node.elements?.[0]?.length ?? 0) > 1;
    case "CallExpression":
      return callIsMulti(node, env);
    case "BinaryExpression":
    case "UnaryExpression":
      return isReferenceOp(node);
    default:
      return false;
  }
}

function referenceIsMulti(node: AstNode, env: LegacyEnv, depth: number): boolean {
  const text = String(node.value);
  if (node.kind === "beam") return true;
  if (node.kind === "range") {
    const ref = parseRefToken(text);
    return !!ref && (ref.threeD || (ref.b !== null && (ref.a.row !== ref.b.row || ref.a.col !== ref.b.col)));
  }
  if (node.kind === "table") {
    const r = resolveStructured(text, (name) => env.env.table(name), null);
    return isError(r) ? !/\[@|#this row/i.test(text) : r.rows === null && (r.spec.top !== r.spec.bottom || r.spec.left !== r.spec.right);
  }
  const bang = text.lastIndexOf("!");
  const def = env.env.name(bang < 0 ? text : text.slice(bang + 1), env.sid);
  if (!def) return env.env.table(text) !== null;
  try {
    return mayBeMulti(parseTokens(formulaTokens(def.formula)), env, depth + 1);
  } catch {
    return false;
  }
}

function callIsMulti(node: AstNode, env: LegacyEnv): boolean {
  const name = canonical(node.callee?.name ?? "");
  const args = node.arguments ?? [];
  if (ARRAY_RESULTS.has(name)) return true;
  if (name === "ROW" || name === "COLUMN") return !!args[0] && mayBeMulti(args[0], env);
  if (name !== "INDEX") return false;
  // INDEX(range, n, m) is one cell; a row or column number of 0 (or one left out of a 2-D range) is many.
  const zero = (a: AstNode | null | undefined) => a === null || (a?.type === "Literal" && a.value === 0);
  const first = args[0];
  const twoD = !!first && first.type === "ReferenceIdentifier" && isTwoD(first);
  return zero(args[1]) || (args.length > 2 && zero(args[2])) || (args.length < 3 && twoD);
}

/** A range of several rows and several columns. */
function isTwoD(node: AstNode): boolean {
  const ref = node.kind === "range" || node.kind === "beam" ? parseRefToken(String(node.value)) : null;
  if (!ref || !ref.b) return false;
  const rows = ref.a.row === null || ref.a.row !== ref.b.row;
  const cols = ref.a.col === null || ref.a.col !== ref.b.col;
  return rows && cols;
}

/** The index of each node's first and last token, from the tokens' character positions (null: not found); xlsx.ts uses it too. */
export function tokenSpans(tokens: Token[]): (node: AstNode) => [number, number] | null {
  const starts = new Map<number, number>();
  const ends = new Map<number, number>();
  tokens.forEach((t, i) => {
    const [start, end] = t.loc ?? [];
    if (start === undefined || end === undefined) return;
    if (!starts.has(start)) starts.set(start, i);
    ends.set(end, i);
  });
  return (node) => {
    const first = node.loc ? starts.get(node.loc[0]) : undefined;
    const last = node.loc ? ends.get(node.loc[1]) : undefined;
    return first === undefined || last === undefined ? null : [first, last];
  };
}

/** Where a legacy formula intersected implicitly: the expressions that get "@". */
export function legacySpots(ast: AstNode, tokens: Token[], env: LegacyEnv): Spot[] {
  const span = tokenSpans(tokens);
  const spots: Spot[] = [];
  const mark = (node: AstNode) => {
    const at = span(node);
    if (at) spots.push([at[0], at[1], at[0] === at[1] || node.type === "CallExpression"]);
  };
  walk(ast, "value", env, mark);
  return spots;
}

/** Visits a node in its context; `mark` is called for each expression legacy Excel intersected. */
export function walk(node: AstNode | null | undefined, context: Context, env: LegacyEnv, mark: (node: AstNode) => void): void {
  if (!node || context === "array") return;
  const isRef = node.type === "ReferenceIdentifier" || isReferenceOp(node);
  if (isRef) {
    if (context === "value" && mayBeMulti(node, env)) mark(node);
    return;
  }
  switch (node.type) {
    case "UnaryExpression":
      // "@" intersects as legacy Excel did, wherever it stands: its operand is seen in the context "@" is in.
      if (node.operator === "@") return walk(node.arguments?.[0], context, env, mark);
      for (const arg of node.arguments ?? []) walk(arg, "value", env, mark);
      return;
    case "BinaryExpression":
      for (const arg of node.arguments ?? []) walk(arg, "value", env, mark);
      return;
    case "ArrayExpression":
      if (context === "value" && mayBeMulti(node, env)) mark(node);
      return;
    case "CallExpression": {
      const name = canonical(node.callee?.name ?? "");
      if (context === "value" && mayBeMulti(node, env)) mark(node);
      (node.arguments ?? []).forEach((arg, i) => walk(arg, argClass(name, i, env.functions), env, mark));
      return;
    }
    default:
      return;
  }
}
