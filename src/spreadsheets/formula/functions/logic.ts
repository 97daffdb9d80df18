// Logical functions. IF, IFS, IFERROR, IFNA, SWITCH and CHOOSE evaluate only the branch they take.
import type { EvalContext } from "../context.ts";
import { compare, toBoolean, toNumber } from "../coerce.ts";
import { lift, toOperand } from "../ops.ts";
import { ERR, isArray, isError, isRange, type FormulaError, type Scalar, type Value } from "../values.ts";
import type { FnTable, Thunk } from "./spec.ts";

function ifFn(args: Thunk[], ctx: EvalContext): Value {
  const cond = toOperand((args[0] as Thunk)(ctx), ctx);
  const branch = (i: number): Value => (args[i] ? (args[i] as Thunk)(ctx) : i === 1 ? 0 : false);
  if (isArray(cond)) {
    const yes = toOperand(branch(1), ctx);
    const no = toOperand(branch(2), ctx);
    return lift(
      [cond, yes, no],
      (c, y, n) => {
        const b = toBoolean(c);
        return isError(b) ? b : b ? y : n;
      },
      ctx,
    );
  }
  const b = toBoolean(cond);
  if (isError(b)) return b;
  return branch(b ? 1 : 2);
}

function ifs(args: Thunk[], ctx: EvalContext): Value {
  for (let i = 0; i + 1 < args.length; i += 2) {
    const cond = toOperand((args[i] as Thunk)(ctx), ctx);
    const b = toBoolean(isArray(cond) ? (cond[0]?.[0] ?? null) : cond);
    if (isError(b)) return b;
    if (b) return (args[i + 1] as Thunk)(ctx);
  }
  return ERR.NA;
}

function catching(test: (e: FormulaError) => boolean) {
  return (args: Thunk[], ctx: EvalContext): Value => {
    const v = toOperand((args[0] as Thunk)(ctx), ctx);
    if (isArray(v)) {
      const alt = toOperand((args[1] as Thunk)(ctx), ctx);
      return lift([v, alt], (x, a) => (isError(x) && test(x) ? a : x), ctx);
    }
    return isError(v) && test(v) ? (args[1] as Thunk)(ctx) : v;
  };
}

/** The booleans AND/OR/XOR see: in references and arrays booleans and numbers (text and empty skipped). */
function logicals(args: Value[], ctx: EvalContext): boolean[] | FormulaError {
  const out: boolean[] = [];
  let error: FormulaError | null = null;
  const take = (v: Scalar, direct: boolean): void => {
    if (typeof v === "boolean") out.push(v);
    else if (typeof v === "number") out.push(v !== 0);
    else if (isError(v)) error ??= v;
    else if (direct && typeof v === "string") {
      const b = toBoolean(v);
      if (isError(b)) error ??= b;
      else out.push(b);
    }
  };
  for (const arg of args) {
    if (isRange(arg)) ctx.forEach(arg, (v) => take(v, false));
    else if (isArray(arg)) for (const row of arg) for (const v of row) take(v, false);
    else if (arg !== null) take(arg, true);
  }
  if (error) return error;
  return out.length === 0 ? ERR.VALUE : out;
}

const logical = (f: (bs: boolean[]) => boolean) => (args: Value[], ctx: EvalContext) => {
  const bs = logicals(args, ctx);
  return isError(bs) ? bs : f(bs);
};

function switchFn(args: Thunk[], ctx: EvalContext): Value {
  const expr = toOperand((args[0] as Thunk)(ctx), ctx);
  const subject = isArray(expr) ? (expr[0]?.[0] ?? null) : expr;
  if (isError(subject)) return subject;
  let i = 1;
  for (; i + 1 < args.length; i += 2) {
    const candidate = toOperand((args[i] as Thunk)(ctx), ctx);
    const v = isArray(candidate) ? (candidate[0]?.[0] ?? null) : candidate;
    if (isError(v)) return v;
    if (typeof v === typeof subject && compare(subject, v) === 0) return (args[i + 1] as Thunk)(ctx);
  }
  return i < args.length ? (args[i] as Thunk)(ctx) : ERR.NA;
}

function chosen(index: Scalar, count: number): number | FormulaError {
  if (isError(index)) return index;
  const n = toNumber(index);
  if (typeof n !== "number") return n;
  const i = Math.trunc(n);
  return i >= 1 && i < count ? i : ERR.VALUE;
}

/** CHOOSE: only the chosen value is computed; an array of indexes chooses per element (each value computed once). */
function choose(args: Thunk[], ctx: EvalContext): Value {
  const index = toOperand((args[0] as Thunk)(ctx), ctx);
  if (!isArray(index)) {
    const i = chosen(index, args.length);
    return typeof i === "number" ? (args[i] as Thunk)(ctx) : i;
  }
  const values = new Map<number, Scalar | Scalar[][]>();
  const valueAt = (i: number) => {
    if (!values.has(i)) values.set(i, toOperand((args[i] as Thunk)(ctx), ctx));
    return values.get(i) as Scalar | Scalar[][];
  };
  return lift(
    [index],
    (x) => {
      const i = chosen(x, args.length);
      if (typeof i !== "number") return i;
      const v = valueAt(i);
      return isArray(v) ? (v[0]?.[0] ?? null) : v;
    },
    ctx,
  );
}

export const LOGIC: FnTable = {
  IF: { min: 2, max: 3, lazy: ifFn },
  IFS: { min: 2, max: 254, lazy: ifs },
  IFERROR: { min: 2, max: 2, lazy: catching(() => true) },
  IFNA: { min: 2, max: 2, lazy: catching((e) => e === ERR.NA) },
  AND: { min: 1, max: 255, call: logical((bs) => bs.every(Boolean)) },
  OR: { min: 1, max: 255, call: logical((bs) => bs.some(Boolean)) },
  XOR: { min: 1, max: 255, call: logical((bs) => bs.filter(Boolean).length % 2 === 1) },
  NOT: {
    min: 1,
    max: 1,
    scalar: ([v]) => {
      const b = toBoolean(v ?? null);
      return isError(b) ? b : !b;
    },
  },
  TRUE: { min: 0, max: 0, scalar: () => true },
  FALSE: { min: 0, max: 0, scalar: () => false },
  SWITCH: { min: 3, max: 254, lazy: switchFn },
  CHOOSE: { min: 2, max: 255, lazy: choose },
};
