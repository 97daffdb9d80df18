// Discrete distributions (binomial, negative binomial, hypergeometric, Poisson) and the confidence
// intervals. Counts are truncated to integers, as Excel does; cumulative sums go through the
// regularized beta and gamma functions, so large counts cost no loop.
import { work } from "../budget.ts";
import { ERR, type Scalar } from "../values.ts";
import { numeric, trunc } from "./numeric.ts";
import { betaI, gammaQ, lnGamma, normInv, solveDecreasing } from "./special.ts";
import type { FnTable } from "./spec.ts";

const lnChoose = (n: number, k: number): number => lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);
const badP = (p: number) => p < 0 || p > 1;

function binomPmf(k: number, n: number, p: number): number {
  if (p === 0) return k === 0 ? 1 : 0;
  if (p === 1) return k === n ? 1 : 0;
  return Math.exp(lnChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
}

/** P(X ≤ k) for X ~ B(n, p). */
function binomCdf(k: number, n: number, p: number): number {
  if (k >= n) return 1;
  if (p === 0) return 1;
  if (p === 1) return 0;
  return betaI(1 - p, n - k, k + 1);
}

function binomDist(s: number, trials: number, p: number, cumulative: number): Scalar {
  const [k, n] = [trunc(s), trunc(trials)];
  if (k < 0 || k > n || badP(p)) return ERR.NUM;
  return cumulative ? binomCdf(k, n, p) : binomPmf(k, n, p);
}

function binomRange(trials: number, p: number, s1: number, s2: number): Scalar {
  const n = trunc(trials);
  const lo = trunc(s1);
  const hi = Number.isNaN(s2) ? lo : trunc(s2);
  if (n < 0 || badP(p) || lo < 0 || lo > n || hi < lo || hi > n) return ERR.NUM;
  return binomCdf(hi, n, p) - (lo > 0 ? binomCdf(lo - 1, n, p) : 0);
}

function binomInv(trials: number, p: number, alpha: number): Scalar {
  const n = trunc(trials);
  if (n < 0 || badP(p) || badP(alpha)) return ERR.NUM;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomCdf(mid, n, p) >= alpha * (1 - 1e-15)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function negbinomDist(f: number, s: number, p: number, cumulative: number): Scalar {
  const [failures, successes] = [trunc(f), trunc(s)];
  if (failures < 0 || successes < 1 || badP(p)) return ERR.NUM;
  if (cumulative) return betaI(p, successes, failures + 1);
  if (p === 0) return 0;
  if (p === 1) return failures === 0 ? 1 : 0;
  return Math.exp(lnChoose(failures + successes - 1, successes - 1) + successes * Math.log(p) + failures * Math.log1p(-p));
}

function hypgeomDist(s: number, sample: number, successes: number, population: number, cumulative: number): Scalar {
  const [k, n, m, total] = [trunc(s), trunc(sample), trunc(successes), trunc(population)];
  if (n <= 0 || n > total || m <= 0 || m > total || total <= 0) return ERR.NUM;
  const lo = Math.max(0, n - total + m);
  if (k < lo || k > Math.min(n, m)) return ERR.NUM;
  const pmf = (i: number) => Math.exp(lnChoose(m, i) + lnChoose(total - m, n - i) - lnChoose(total, n));
  if (!cumulative) return pmf(k);
  // A sum of pmf terms: bounded, so a population in the billions answers #NUM! instead of stalling.
  if (k - lo > 10_000_000) return ERR.NUM;
  let sum = 0;
  for (let i = lo; i <= k; i++) {
    sum += pmf(i);
    work(1);
  }
  return Math.min(1, sum);
}

function poissonDist(x: number, mean: number, cumulative: number): Scalar {
  const k = trunc(x);
  if (k < 0 || mean < 0) return ERR.NUM;
  if (mean === 0) return k === 0 || cumulative ? 1 : 0;
  return cumulative ? gammaQ(k + 1, mean) : Math.exp(k * Math.log(mean) - mean - lnGamma(k + 1));
}

function confidenceNorm(alpha: number, sd: number, size: number): Scalar {
  const n = trunc(size);
  if (alpha <= 0 || alpha >= 1 || sd <= 0 || n < 1) return ERR.NUM;
  return (-normInv(alpha / 2) * sd) / Math.sqrt(n);
}

function confidenceT(alpha: number, sd: number, size: number): Scalar {
  const n = trunc(size);
  if (alpha <= 0 || alpha >= 1 || sd <= 0 || n < 1) return ERR.NUM;
  if (n === 1) return ERR.DIV0;
  const df = n - 1;
  const t = solveDecreasing((x) => betaI(df / (df + x * x), df / 2, 0.5), alpha, 0, 1);
  return (t * sd) / Math.sqrt(n);
}

export const DISCRETE: FnTable = {
  "BINOM.DIST": { min: 4, max: 4, scalar: numeric(binomDist) },
  BINOMDIST: { min: 4, max: 4, scalar: numeric(binomDist) },
  "BINOM.DIST.RANGE": { min: 3, max: 4, scalar: numeric(binomRange, [0, 0, 0, NaN]) },
  "BINOM.INV": { min: 3, max: 3, scalar: numeric(binomInv) },
  CRITBINOM: { min: 3, max: 3, scalar: numeric(binomInv) },
  "NEGBINOM.DIST": { min: 4, max: 4, scalar: numeric(negbinomDist) },
  NEGBINOMDIST: { min: 3, max: 3, scalar: numeric((f, s, p) => negbinomDist(f, s, p, 0)) },
  "HYPGEOM.DIST": { min: 5, max: 5, scalar: numeric(hypgeomDist) },
  HYPGEOMDIST: { min: 4, max: 4, scalar: numeric((s, n, m, t) => hypgeomDist(s, n, m, t, 0)) },
  "POISSON.DIST": { min: 3, max: 3, scalar: numeric(poissonDist) },
  POISSON: { min: 3, max: 3, scalar: numeric(poissonDist) },
  "CONFIDENCE.NORM": { min: 3, max: 3, scalar: numeric(confidenceNorm) },
  CONFIDENCE: { min: 3, max: 3, scalar: numeric(confidenceNorm) },
  "CONFIDENCE.T": { min: 3, max: 3, scalar: numeric(confidenceT) },
};
