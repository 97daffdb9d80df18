// Special functions behind the distributions: log Γ (Lanczos), the regularized incomplete gamma
// and beta functions (series and Lentz continued fractions, as in Numerical Recipes), erf/erfc,
// the normal quantile (Acklam's approximation polished by Halley steps) and a root finder that
// inverts any monotone CDF to full double precision. Written here rather than taken from jStat:
// jStat's inverses stop around 1e-10 (CHISQ.INV(0.93,1) off in the 10th digit), and Excel's answers
// carry 15.
// Their loops charge the job's budget (`work`): a BETA.INV solving over a non-converging fraction
// is millions of steps, and a lifted one runs per cell.
import { work } from "../budget.ts";

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0] as number;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += (LANCZOS[i] as number) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Γ(x) for any x that is not 0 or a negative integer (NaN there). */
export function gamma(x: number): number {
  if (x <= 0 && Number.isInteger(x)) return NaN;
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  if (Number.isInteger(x) && x <= 171) {
    let r = 1;
    for (let i = 2; i < x; i++) r *= i;
    return r;
  }
  return Math.exp(lnGamma(x));
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITERATIONS = 10000;

/** The regularized lower incomplete gamma function P(a, x). */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaFraction(a, x);
}

/** The regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x), accurate in the tail. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaFraction(a, x);
}

function gammaSeries(a: number, x: number): number {
  let sum = 1 / a;
  let term = sum;
  for (let n = 1; n < MAX_ITERATIONS; n++) {
    term *= x / (a + n);
    sum += term;
    work(1);
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
}

function gammaFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    work(1);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function betaI(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    work(1);
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

export function erf(x: number): number {
  if (x === 0) return 0;
  const r = gammaP(0.5, x * x);
  return x < 0 ? -r : r;
}

export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  return gammaQ(0.5, x * x);
}

/** Φ(z), the standard normal CDF. */
export const normCdf = (z: number): number => 0.5 * erfc(-z / Math.SQRT2);
export const normPdf = (z: number): number => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);

const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];

const poly = (cs: number[], x: number): number => cs.reduce((acc, c) => acc * x + c, 0);

/** Φ⁻¹(p) for 0 < p < 1. */
export function normInv(p: number): number {
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = poly(C, q) / (poly(D, q) * q + 1);
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log1p(-p));
    x = -poly(C, q) / (poly(D, q) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = (poly(A, r) * q) / (poly(B, r) * r + 1);
  }
  // Halley steps against an erfc accurate to the last digits.
  for (let i = 0; i < 2; i++) {
    const e = p < 0.5 ? normCdf(x) - p : 1 - p - normCdf(-x);
    const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
    x -= u / (1 + (x * u) / 2);
  }
  return x;
}

/**
 * The x in [lo, hi] (hi may grow) where the increasing `f` reaches `target`, by bisection to the
 * last representable digit; NaN when it cannot be bracketed.
 */
export function solveIncreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  for (let i = 0; i < 2000 && f(b) < target; i++) {
    a = b;
    b *= 2;
    if (!Number.isFinite(b)) return NaN;
  }
  return bisect(f, target, a, b);
}

/** The x in [a, b] where the increasing `f` reaches `target`, halving to the last representable digit. */
export function bisect(f: (x: number) => number, target: number, a: number, b: number): number {
  for (let i = 0; i < 2000; i++) {
    const mid = a + (b - a) / 2;
    if (mid <= a || mid >= b) break;
    if (f(mid) < target) a = mid;
    else b = mid;
  }
  return a + (b - a) / 2;
}

/** As solveIncreasing, for a decreasing `f` (a survival function). */
export const solveDecreasing = (f: (x: number) => number, target: number, lo: number, hi: number): number =>
  solveIncreasing((x) => -f(x), -target, lo, hi);
