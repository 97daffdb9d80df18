// Continuous distributions: normal (and standard, PHI, GAUSS), lognormal, Student's t, χ², F,
// beta, gamma (with GAMMA and GAMMALN), exponential, Weibull — each with its CDF/density and
// inverse, in the Excel 2010 names and the older ones. Out-of-domain parameters are #NUM! as
// Microsoft's pages list them. Inverses solve against the upper tail when Excel's function is an
// upper-tail one (CHISQ.INV.RT, F.INV.RT, T.INV.2T), so small probabilities keep their digits.
import { ERR, type Scalar } from "../values.ts";
import { numeric, trunc } from "./numeric.ts";
import { betaI, bisect, gamma, gammaP, gammaQ, lnGamma, normCdf, normInv, normPdf, solveDecreasing, solveIncreasing } from "./special.ts";
import type { FnTable } from "./spec.ts";

const inOpen = (p: number) => p > 0 && p < 1;

function normDist(x: number, mean: number, sd: number, cumulative: number): Scalar {
  if (sd <= 0) return ERR.NUM;
  const z = (x - mean) / sd;
  return cumulative ? normCdf(z) : normPdf(z) / sd;
}

const normInverse = (p: number, mean: number, sd: number): Scalar => (!inOpen(p) || sd <= 0 ? ERR.NUM : mean + sd * normInv(p));

function lognormDist(x: number, mean: number, sd: number, cumulative: number): Scalar {
  if (x <= 0 || sd <= 0) return ERR.NUM;
  const z = (Math.log(x) - mean) / sd;
  return cumulative ? normCdf(z) : normPdf(z) / (sd * x);
}

const lognormInverse = (p: number, mean: number, sd: number): Scalar =>
  !inOpen(p) || sd <= 0 ? ERR.NUM : Math.exp(mean + sd * normInv(p));

/** Student's t: P(T > t) for t ≥ 0. */
const tUpper = (t: number, df: number): number => 0.5 * betaI(df / (df + t * t), df / 2, 0.5);
const tCdf = (t: number, df: number): number => (t >= 0 ? 1 - tUpper(t, df) : tUpper(-t, df));
const tPdf = (t: number, df: number): number =>
  Math.exp(lnGamma((df + 1) / 2) - lnGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log1p((t * t) / df));

function tDist(x: number, dfRaw: number, cumulative: number): Scalar {
  const df = trunc(dfRaw);
  if (df < 1) return ERR.NUM;
  return cumulative ? tCdf(x, df) : tPdf(x, df);
}

function tTails(tails: 1 | 2) {
  return (x: number, dfRaw: number): Scalar => {
    const df = trunc(dfRaw);
    if (df < 1 || (tails === 2 && x < 0)) return ERR.NUM;
    return tails === 2 ? 2 * tUpper(x, df) : x >= 0 ? tUpper(x, df) : 1 - tUpper(-x, df);
  };
}

function tdistLegacy(x: number, dfRaw: number, tailsRaw: number): Scalar {
  const tails = trunc(tailsRaw);
  if (x < 0 || (tails !== 1 && tails !== 2)) return ERR.NUM;
  return tTails(tails)(x, dfRaw);
}

/** |t| with P(|T| > t) = p (two tails). */
function tTwoTailed(p: number, df: number): number {
  return solveDecreasing((t) => 2 * tUpper(t, df), p, 0, 1);
}

function tInv(p: number, dfRaw: number): Scalar {
  const df = trunc(dfRaw);
  if (!inOpen(p) || df < 1) return ERR.NUM;
  if (p === 0.5) return 0;
  const t = tTwoTailed(2 * Math.min(p, 1 - p), df);
  return p < 0.5 ? -t : t;
}

function tInv2(p: number, dfRaw: number): Scalar {
  const df = trunc(dfRaw);
  if (p <= 0 || p > 1 || df < 1) return ERR.NUM;
  return tTwoTailed(p, df);
}

const chiCdf = (x: number, df: number) => gammaP(df / 2, x / 2);
const chiSf = (x: number, df: number) => gammaQ(df / 2, x / 2);
const badDf = (df: number) => df < 1 || df > 1e10;

function chisqDist(x: number, dfRaw: number, cumulative: number): Scalar {
  const df = trunc(dfRaw);
  if (x < 0 || badDf(df)) return ERR.NUM;
  if (cumulative) return chiCdf(x, df);
  if (x === 0) return df === 2 ? 0.5 : df < 2 ? ERR.NUM : 0;
  return Math.exp((df / 2 - 1) * Math.log(x) - x / 2 - (df / 2) * Math.LN2 - lnGamma(df / 2));
}

