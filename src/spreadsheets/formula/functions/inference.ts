// Hypothesis tests: Z.TEST, T.TEST, F.TEST, CHISQ.TEST (and ZTEST, TTEST, FTEST, CHITEST). Samples
// are read as Excel's aggregates read them (only numbers inside references); the paired t-test
// and CHISQ.TEST read positions, so their two arguments must match in size (#N/A otherwise).
import type { EvalContext } from "../context.ts";
import { ERR, isError, type Scalar, type Value } from "../values.ts";
import { numberArg, numbers } from "./args.ts";
import { cellsOf, devsq, finite, meanOf, pairs, trunc } from "./numeric.ts";
import { betaI, gammaQ, normCdf } from "./special.ts";
import type { FnTable } from "./spec.ts";

const tUpper = (t: number, df: number): number => 0.5 * betaI(df / (df + t * t), df / 2, 0.5);
const fSf = (x: number, a: number, b: number) => betaI(b / (a * x + b), b / 2, a / 2);

function ztest(args: Value[], ctx: EvalContext): Value {
  const xs = numbers(args.slice(0, 1), ctx);
  if (isError(xs)) return xs;
  const x = numberArg(args[1], ctx);
  if (isError(x)) return x;
  if (xs.length === 0) return ERR.NA;
  let sigma: number;
  if (args[2] === undefined || args[2] === null) {
    if (xs.length < 2) return ERR.DIV0;
    sigma = Math.sqrt(devsq(xs) / (xs.length - 1));
  } else {
    const s = numberArg(args[2], ctx);
    if (isError(s)) return s;
    sigma = s;
  }
  if (sigma <= 0) return sigma === 0 ? ERR.DIV0 : ERR.NUM;
  return finite(1 - normCdf((meanOf(xs) - x) / (sigma / Math.sqrt(xs.length))));
}

function ttest(args: Value[], ctx: EvalContext): Value {
  const tailsRaw = numberArg(args[2], ctx);
  if (isError(tailsRaw)) return tailsRaw;
  const typeRaw = numberArg(args[3], ctx);
  if (isError(typeRaw)) return typeRaw;
  const [tails, type] = [trunc(tailsRaw), trunc(typeRaw)];
  if ((tails !== 1 && tails !== 2) || type < 1 || type > 3) return ERR.NUM;
  let t: number;
  let df: number;
  if (type === 1) {
    const p = pairs(args[0] ?? null, args[1] ?? null, ctx);
    if (isError(p)) return p;
    const d = p.xs.map((x, i) => x - (p.ys[i] as number));
    if (d.length < 2) return ERR.DIV0;
    const sd = Math.sqrt(devsq(d) / (d.length - 1));
    if (sd === 0) return ERR.DIV0;
    t = meanOf(d) / (sd / Math.sqrt(d.length));
    df = d.length - 1;
  } else {
    const a = numbers(args.slice(0, 1), ctx);
    if (isError(a)) return a;
    const b = numbers(args.slice(1, 2), ctx);
    if (isError(b)) return b;
    const got = twoSample(a, b, type === 2);
    if (isError(got)) return got;
    [t, df] = got;
  }
  return finite(tails * tUpper(Math.abs(t), df));
}

function twoSample(a: number[], b: number[], equal: boolean): [number, number] | typeof ERR.DIV0 {
  const [n1, n2] = [a.length, b.length];
  if (n1 < 2 || n2 < 2) return ERR.DIV0;
  const [v1, v2] = [devsq(a) / (n1 - 1), devsq(b) / (n2 - 1)];
  const diff = meanOf(a) - meanOf(b);
  if (equal) {
    const pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / (n1 + n2 - 2);
    const se = Math.sqrt(pooled * (1 / n1 + 1 / n2));
    return se === 0 ? ERR.DIV0 : [diff / se, n1 + n2 - 2];
  }
  const [q1, q2] = [v1 / n1, v2 / n2];
  if (q1 + q2 === 0) return ERR.DIV0;
  const df = (q1 + q2) ** 2 / (q1 ** 2 / (n1 - 1) + q2 ** 2 / (n2 - 1));
  return [diff / Math.sqrt(q1 + q2), df];
}

function ftest(args: Value[], ctx: EvalContext): Value {
  const a = numbers(args.slice(0, 1), ctx);
  if (isError(a)) return a;
  const b = numbers(args.slice(1, 2), ctx);
  if (isError(b)) return b;
  if (a.length < 2 || b.length < 2) return ERR.DIV0;
  const [v1, v2] = [devsq(a) / (a.length - 1), devsq(b) / (b.length - 1)];
  if (v1 === 0 || v2 === 0) return ERR.DIV0;
  const upper = fSf(v1 / v2, a.length - 1, b.length - 1);
  return finite(2 * Math.min(upper, 1 - upper));
}

function chisqTest(args: Value[], ctx: EvalContext): Value {
  const actual = cellsOf(args[0] ?? null, ctx);
  if (isError(actual)) return actual;
  const expected = cellsOf(args[1] ?? null, ctx);
  if (isError(expected)) return expected;
  if (actual.rows !== expected.rows || actual.columns !== expected.columns) return ERR.NA;
  let stat = 0;
  for (let i = 0; i < actual.values.length; i++) {
    const [a, e]: Scalar[] = [actual.values[i] ?? null, expected.values[i] ?? null];
    if (isError(a)) return a;
    if (isError(e)) return e;
    if (typeof a !== "number" || typeof e !== "number") continue;
    if (e === 0) return ERR.DIV0;
    stat += ((a - e) * (a - e)) / e;
  }
  const { rows, columns } = actual;
  const df = rows > 1 && columns > 1 ? (rows - 1) * (columns - 1) : rows * columns - 1;
  if (df < 1) return ERR.NA;
  return finite(gammaQ(df / 2, stat / 2));
}

export const INFERENCE: FnTable = {
  "Z.TEST": { min: 2, max: 3, call: ztest },
  ZTEST: { min: 2, max: 3, call: ztest },
  "T.TEST": { min: 4, max: 4, call: ttest },
  TTEST: { min: 4, max: 4, call: ttest },
  "F.TEST": { min: 2, max: 2, call: ftest },
  FTEST: { min: 2, max: 2, call: ftest },
  "CHISQ.TEST": { min: 2, max: 2, call: chisqTest },
  CHITEST: { min: 2, max: 2, call: chisqTest },
};
