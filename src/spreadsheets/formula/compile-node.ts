// The syntax tree of a formula (from @borgar/fx) turned into closures. References become RangeValue
// makers relative to the cell the formula runs for (compile-refs.ts); operands of operators read
// single cells directly, without making a RangeValue first (the hot path of a recalculation); LET,
// LAMBDA and calls of LAMBDA values are compile-lambda.ts's.
import type { EvalContext } from "./context.ts";
import type { CompileEnv, NameDef } from "./env.ts";
import type { FnSpec, FnTable, Thunk } from "./functions/spec.ts";
import { BINARY, binary, intersectOp, lift, negate, percent, rangeOp, toOperand, unionOp } from "./ops.ts";
import { cellThunk, compileReference, implicitIntersection, singleRef, spillThunk } from "./compile-refs.ts";
import { callValue, compileLambda, compileLet, isOmittedCall, lambdaCall, variable } from "./compile-lambda.ts";
import type { RefSpec } from "./program.ts";
import { ERR, errorOf, isArray, isError, isLambda, isRange, RangeValue, type Scalar, type Value } from "./values.ts";
import { isErrorValue } from "../cells/types.ts";
import { contained } from "./contain.ts";
import { MAX_TEXT, textOut } from "./text-limit.ts";

export interface AstNode {
  type: string;
  value?: unknown;
  raw?: string;
  kind?: string;
  operator?: string;
  arguments?: (AstNode | null)[];
  callee?: AstNode & { name?: string };
  name?: string;
  elements?: AstNode[][];
  params?: { name: string }[];
  body?: AstNode | null;
  declarations?: { id: { name: string }; init: AstNode | null }[];
  loc?: [number, number];
}

/** LET and LAMBDA variables visible at a point of the formula: one level per LET or LAMBDA. */
export interface Scope {
  names: Map<string, number>;
  parent: Scope | null;
}

export interface NodeCompiler {
  functions: FnTable;
  env: CompileEnv;
  /** The sheet of the formula (names local to it come first). */
  sid: number;
  /** What relative references are relative to: the formula's cell, or A1 inside a defined name. */
  anchor: { row: number; col: number };
  /** The formula's cell, for unqualified structured references ([@Amount]); null inside a defined name. */
  cell: { row: number; col: number } | null;
  /** The function's canonical name (upper case, without _xlfn.). */
  fnName(name: string): string;
  unknown: string[];
  refs: RefSpec[];
  /** Defined names the formula uses, known or not (lower case): a change to one recompiles it. */
  names: Set<string>;
  volatile: boolean;
  scope: Scope | null;
  /** Names whose definitions are being compiled, for names that use themselves (recursive LAMBDAs). */
  naming: Map<NameDef, { thunk: Thunk | null }>;
}

export class CompileProblem extends Error {}

export const constant =
  (v: Value): Thunk =>
  () =>
    v;

/** Functions that add the areas of a 3-D reference or a union as separate arguments (Excel's list, and kin). */
const SPREADS_AREAS = new Set(
  "SUM AVERAGE AVERAGEA COUNT COUNTA MAX MAXA MIN MINA PRODUCT STDEV STDEVA STDEVP STDEVPA STDEV.S STDEV.P VAR VARA VARP VARPA VAR.S VAR.P MEDIAN SUMSQ AVEDEV DEVSQ GEOMEAN HARMEAN KURT SKEW MODE MODE.SNGL AND OR XOR CONCAT VSTACK HSTACK".split(
    " ",
  ),
);

/** A node whose value an operator reads: single cells are read directly. */
function operand(node: AstNode, c: NodeCompiler): Thunk {
  const single = singleRef(node, c);
  if (single) {
    c.refs.push(single);
    return cellThunk(single);
  }
  return compileNode(node, c);
}

function unary(node: AstNode, c: NodeCompiler): Thunk {
  const op = node.operator;
  if (op === "#") return spillThunk(compileNode(node.arguments?.[0] as AstNode, c));
  if (op === "@") {
    const arg = compileNode(node.arguments?.[0] as AstNode, c);
    return (ctx) => implicitIntersection(arg(ctx), ctx);
  }
  const arg = operand(node.arguments?.[0] as AstNode, c);
  if (op === "+") return arg;
  const f = op === "-" ? negate : op === "%" ? percent : null;
  if (!f) throw new CompileProblem(`the operator ${op} is not supported`);
  return (ctx) => {
    const v = toOperand(arg(ctx), ctx);
    return isArray(v) ? lift([v], f, ctx) : f(v);
  };
}

