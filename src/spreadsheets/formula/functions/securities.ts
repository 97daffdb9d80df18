// Discounted and interest-at-maturity securities and Treasury bills: ACCRINT, ACCRINTM, DISC,
// INTRATE, RECEIVED, PRICEDISC, YIELDDISC, PRICEMAT, YIELDMAT, TBILLPRICE, TBILLYIELD, TBILLEQ —
// Microsoft's formulas over YEARFRAC's day-count bases; dates are truncated, and a settlement not
// before maturity, a basis outside 0–4 or a non-positive amount is #NUM!.
import { toBoolean, toNumber } from "../coerce.ts";
import { ERR, isError, type Scalar } from "../values.ts";
import { yearFraction } from "./calendar.ts";
import type { FnTable } from "./spec.ts";

type Fn = (...xs: number[]) => number | Scalar;

/** `dates` leading date arguments (truncated), then numbers; `defaults` for the optional tail. */
function security(count: number, dates: number, f: Fn, defaults: number[] = []) {
  return (args: Scalar[]): Scalar => {
    const xs: number[] = [];
    for (let i = 0; i < count; i++) {
      const a = args[i];
      const n =
        a === undefined || (a === null && i >= count - defaults.length) ? (defaults[i - (count - defaults.length)] ?? 0) : toNumber(a);
      if (isError(n)) return n;
      xs.push(i < dates ? Math.trunc(n) : n);
    }
    const out = f(...xs);
    return typeof out === "number" ? (Number.isFinite(out) ? out : ERR.NUM) : out;
  };
}

const frac = (a: number, b: number, basis: number): number => yearFraction(a, b, Math.trunc(basis)) as number;
const badBasis = (basis: number): boolean => Math.trunc(basis) < 0 || Math.trunc(basis) > 4;

const disc = (s: number, m: number, pr: number, red: number, basis: number) =>
  s >= m || pr <= 0 || red <= 0 || badBasis(basis) ? ERR.NUM : (red - pr) / red / frac(s, m, basis);

const intrate = (s: number, m: number, inv: number, red: number, basis: number) =>
  s >= m || inv <= 0 || red <= 0 || badBasis(basis) ? ERR.NUM : (red - inv) / inv / frac(s, m, basis);

function received(s: number, m: number, inv: number, discount: number, basis: number) {
  if (s >= m || inv <= 0 || discount <= 0 || badBasis(basis)) return ERR.NUM;
  const d = 1 - discount * frac(s, m, basis);
  return d <= 0 ? ERR.NUM : inv / d;
}

const pricedisc = (s: number, m: number, discount: number, red: number, basis: number) =>
  s >= m || discount <= 0 || red <= 0 || badBasis(basis) ? ERR.NUM : red * (1 - discount * frac(s, m, basis));

const yielddisc = (s: number, m: number, pr: number, red: number, basis: number) =>
  s >= m || pr <= 0 || red <= 0 || badBasis(basis) ? ERR.NUM : (red / pr - 1) / frac(s, m, basis);

function pricemat(s: number, m: number, issue: number, rate: number, yld: number, basis: number) {
  if (s >= m || rate < 0 || yld < 0 || badBasis(basis)) return ERR.NUM;
  const [dim, dsm, a] = [frac(issue, m, basis), frac(s, m, basis), frac(issue, s, basis)];
  return (100 + dim * rate * 100) / (1 + dsm * yld) - a * rate * 100;
}

function yieldmat(s: number, m: number, issue: number, rate: number, pr: number, basis: number) {
  if (s >= m || rate < 0 || pr <= 0 || badBasis(basis)) return ERR.NUM;
  const [dim, dsm, a] = [frac(issue, m, basis), frac(s, m, basis), frac(issue, s, basis)];
  return ((1 + dim * rate) / (pr / 100 + a * rate) - 1) / dsm;
}

const accrintm = (issue: number, s: number, rate: number, par: number, basis: number) =>
  issue >= s || rate <= 0 || par <= 0 || badBasis(basis) ? ERR.NUM : par * rate * frac(issue, s, basis);

/** ACCRINT: interest from issue (or, with calc_method FALSE, from the first interest date) to settlement. */
function accrint(args: Scalar[]): Scalar {
  const xs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const n = args[i] === undefined || (args[i] === null && i === 6) ? 0 : toNumber(args[i] ?? null);
    if (isError(n)) return n;
    xs.push(i < 3 ? Math.trunc(n) : n);
  }
  const fromIssue = args[7] === undefined || args[7] === null ? true : toBoolean(args[7]);
  if (isError(fromIssue)) return fromIssue;
  const [issue, first, s, rate, par, freq, basis] = xs as [number, number, number, number, number, number, number];
  if (issue >= s || rate <= 0 || par <= 0 || ![1, 2, 4].includes(Math.trunc(freq)) || badBasis(basis)) return ERR.NUM;
  const start = !fromIssue && s > first ? first : issue;
  return par * rate * frac(start, s, basis);
}

function tbill(kind: "price" | "yield" | "eq") {
  return (s: number, m: number, x: number): number | Scalar => {
    const days = m - s;
    if (s >= m || days > 365 || x <= 0) return ERR.NUM;
    if (kind === "price") return 100 * (1 - (x * days) / 360);
    if (kind === "yield") return ((100 - x) / x) * (360 / days);
    if (days <= 182) return (365 * x) / (360 - x * days);
    const price = 100 * (1 - (x * days) / 360);
    const t = days / 365;
    return (-2 * t + 2 * Math.sqrt(t * t - (2 * t - 1) * (1 - 100 / price))) / (2 * t - 1);
  };
}

export const SECURITIES: FnTable = {
  ACCRINT: { min: 6, max: 8, scalar: accrint },
  ACCRINTM: { min: 4, max: 5, scalar: security(5, 2, accrintm, [0]) },
  DISC: { min: 4, max: 5, scalar: security(5, 2, disc, [0]) },
  INTRATE: { min: 4, max: 5, scalar: security(5, 2, intrate, [0]) },
  RECEIVED: { min: 4, max: 5, scalar: security(5, 2, received, [0]) },
  PRICEDISC: { min: 4, max: 5, scalar: security(5, 2, pricedisc, [0]) },
  YIELDDISC: { min: 4, max: 5, scalar: security(5, 2, yielddisc, [0]) },
  PRICEMAT: { min: 5, max: 6, scalar: security(6, 3, pricemat, [0]) },
  YIELDMAT: { min: 5, max: 6, scalar: security(6, 3, yieldmat, [0]) },
  TBILLPRICE: { min: 3, max: 3, scalar: security(3, 2, tbill("price")) },
  TBILLYIELD: { min: 3, max: 3, scalar: security(3, 2, tbill("yield")) },
  TBILLEQ: { min: 3, max: 3, scalar: security(3, 2, tbill("eq")) },
};
