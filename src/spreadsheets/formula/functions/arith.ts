// Math & Trig beyond the basics: logarithms, factorials and combinations, GCD/LCM, the rounding
// family (EVEN, ODD, MROUND, CEILING*, FLOOR*), sums of squares, SERIESSUM, MULTINOMIAL.
// Quotients are taken to Excel's 15 significant digits before rounding, so MROUND(1.3,0.2) is 1.4.
import type { EvalContext } from "../context.ts";
import { ERR, type FormulaError, isError, type Scalar, type Value } from "../values.ts";
import { eachNumber } from "./args.ts";
import { clean15, finite, numeric, pairs, strictNumbers, trunc } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

function log(x: number, base: number): Scalar {
  if (x <= 0 || base <= 0) return ERR.NUM;
  if (base === 1) return ERR.DIV0;
  return base === 10 ? Math.log10(x) : Math.log(x) / Math.log(base);
}

/** n! for 0 ≤ n ≤ 170 (beyond it does not fit a double: #NUM!). */
export function factorial(n: number): number {
  let r = 1;
  // Stops once the product overflows (171!): FACT(1E300) would otherwise count to 1E300.
  for (let i = 2; i <= n && r !== Infinity; i++) r *= i;
  return r;
}

function fact(x: number): Scalar {
  const n = trunc(x);
  return n < 0 ? ERR.NUM : factorial(n);
}

function factdouble(x: number): Scalar {
  const n = trunc(x);
  if (n < 0) return ERR.NUM;
  let r = 1;
  for (let i = n; i > 1 && r !== Infinity; i -= 2) r *= i;
  return r;
}

/** n choose k by the exact product while it stays exact, by logarithms of Γ beyond (rounded). */
export function choose(n: number, k: number): number {
  const m = Math.min(k, n - k);
  if (m < 0) return 0;
  if (m > 1000) return Math.round(Math.exp(lnFactorial(n) - lnFactorial(m) - lnFactorial(n - m)));
  let r = 1;
  for (let i = 1; i <= m; i++) r = (r * (n - m + i)) / i;
  return Math.round(r);
}

function lnFactorial(n: number): number {
  // Stirling's series: for n > 1000 the terms past 1/(1260 n^5) are below double precision.
  return n * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI * n) + 1 / (12 * n) - 1 / (360 * n ** 3) + 1 / (1260 * n ** 5);
}

function combin(x: number, y: number): Scalar {
  const n = trunc(x);
  const k = trunc(y);
  return n < 0 || k < 0 || n < k ? ERR.NUM : choose(n, k);
}

function combina(x: number, y: number): Scalar {
  const n = trunc(x);
  const k = trunc(y);
  if (n < 0 || k < 0) return ERR.NUM;
  if (n === 0) return k === 0 ? 1 : 0;
  return choose(n + k - 1, k);
}

function permut(x: number, y: number): Scalar {
  const n = trunc(x);
  const k = trunc(y);
  if (n <= 0 || k < 0 || n < k) return ERR.NUM;
  let r = 1;
  for (let i = 0; i < k && Number.isFinite(r); i++) r *= n - i;
  return r;
}

function permutationa(x: number, y: number): Scalar {
  const n = trunc(x);
  const k = trunc(y);
  return n < 0 || k < 0 ? ERR.NUM : Math.pow(n, k);
}

const gcd2 = (a: number, b: number): number => {
  while (b) [a, b] = [b, a % b];
  return a;
};

function integersOf(args: Value[], ctx: EvalContext): number[] | FormulaError {
  const xs = strictNumbers(args, ctx);
  if (isError(xs)) return xs;
  const out: number[] = [];
  for (const x of xs) {
    if (x < 0 || x >= 2 ** 53) return ERR.NUM;
    out.push(Math.trunc(x));
  }
  return out;
}

function gcd(args: Value[], ctx: EvalContext): Value {
  const xs = integersOf(args, ctx);
  if (isError(xs)) return xs;
  return xs.reduce(gcd2, 0);
}

function lcm(args: Value[], ctx: EvalContext): Value {
  const xs = integersOf(args, ctx);
  if (isError(xs)) return xs;
  let r = 1;
  for (const x of xs) {
    if (x === 0) return 0;
    r = (r / gcd2(r, x)) * x;
  }
  return finite(r);
}

function multinomial(args: Value[], ctx: EvalContext): Value {
  const xs = integersOf(args, ctx);
  if (isError(xs)) return xs;
  let total = 0;
  let r = 1;
  for (const x of xs) {
    // (total + x)! / (total! x!) as one binomial, not x steps: MULTINOMIAL(1E15) counted to 1E15.
    r *= choose(total + x, x);
    total += x;
    if (!Number.isFinite(r)) return ERR.NUM;
  }
  return Math.round(r);
}

function quotient(n: number, d: number): Scalar {
  return d === 0 ? ERR.DIV0 : trunc(clean15(n / d));
}

/** Rounds away from zero to the next integer of the given parity. */
function parity(odd: boolean) {
  return (x: number): number => {
    const sign = x < 0 ? -1 : 1;
    let n = Math.ceil(clean15(Math.abs(x)));
    if (odd ? n % 2 === 0 : n % 2 === 1) n++;
    return sign * n;
  };
}

