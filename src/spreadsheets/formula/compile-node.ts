// The syntax tree of a formula (from @borgar/fx) turned into closures. References become RangeValue
// makers relative to the cell the formula runs for; operands of operators read single cells
// directly, without making a RangeValue first (the hot path of a recalculation).
import { MAX_COLUMNS, MAX_ROWS } from "../types.ts";
import type { EvalContext } from "./context.ts";
import type { FnSpec, FnTable, Thunk } from "./functions/spec.ts";
import { BINARY, binary, intersectOp, lift, negate, percent, rangeOp, toOperand } from "./ops.ts";
import { NO_SHEET, OWN_SHEET, type RefSpec } from "./program.ts";
import { ERR, errorOf, isArray, isError, RangeValue, type Scalar, type Value } from "./values.ts";
import { isErrorValue } from "../types.ts";

export interface AstNode {
  type: string;
  value?: unknown;
  raw?: string;
  kind?: string;
  operator?: string;
  arguments?: (AstNode | null)[];
  callee?: { name: string };
  elements?: AstNode[][];
}

export interface NodeCompiler {
  functions: FnTable;
  /** Turns a reference token's text into a spec; null when it is not a reference the engine takes. */
  ref(text: string): RefSpec | null;
  /** The function's canonical name (upper case, without _xlfn.). */
  fnName(name: string): string;
  unknown: string[];
  refs: RefSpec[];
  volatile: boolean;
}

export class CompileProblem extends Error {}

const constant =
  (v: Value): Thunk =>
  () =>
    v;

function rangeThunk(spec: RefSpec): Thunk {
  const fixed = spec.topAbs && spec.leftAbs && spec.bottomAbs && spec.rightAbs;
  if (spec.sid === NO_SHEET) return constant(ERR.REF);
  if (fixed && spec.sid !== OWN_SHEET) return constant(new RangeValue(spec.sid, spec.top, spec.left, spec.bottom, spec.right));
  return (ctx) => {
    const top = spec.topAbs ? spec.top : ctx.row + spec.top;
    const bottom = spec.bottomAbs ? spec.bottom : ctx.row + spec.bottom;
    const left = spec.leftAbs ? spec.left : ctx.col + spec.left;
    const right = spec.rightAbs ? spec.right : ctx.col + spec.right;
    if (top < 0 || left < 0 || bottom >= MAX_ROWS || right >= MAX_COLUMNS) return ERR.REF;
    return new RangeValue(
      spec.sid === OWN_SHEET ? ctx.sid : spec.sid,
      Math.min(top, bottom),
      Math.min(left, right),
      Math.max(top, bottom),
      Math.max(left, right),
    );
  };
}

/** A single-cell reference read straight to its value. */
function cellThunk(spec: RefSpec): Thunk {
  if (spec.sid === NO_SHEET) return constant(ERR.REF);
  const { top, left, topAbs, leftAbs, sid } = spec;
  return (ctx) => {
    const r = topAbs ? top : ctx.row + top;
    const c = leftAbs ? left : ctx.col + left;
    if (r < 0 || c < 0 || r >= MAX_ROWS || c >= MAX_COLUMNS) return ERR.REF;
    return ctx.value(sid === OWN_SHEET ? ctx.sid : sid, r, c);
  };
}

const isSingle = (s: RefSpec) => s.top === s.bottom && s.left === s.right && s.topAbs === s.bottomAbs && s.leftAbs === s.rightAbs;

/** A node whose value an operator reads: single cells are read directly. */
function operand(node: AstNode, c: NodeCompiler): Thunk {
  if (node.type === "ReferenceIdentifier" && (node.kind === "range" || node.kind === "beam")) {
    const spec = c.ref(String(node.value));
    if (spec && isSingle(spec)) {
      c.refs.push(spec);
      return cellThunk(spec);
    }
  }
  return compileNode(node, c);
}

function unary(node: AstNode, c: NodeCompiler): Thunk {
  const arg = operand(node.arguments?.[0] as AstNode, c);
  const op = node.operator;
  if (op === "@" || op === "+") return arg;
  const f = op === "-" ? negate : op === "%" ? percent : null;
  if (!f) throw new CompileProblem(`the operator ${op} is not supported`);
  return (ctx) => {
    const v = toOperand(arg(ctx), ctx);
    return isArray(v) ? lift([v], f) : f(v);
  };
}