function chisqRight(x: number, dfRaw: number): Scalar {
  const df = trunc(dfRaw);
  return x < 0 || badDf(df) ? ERR.NUM : chiSf(x, df);
}

function chisqInv(p: number, dfRaw: number): Scalar {
  const df = trunc(dfRaw);
  if (p < 0 || p >= 1 || badDf(df)) return ERR.NUM;
  return p === 0 ? 0 : solveIncreasing((x) => chiCdf(x, df), p, 0, df + 1);
}

function chisqInvRight(p: number, dfRaw: number): Scalar {
  const df = trunc(dfRaw);
  if (p <= 0 || p > 1 || badDf(df)) return ERR.NUM;
  return p === 1 ? 0 : solveDecreasing((x) => chiSf(x, df), p, 0, df + 1);
}

const fCdf = (x: number, a: number, b: number) => betaI((a * x) / (a * x + b), a / 2, b / 2);
const fSf = (x: number, a: number, b: number) => betaI(b / (a * x + b), b / 2, a / 2);

function fDist(x: number, d1: number, d2: number, cumulative: number): Scalar {
  const [a, b] = [trunc(d1), trunc(d2)];
  if (x < 0 || badDf(a) || badDf(b)) return ERR.NUM;
  if (cumulative) return fCdf(x, a, b);
  if (x === 0) return a === 2 ? 1 : a < 2 ? ERR.NUM : 0;
  const ln =
    0.5 * (a * Math.log(a * x) + b * Math.log(b) - (a + b) * Math.log(a * x + b)) -
    Math.log(x) -
    (lnGamma(a / 2) + lnGamma(b / 2) - lnGamma((a + b) / 2));
  return Math.exp(ln);
}

function fRight(x: number, d1: number, d2: number): Scalar {
  const [a, b] = [trunc(d1), trunc(d2)];
  return x < 0 || badDf(a) || badDf(b) ? ERR.NUM : fSf(x, a, b);
}

function fInv(right: boolean) {
  return (p: number, d1: number, d2: number): Scalar => {
    const [a, b] = [trunc(d1), trunc(d2)];
    if (p < 0 || p > 1 || badDf(a) || badDf(b)) return ERR.NUM;
    if (right ? p === 0 : p === 1) return ERR.NUM;
    if (right ? p === 1 : p === 0) return 0;
    return right ? solveDecreasing((x) => fSf(x, a, b), p, 0, 1) : solveIncreasing((x) => fCdf(x, a, b), p, 0, 1);
  };
}

function betaDist(x: number, alpha: number, beta: number, cumulative: number, lo: number, hi: number): Scalar {
  if (alpha <= 0 || beta <= 0 || x < lo || x > hi || lo === hi) return ERR.NUM;
  const u = (x - lo) / (hi - lo);
  if (cumulative) return betaI(u, alpha, beta);
  if ((u === 0 && alpha < 1) || (u === 1 && beta < 1)) return ERR.NUM;
  const ln = (alpha - 1) * Math.log(u) + (beta - 1) * Math.log1p(-u) - (lnGamma(alpha) + lnGamma(beta) - lnGamma(alpha + beta));
  return Math.exp(ln) / (hi - lo);
}

function betaInv(p: number, alpha: number, beta: number, lo: number, hi: number): Scalar {
  if (p <= 0 || p > 1 || alpha <= 0 || beta <= 0 || lo >= hi) return ERR.NUM;
  if (p === 1) return hi;
  return lo + (hi - lo) * bisect((u) => betaI(u, alpha, beta), p, 0, 1);
}

function gammaDist(x: number, alpha: number, beta: number, cumulative: number): Scalar {
  if (x < 0 || alpha <= 0 || beta <= 0) return ERR.NUM;
  if (cumulative) return gammaP(alpha, x / beta);
  if (x === 0) return alpha === 1 ? 1 / beta : alpha < 1 ? ERR.NUM : 0;
  return Math.exp((alpha - 1) * Math.log(x) - x / beta - alpha * Math.log(beta) - lnGamma(alpha));
}

function gammaInv(p: number, alpha: number, beta: number): Scalar {
  if (p < 0 || p >= 1 || alpha <= 0 || beta <= 0) return ERR.NUM;
  return p === 0 ? 0 : beta * solveIncreasing((x) => gammaP(alpha, x), p, 0, alpha + 1);
}

const gammaFn = (x: number): Scalar => (x <= 0 && Number.isInteger(x) ? ERR.NUM : gamma(x));
const gammaln = (x: number): Scalar => (x <= 0 ? ERR.NUM : lnGamma(x));

function exponDist(x: number, lambda: number, cumulative: number): Scalar {
  if (x < 0 || lambda <= 0) return ERR.NUM;
  return cumulative ? -Math.expm1(-lambda * x) : lambda * Math.exp(-lambda * x);
}