function mround(n: number, m: number): Scalar {
  if (m === 0 || n === 0) return 0;
  if (Math.sign(n) !== Math.sign(m)) return ERR.NUM;
  const q = clean15(n / m);
  return clean15(Math.round(Math.abs(q)) * Math.sign(q) * m);
}

const multiple = (q: number, sig: number, up: boolean): number => clean15((up ? Math.ceil(clean15(q)) : Math.floor(clean15(q))) * sig) || 0;

function ceiling(n: number, sig: number): Scalar {
  if (n === 0 || sig === 0) return 0;
  if (n > 0 && sig < 0) return ERR.NUM;
  return multiple(n / sig, sig, true);
}

function floor(n: number, sig: number): Scalar {
  if (n === 0) return 0;
  if (sig === 0) return ERR.DIV0;
  if (n > 0 && sig < 0) return ERR.NUM;
  return multiple(n / sig, sig, false);
}

/** CEILING.MATH / FLOOR.MATH: the significance's sign is ignored; a mode other than 0 flips negative numbers' direction. */
function mathRound(up: boolean) {
  return (n: number, sig: number, mode: number): Scalar => {
    const s = Math.abs(sig);
    if (s === 0 || n === 0) return 0;
    const towardUp = n >= 0 || mode === 0 ? up : !up;
    return multiple(n / s, s, towardUp);
  };
}

function precise(up: boolean) {
  return (n: number, sig: number): Scalar => {
    const s = Math.abs(sig);
    return s === 0 || n === 0 ? 0 : multiple(n / s, s, up);
  };
}

function sumsq(args: Value[], ctx: EvalContext): Value {
  let total = 0;
  const error = eachNumber(args, ctx, (x) => (total += x * x));
  return error ?? finite(total);
}

function pairSum(f: (x: number, y: number) => number) {
  return (args: Value[], ctx: EvalContext): Value => {
    const p = pairs(args[0] ?? null, args[1] ?? null, ctx);
    if (isError(p)) return p;
    if (p.xs.length === 0) return ERR.DIV0;
    let total = 0;
    for (let i = 0; i < p.xs.length; i++) total += f(p.xs[i] as number, p.ys[i] as number);
    return finite(total);
  };
}

function seriessum(args: Value[], ctx: EvalContext): Value {
  const head = strictNumbers(args.slice(0, 3), ctx);
  if (isError(head)) return head;
  if (head.length !== 3) return ERR.VALUE;
  const coefficients = strictNumbers([args[3] ?? null], ctx);
  if (isError(coefficients)) return coefficients;
  const [x, n, m] = head as [number, number, number];
  let total = 0;
  coefficients.forEach((a, i) => (total += a * Math.pow(x, n + i * m)));
  return finite(total);
}

export const ARITH: FnTable = {
  LOG: { min: 1, max: 2, scalar: numeric(log, [0, 10]) },
  FACT: { min: 1, max: 1, scalar: numeric(fact) },
  FACTDOUBLE: { min: 1, max: 1, scalar: numeric(factdouble) },
  COMBIN: { min: 2, max: 2, scalar: numeric(combin) },
  COMBINA: { min: 2, max: 2, scalar: numeric(combina) },
  PERMUT: { min: 2, max: 2, scalar: numeric(permut) },
  PERMUTATIONA: { min: 2, max: 2, scalar: numeric(permutationa) },
  GCD: { min: 1, max: 255, call: gcd },
  LCM: { min: 1, max: 255, call: lcm },
  MULTINOMIAL: { min: 1, max: 255, call: multinomial },
  QUOTIENT: { min: 2, max: 2, scalar: numeric(quotient) },
  EVEN: { min: 1, max: 1, scalar: numeric(parity(false)) },
  ODD: { min: 1, max: 1, scalar: numeric(parity(true)) },
  MROUND: { min: 2, max: 2, scalar: numeric(mround) },
  CEILING: { min: 2, max: 2, scalar: numeric(ceiling) },
  FLOOR: { min: 2, max: 2, scalar: numeric(floor) },
  "CEILING.MATH": { min: 1, max: 3, scalar: numeric(mathRound(true), [0, 1, 0]) },
  "FLOOR.MATH": { min: 1, max: 3, scalar: numeric(mathRound(false), [0, 1, 0]) },
  "CEILING.PRECISE": { min: 1, max: 2, scalar: numeric(precise(true), [0, 1]) },
  "ISO.CEILING": { min: 1, max: 2, scalar: numeric(precise(true), [0, 1]) },
  "FLOOR.PRECISE": { min: 1, max: 2, scalar: numeric(precise(false), [0, 1]) },
  SUMSQ: { min: 1, max: 255, call: sumsq },
  SUMX2MY2: { min: 2, max: 2, call: pairSum((x, y) => x * x - y * y) },
  SUMX2PY2: { min: 2, max: 2, call: pairSum((x, y) => x * x + y * y) },
  SUMXMY2: { min: 2, max: 2, call: pairSum((x, y) => (x - y) * (x - y)) },
  SERIESSUM: { min: 4, max: 4, call: seriessum },
};