function binaryNode(node: AstNode, c: NodeCompiler): Thunk {
  const [a, b] = node.arguments as [AstNode, AstNode];
  const op = node.operator as string;
  if (op === ":" || op === " ") {
    const [x, y] = [compileNode(a, c), compileNode(b, c)];
    const f = op === ":" ? rangeOp : intersectOp;
    return (ctx) => f(x(ctx), y(ctx));
  }
  const f = BINARY[op];
  if (!f) throw new CompileProblem(op === "," ? "reference unions (A1,B2) are not supported" : `the operator ${op} is not supported`);
  const [x, y] = [operand(a, c), operand(b, c)];
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

function callNode(node: AstNode, c: NodeCompiler): Thunk {
  const written = node.callee?.name ?? "";
  const name = c.fnName(written);
  const spec = c.functions[name];
  if (!spec) {
    c.unknown.push(written.toUpperCase());
    return constant(ERR.NAME);
  }
  const args = (node.arguments ?? []).map((arg) => (arg === null ? constant(null) : compileNode(arg, c)));
  if (args.length < spec.min || args.length > spec.max) {
    const range = spec.min === spec.max ? `${spec.min}` : spec.max === Infinity ? `at least ${spec.min}` : `${spec.min} to ${spec.max}`;
    throw new CompileProblem(`${name} takes ${range} argument${spec.max === 1 && spec.min === 1 ? "" : "s"}, not ${args.length}`);
  }
  if (spec.volatile) c.volatile = true;
  return callThunk(spec, args);
}

function callThunk(spec: FnSpec, args: Thunk[]): Thunk {
  if (spec.lazy) {
    const lazy = spec.lazy;
    return (ctx) => lazy(args, ctx);
  }
  if (spec.call) {
    const call = spec.call;
    return (ctx) =>
      call(
        args.map((a) => a(ctx)),
        ctx,
      );
  }
  const scalar = spec.scalar as NonNullable<FnSpec["scalar"]>;
  return (ctx) => {
    const values = args.map((a) => toOperand(a(ctx), ctx));
    return values.some(isArray) ? lift(values, (...xs) => scalar(xs, ctx)) : scalar(values as Scalar[], ctx);
  };
}

export function compileNode(node: AstNode, c: NodeCompiler): Thunk {
  switch (node.type) {
    case "Literal":
      return constant(node.value === null ? ERR.NUM : (node.value as Scalar));
    case "ErrorLiteral":
      return constant(isErrorValue(String(node.value)) ? errorOf(node.value as never) : ERR.VALUE);
    case "ReferenceIdentifier": {
      if (node.kind === "range" || node.kind === "beam") {
        const spec = c.ref(String(node.value));
        if (!spec) throw new CompileProblem(`"${String(node.value)}" is not a reference the engine takes`);
        c.refs.push(spec);
        return rangeThunk(spec);
      }
      c.unknown.push(String(node.value));
      return constant(ERR.NAME);
    }
    case "UnaryExpression":
      return unary(node, c);
    case "BinaryExpression":
      return binaryNode(node, c);
    case "CallExpression":
      return callNode(node, c);
    case "ArrayExpression":
      return arrayNode(node, c);
    default:
      throw new CompileProblem(
        `${node.type === "LetExpression" ? "LET" : node.type === "LambdaExpression" ? "LAMBDA" : node.type} is not supported`,
      );
  }
}

/** The value a cell keeps from its formula's result: references read, arrays and ranges to one value. */
export function cellResult(v: Value, ctx: EvalContext): Scalar {
  if (v instanceof RangeValue) {
    if (v.single) return ctx.value(v.sid, v.top, v.left) ?? 0;
    // Implicit intersection, as Excel before dynamic arrays and LibreOffice do.
    if (v.left === v.right && ctx.row >= v.top && ctx.row <= v.bottom && ctx.sid === v.sid) return ctx.value(v.sid, ctx.row, v.left) ?? 0;
    if (v.top === v.bottom && ctx.col >= v.left && ctx.col <= v.right && ctx.sid === v.sid) return ctx.value(v.sid, v.top, ctx.col) ?? 0;
    return ERR.VALUE;
  }
  if (isArray(v)) return v[0]?.[0] ?? 0;
  if (v === null) return 0;
  if (typeof v === "number" && !Number.isFinite(v)) return ERR.NUM;
  return isError(v) ? v : v;
}