function weibullDist(x: number, alpha: number, beta: number, cumulative: number): Scalar {
  if (x < 0 || alpha <= 0 || beta <= 0) return ERR.NUM;
  const t = (x / beta) ** alpha;
  return cumulative ? -Math.expm1(-t) : (alpha / beta ** alpha) * x ** (alpha - 1) * Math.exp(-t);
}

const arity = (min: number, max: number, scalar: FnTable[string]["scalar"]) => ({ min, max, scalar });

export const CONTINUOUS: FnTable = {
  "NORM.DIST": arity(4, 4, numeric(normDist)),
  NORMDIST: arity(4, 4, numeric(normDist)),
  "NORM.INV": arity(3, 3, numeric(normInverse)),
  NORMINV: arity(3, 3, numeric(normInverse)),
  "NORM.S.DIST": arity(
    2,
    2,
    numeric((z, c) => normDist(z, 0, 1, c)),
  ),
  NORMSDIST: arity(
    1,
    1,
    numeric((z) => normCdf(z)),
  ),
  "NORM.S.INV": arity(
    1,
    1,
    numeric((p) => normInverse(p, 0, 1)),
  ),
  NORMSINV: arity(
    1,
    1,
    numeric((p) => normInverse(p, 0, 1)),
  ),
  PHI: arity(1, 1, numeric(normPdf)),
  GAUSS: arity(
    1,
    1,
    numeric((z) => normCdf(z) - 0.5),
  ),
  "LOGNORM.DIST": arity(4, 4, numeric(lognormDist)),
  LOGNORMDIST: arity(
    3,
    3,
    numeric((x, m, s) => lognormDist(x, m, s, 1)),
  ),
  "LOGNORM.INV": arity(3, 3, numeric(lognormInverse)),
  LOGINV: arity(3, 3, numeric(lognormInverse)),
  "T.DIST": arity(3, 3, numeric(tDist)),
  "T.DIST.RT": arity(2, 2, numeric(tTails(1))),
  "T.DIST.2T": arity(2, 2, numeric(tTails(2))),
  TDIST: arity(3, 3, numeric(tdistLegacy)),
  "T.INV": arity(2, 2, numeric(tInv)),
  "T.INV.2T": arity(2, 2, numeric(tInv2)),
  TINV: arity(2, 2, numeric(tInv2)),
  "CHISQ.DIST": arity(3, 3, numeric(chisqDist)),
  "CHISQ.DIST.RT": arity(2, 2, numeric(chisqRight)),
  CHIDIST: arity(2, 2, numeric(chisqRight)),
  "CHISQ.INV": arity(2, 2, numeric(chisqInv)),
  "CHISQ.INV.RT": arity(2, 2, numeric(chisqInvRight)),
  CHIINV: arity(2, 2, numeric(chisqInvRight)),
  "F.DIST": arity(4, 4, numeric(fDist)),
  "F.DIST.RT": arity(3, 3, numeric(fRight)),
  FDIST: arity(3, 3, numeric(fRight)),
  "F.INV": arity(3, 3, numeric(fInv(false))),
  "F.INV.RT": arity(3, 3, numeric(fInv(true))),
  FINV: arity(3, 3, numeric(fInv(true))),
  "BETA.DIST": arity(4, 6, numeric(betaDist, [0, 0, 0, 0, 0, 1])),
  BETADIST: arity(
    3,
    5,
    numeric((x, a, b, lo, hi) => betaDist(x, a, b, 1, lo, hi), [0, 0, 0, 0, 1]),
  ),
  "BETA.INV": arity(3, 5, numeric(betaInv, [0, 0, 0, 0, 1])),
  BETAINV: arity(3, 5, numeric(betaInv, [0, 0, 0, 0, 1])),
  "GAMMA.DIST": arity(4, 4, numeric(gammaDist)),
  GAMMADIST: arity(4, 4, numeric(gammaDist)),
  "GAMMA.INV": arity(3, 3, numeric(gammaInv)),
  GAMMAINV: arity(3, 3, numeric(gammaInv)),
  GAMMA: arity(1, 1, numeric(gammaFn)),
  GAMMALN: arity(1, 1, numeric(gammaln)),
  "GAMMALN.PRECISE": arity(1, 1, numeric(gammaln)),
  "EXPON.DIST": arity(3, 3, numeric(exponDist)),
  EXPONDIST: arity(3, 3, numeric(exponDist)),
  "WEIBULL.DIST": arity(4, 4, numeric(weibullDist)),
  WEIBULL: arity(4, 4, numeric(weibullDist)),
};
