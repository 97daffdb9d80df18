// Complex numbers as Excel keeps them: text "x+yi" or "x+yj" (COMPLEX builds it), parts written
// with 15 significant digits, a unit coefficient left out ("8+i"), the suffix of the inputs kept
// (mixing i and j is #VALUE!). Text that is not a complex number is #NUM!, as in Excel.
import type { EvalContext } from "../context.ts";
import { numberToText, toNumber } from "../coerce.ts";
import { ERR, type FormulaError, isError, type Scalar, type Value } from "../values.ts";
import { eachValue } from "./args.ts";
import type { FnTable } from "./spec.ts";

interface Complex {
  re: number;
  im: number;
  suffix: "i" | "j" | null;
}

const NUMBER = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const FULL = new RegExp(String.raw`^([+-]?${NUMBER})?(?:([+-])(${NUMBER})?([ij]))?$`);
const IMAGINARY = new RegExp(String.raw`^([+-]?)(${NUMBER})?([ij])$`);

export function parseComplex(v: Scalar): Complex | FormulaError {
  if (isError(v)) return v;
  if (typeof v === "boolean") return ERR.VALUE;
  if (typeof v === "number") return { re: v, im: 0, suffix: null };
  if (v === null || v === "") return { re: 0, im: 0, suffix: null };
  const imaginary = IMAGINARY.exec(v);
  if (imaginary)
    return { re: 0, im: (imaginary[1] === "-" ? -1 : 1) * (imaginary[2] ? Number(imaginary[2]) : 1), suffix: imaginary[3] as "i" | "j" };
  const m = FULL.exec(v);
  if (!m || (m[1] === undefined && m[2] === undefined)) return ERR.NUM;
  const re = m[1] === undefined ? 0 : Number(m[1]);
  if (m[2] === undefined) return { re, im: 0, suffix: null };
  const im = (m[2] === "-" ? -1 : 1) * (m[3] === undefined ? 1 : Number(m[3]));
  return { re, im, suffix: m[4] as "i" | "j" };
}

const tidy = (x: number): number => (Math.abs(x) < 1e-300 ? 0 : Number(x.toPrecision(15)));

export function formatComplex(re: number, im: number, suffix: "i" | "j" = "i"): Scalar {
  if (!Number.isFinite(re) || !Number.isFinite(im)) return ERR.NUM;
  const [x, y] = [tidy(re), tidy(im)];
  if (y === 0) return numberToText(x);
  const coefficient = y === 1 ? "" : y === -1 ? "-" : numberToText(y);
  const imaginary = `${coefficient}${suffix}`;
  if (x === 0) return imaginary;
  return `${numberToText(x)}${y > 0 ? "+" : ""}${imaginary}`;
}

/** The suffix of the result: the inputs' one, #VALUE! when they disagree. */
function suffixOf(zs: Complex[]): "i" | "j" | FormulaError {
  let s: "i" | "j" | null = null;
  for (const z of zs) {
    if (z.suffix === null) continue;
    if (s !== null && s !== z.suffix) return ERR.VALUE;
    s = z.suffix;
  }
  return s ?? "i";
}