function binaryNode(node: AstNode, c: NodeCompiler): Thunk {
  const [a, b] = node.arguments as [AstNode, AstNode];
  const op = node.operator as string;
  if (op === ":" || op === " " || op === ",") {
    const [x, y] = [compileNode(a, c), compileNode(b, c)];
    const f = op === ":" ? rangeOp : op === " " ? intersectOp : unionOp;
    return (ctx) => f(x(ctx), y(ctx));
  }
  const f = BINARY[op];
  if (!f) throw new CompileProblem(`the operator ${op} is not supported`);
  const [x, y] = [operand(a, c), operand(b, c)];
  if (op === "&")
    return (ctx) => {
      const u = x(ctx);
      const v = y(ctx);
      if (typeof u === "object" || typeof v === "object") return binary(f, u, v, ctx);
      const joined = f(u, v);
      // The text made is charged (a lifted & charges its rows in lift).
      if (typeof joined === "string") ctx.step(joined.length);
      return joined;
    };
  return (ctx) => {
    const u = x(ctx);
    const v = y(ctx);
    return typeof u !== "object" && typeof v !== "object" ? f(u, v) : binary(f, u, v, ctx);
  };
}

function arrayNode(node: AstNode, c: NodeCompiler): Thunk {
  const rows = (node.elements ?? []).map((row) => row.map((el) => compileNode(el, c)));
  return (ctx) => rows.map((row) => row.map((el) => el(ctx) as Scalar));
}

/** Arguments that may hold a LAMBDA value: given to a function that does not call it, they are #CALC!. */
const mayBeLambda = (node: AstNode | null): boolean =>
  node !== null &&
  (node.type === "LambdaExpression" ||
    node.type === "LetExpression" ||
    (node.type === "ReferenceIdentifier" && node.kind === "name") ||
    (node.type === "CallExpression" && node.callee?.type !== "Identifier"));

const noLambda =
  (arg: Thunk): Thunk =>
  (ctx) => {
    const v = arg(ctx);
    return isLambda(v) ? ERR.CALC : v;
  };

function callNode(node: AstNode, c: NodeCompiler): Thunk {
  const callee = node.callee as AstNode & { name?: string };
  if (callee.type !== "Identifier") return lambdaCall(compileNode(callee, c), node.arguments ?? [], c);
  const written = callee.name ?? "";
  const name = c.fnName(written);
  if (name === "ISOMITTED") return isOmittedCall(node, c);
  const bound = variable(written, c);
  if (bound) return lambdaCall(bound, node.arguments ?? [], c);
  const spec = c.functions[name];
  if (!spec) return callValue(written, node.arguments ?? [], c);
  const nodes = node.arguments ?? [];
  const omitted = spec.keepOmitted ? constant(undefined as unknown as Value) : constant(null);
  const guard = spec.call !== undefined && !spec.lambda;
  const args = nodes.map((arg) =>
    arg === null ? omitted : guard && mayBeLambda(arg) ? noLambda(compileNode(arg, c)) : compileNode(arg, c),
  );
  if (args.length < spec.min || args.length > spec.max) {
    const range = spec.min === spec.max ? `${spec.min}` : spec.max === Infinity ? `at least ${spec.min}` : `${spec.min} to ${spec.max}`;
    throw new CompileProblem(`${name} takes ${range} argument${spec.max === 1 && spec.min === 1 ? "" : "s"}, not ${args.length}`);
  }
  if (spec.volatile) c.volatile = true;
  return callThunk(name, spec, args, SPREADS_AREAS.has(name));
}

/** Arguments with references of several areas spread into one argument an area, or #VALUE! for functions that take none. */
function withAreas(values: Value[], spec: FnSpec, spreads: boolean): Value[] | typeof ERR.VALUE {
  let multi = false;
  for (const v of values) if (v instanceof RangeValue && v.areas) multi = true;
  if (!multi || spec.areas) return values;
  if (!spreads) return ERR.VALUE;
  return values.flatMap((v) => (v instanceof RangeValue && v.areas ? [...v.areas] : [v]));
}

/** A function's value as a formula may hold it: text past 32,767 characters is #VALUE!, and charged (text-limit.ts). */
const limited = (v: Value, ctx: EvalContext): Value => (typeof v === "string" ? textOut(v, ctx) : v);