type Pair = [number, number];
const mul = ([a, b]: Pair, [c, d]: Pair): Pair => [a * c - b * d, a * d + b * c];
function div([a, b]: Pair, [c, d]: Pair): Pair | null {
  const den = c * c + d * d;
  return den === 0 ? null : [(a * c + b * d) / den, (b * c - a * d) / den];
}
const exp = ([a, b]: Pair): Pair => [Math.exp(a) * Math.cos(b), Math.exp(a) * Math.sin(b)];
const ln = ([a, b]: Pair): Pair | null => (a === 0 && b === 0 ? null : [Math.log(Math.hypot(a, b)), Math.atan2(b, a)]);
const sin = ([a, b]: Pair): Pair => [Math.sin(a) * Math.cosh(b), Math.cos(a) * Math.sinh(b)];
const cos = ([a, b]: Pair): Pair => [Math.cos(a) * Math.cosh(b), -Math.sin(a) * Math.sinh(b)];
const sinh = ([a, b]: Pair): Pair => [Math.sinh(a) * Math.cos(b), Math.cosh(a) * Math.sin(b)];
const cosh = ([a, b]: Pair): Pair => [Math.cosh(a) * Math.cos(b), Math.sinh(a) * Math.sin(b)];
const inverse = (z: Pair) => div([1, 0], z);
/** tan, cot and sec by their closed forms in 2a and 2b (the ratio of sin and cos loses a digit). */
function tan([a, b]: Pair): Pair | null {
  const d = Math.cos(2 * a) + Math.cosh(2 * b);
  return d === 0 ? null : [Math.sin(2 * a) / d, Math.sinh(2 * b) / d];
}
function cot([a, b]: Pair): Pair | null {
  const d = Math.cosh(2 * b) - Math.cos(2 * a);
  return d === 0 ? null : [Math.sin(2 * a) / d, -Math.sinh(2 * b) / d];
}
function sec([a, b]: Pair): Pair | null {
  const d = Math.cos(2 * a) + Math.cosh(2 * b);
  return d === 0 ? null : [(2 * Math.cos(a) * Math.cosh(b)) / d, (2 * Math.sin(a) * Math.sinh(b)) / d];
}

/** A function of one complex number giving a complex number (null: #NUM!). */
function unary(f: (z: Pair) => Pair | null) {
  return (args: Scalar[]): Scalar => {
    const z = parseComplex(args[0] ?? null);
    if (isError(z)) return z;
    const r = f([z.re, z.im]);
    return r ? formatComplex(r[0], r[1], z.suffix ?? "i") : ERR.NUM;
  };
}

/** A function of one complex number giving a real number. */
function real(f: (z: Complex) => Scalar) {
  return (args: Scalar[]): Scalar => {
    const z = parseComplex(args[0] ?? null);
    return isError(z) ? z : f(z);
  };
}

function complex(args: Scalar[]): Scalar {
  const re = toNumber(args[0] ?? null);
  if (isError(re)) return re;
  const im = toNumber(args[1] ?? null);
  if (isError(im)) return im;
  const s = args[2] === undefined || args[2] === null || args[2] === "" ? "i" : args[2];
  if (s !== "i" && s !== "j") return ERR.VALUE;
  return formatComplex(re, im, s);
}

function binary(f: (a: Pair, b: Pair) => Pair | null) {
  return (args: Scalar[]): Scalar => {
    const a = parseComplex(args[0] ?? null);
    if (isError(a)) return a;
    const b = parseComplex(args[1] ?? null);
    if (isError(b)) return b;
    const suffix = suffixOf([a, b]);
    if (isError(suffix)) return suffix;
    const r = f([a.re, a.im], [b.re, b.im]);
    return r ? formatComplex(r[0], r[1], suffix) : ERR.NUM;
  };
}

function impower(args: Scalar[]): Scalar {
  const z = parseComplex(args[0] ?? null);
  if (isError(z)) return z;
  const n = toNumber(args[1] ?? null);
  if (isError(n)) return n;
  if (z.re === 0 && z.im === 0) return n > 0 ? "0" : ERR.NUM;
  if (Number.isInteger(n) && Math.abs(n) <= 1024) {
    // Whole powers by repeated squaring: exact where the parts stay integers ((2+3i)^3 is -46+9i).
    let acc: Pair = [1, 0];
    let base: Pair = [z.re, z.im];
    for (let e = Math.abs(n); e > 0; e >>= 1) {
      if (e & 1) acc = mul(acc, base);
      base = mul(base, base);
    }
    const r = n < 0 ? inverse(acc) : acc;
    return r ? formatComplex(r[0], r[1], z.suffix ?? "i") : ERR.NUM;
  }
  const r = Math.hypot(z.re, z.im) ** n;
  const theta = Math.atan2(z.im, z.re) * n;
  return formatComplex(r * Math.cos(theta), r * Math.sin(theta), z.suffix ?? "i");
}