/** One element of a lifted scalar function: text capped (lift charges it). */
const capped = (v: Scalar): Scalar => (typeof v === "string" && v.length > MAX_TEXT ? ERR.VALUE : v);

/**
 * A call of a built-in function. Every call's text result is bounded (text-limit.ts) and a
 * RangeError from inside it (JavaScript's own limits) is that call's error value (contain.ts),
 * never the job's failure.
 */
function callThunk(name: string, spec: FnSpec, args: Thunk[], spreads: boolean): Thunk {
  if (spec.lazy) {
    const lazy = spec.lazy;
    return (ctx) => {
      try {
        return lazy(args, ctx);
      } catch (error) {
        return contained(error, name);
      }
    };
  }
  if (spec.call) {
    const call = spec.call;
    const lifted = spec.liftArgs;
    return (ctx) => {
      const values = withAreas(
        args.map((a) => a(ctx)),
        spec,
        spreads,
      );
      if (isError(values)) return values;
      try {
        return limited(lifted ? liftCall(call, values, lifted, ctx) : call(values, ctx), ctx);
      } catch (error) {
        return contained(error, name);
      }
    };
  }
  const scalar = spec.scalar as NonNullable<FnSpec["scalar"]>;
  return (ctx) => {
    const values = args.map((a) => toOperand(a(ctx), ctx));
    try {
      return values.some(isArray) ? lift(values, (...xs) => capped(scalar(xs, ctx)), ctx) : limited(scalar(values as Scalar[], ctx), ctx);
    } catch (error) {
      return contained(error, name);
    }
  };
}

/** One element of a lifted call's result: a value, never a reference or an array. */
function elementOf(v: Value, ctx: EvalContext): Scalar {
  if (isRange(v)) return v.single && !v.areas ? ctx.value(v.sid, v.top, v.left) : ERR.VALUE;
  if (isArray(v)) return v[0]?.[0] ?? null;
  return isLambda(v) ? ERR.CALC : v;
}

/** Runs a `call` function once per element of the arrays or ranges given to its one-value arguments. */
function liftCall(call: NonNullable<FnSpec["call"]>, values: Value[], lifted: readonly number[], ctx: EvalContext): Value {
  const arrays = new Map<number, Scalar[][]>();
  for (const i of lifted) {
    const v = values[i];
    if (v === undefined || !(isArray(v) || (isRange(v) && !v.single))) continue;
    const a = toOperand(v, ctx);
    if (isArray(a)) arrays.set(i, a);
  }
  if (arrays.size === 0) return call(values, ctx);
  const shapes = [...arrays.values()];
  const rows = Math.max(...shapes.map((a) => a.length));
  const cols = Math.max(...shapes.map((a) => a[0]?.length ?? 0));
  ctx.cells(rows * cols);
  return Array.from({ length: rows }, (_, r) => {
    ctx.step(cols);
    return Array.from({ length: cols }, (_, col) => {
      const args = values.slice();
      for (const [i, a] of arrays) args[i] = broadcastAt(a, r, col);
      const v = elementOf(call(args, ctx), ctx);
      return typeof v === "string" ? (limited(v, ctx) as Scalar) : v;
    });
  });
}

/** Excel's broadcasting: a single row or column stretches, cells outside both shapes are #N/A. */
function broadcastAt(a: Scalar[][], r: number, c: number): Scalar {
  const rr = a.length === 1 ? 0 : r;
  const cc = (a[0]?.length ?? 0) === 1 ? 0 : c;
  return rr < a.length && cc < (a[0]?.length ?? 0) ? (a[rr]?.[cc] ?? null) : ERR.NA;
}

export function compileNode(node: AstNode, c: NodeCompiler): Thunk {
  switch (node.type) {
    case "Literal":
      return constant(node.value === null ? ERR.NUM : (node.value as Scalar));
    case "ErrorLiteral":
      return constant(isErrorValue(String(node.value)) ? errorOf(node.value as never) : ERR.VALUE);
    case "ReferenceIdentifier":
      return compileReference(node, c);
    case "UnaryExpression":
      return unary(node, c);
    case "BinaryExpression":
      return binaryNode(node, c);
    case "CallExpression":
      return callNode(node, c);
    case "ArrayExpression":
      return arrayNode(node, c);
    case "LambdaExpression":
      return compileLambda(node, c);
    case "LetExpression":
      return compileLet(node, c);
    default:
      throw new CompileProblem(`${node.type} is not supported`);
  }
}