/** IMSUM and IMPRODUCT: every value of every argument (references and arrays included). */
function fold(start: Pair, f: (a: Pair, b: Pair) => Pair) {
  return (args: Value[], ctx: EvalContext): Value => {
    const zs: Complex[] = [];
    let error: FormulaError | null = null;
    eachValue(args, ctx, (v) => {
      if (error || v === null) return;
      const z = parseComplex(v);
      if (isError(z)) error = z;
      else zs.push(z);
    });
    if (error) return error;
    const suffix = suffixOf(zs);
    if (isError(suffix)) return suffix;
    let acc = start;
    for (const z of zs) acc = f(acc, [z.re, z.im]);
    return formatComplex(acc[0], acc[1], suffix);
  };
}

const LN10 = Math.LN10;
const scaleLog =
  (k: number) =>
  (z: Pair): Pair | null => {
    const r = ln(z);
    return r && [r[0] / k, r[1] / k];
  };

export const COMPLEX: FnTable = {
  COMPLEX: { min: 2, max: 3, scalar: complex },
  IMREAL: { min: 1, max: 1, scalar: real((z) => z.re) },
  IMAGINARY: { min: 1, max: 1, scalar: real((z) => z.im) },
  IMABS: { min: 1, max: 1, scalar: real((z) => Math.hypot(z.re, z.im)) },
  IMARGUMENT: { min: 1, max: 1, scalar: real((z) => (z.re === 0 && z.im === 0 ? ERR.DIV0 : Math.atan2(z.im, z.re))) },
  IMCONJUGATE: { min: 1, max: 1, scalar: unary(([a, b]) => [a, -b]) },
  IMSQRT: {
    min: 1,
    max: 1,
    scalar: unary(([a, b]) => {
      const r = Math.sqrt(Math.hypot(a, b));
      const t = Math.atan2(b, a) / 2;
      return [r * Math.cos(t), r * Math.sin(t)];
    }),
  },
  IMEXP: { min: 1, max: 1, scalar: unary(exp) },
  IMLN: { min: 1, max: 1, scalar: unary(ln) },
  IMLOG10: { min: 1, max: 1, scalar: unary(scaleLog(LN10)) },
  IMLOG2: { min: 1, max: 1, scalar: unary(scaleLog(Math.LN2)) },
  IMSIN: { min: 1, max: 1, scalar: unary(sin) },
  IMCOS: { min: 1, max: 1, scalar: unary(cos) },
  IMTAN: { min: 1, max: 1, scalar: unary(tan) },
  IMCOT: { min: 1, max: 1, scalar: unary(cot) },
  IMSEC: { min: 1, max: 1, scalar: unary(sec) },
  IMCSC: { min: 1, max: 1, scalar: unary((z) => inverse(sin(z))) },
  IMSINH: { min: 1, max: 1, scalar: unary(sinh) },
  IMCOSH: { min: 1, max: 1, scalar: unary(cosh) },
  IMSECH: { min: 1, max: 1, scalar: unary((z) => inverse(cosh(z))) },
  IMCSCH: { min: 1, max: 1, scalar: unary((z) => inverse(sinh(z))) },
  IMPOWER: { min: 2, max: 2, scalar: impower },
  IMDIV: { min: 2, max: 2, scalar: binary(div) },
  IMSUB: { min: 2, max: 2, scalar: binary(([a, b], [c, d]) => [a - c, b - d]) },
  IMSUM: { min: 1, max: 255, call: fold([0, 0], ([a, b], [c, d]) => [a + c, b + d]) },
  IMPRODUCT: { min: 1, max: 255, call: fold([1, 0], mul) },
};
