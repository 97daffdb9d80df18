// Engineering: conversions between binary, octal, decimal and hexadecimal (ten digits, negative
// numbers in two's complement), the BIT functions (48-bit), DELTA, GESTEP, ERF/ERFC and the
// Bessel functions. The Bessel functions come from `bessel` (Apache-2.0, SheetJS), written to
// match Excel's results; the rest is Excel's argument rules over a few lines of arithmetic.
import bessel from "bessel";
import { numberToText, toNumber } from "../coerce.ts";
import { ERR, isError, type Scalar } from "../values.ts";
import { numeric, trunc } from "./numeric.ts";
import { erf, erfc } from "./special.ts";
import type { FnTable } from "./spec.ts";

type Radix = 2 | 8 | 10 | 16;
const BITS: Record<Radix, number> = { 2: 10, 8: 30, 10: 0, 16: 40 };
const DIGITS: Record<Radix, RegExp> = { 2: /^[01]{0,10}$/, 8: /^[0-7]{0,10}$/, 10: /^$/, 16: /^[0-9a-f]{0,10}$/i };

/** A base-2/8/16 argument (text, or a number read as its digits) as a signed value. */
function parse(v: Scalar, radix: Radix): number | typeof ERR.NUM | typeof ERR.VALUE | Scalar {
  if (typeof v === "boolean") return ERR.VALUE;
  if (isError(v)) return v;
  const text = v === null ? "" : typeof v === "number" ? numberToText(v) : v;
  if (!DIGITS[radix].test(text)) return ERR.NUM;
  if (text === "") return 0;
  const value = parseInt(text, radix);
  const bits = BITS[radix];
  return text.length === 10 && value >= 2 ** (bits - 1) ? value - 2 ** bits : value;
}

/** A signed value written in `radix` (negative: ten digits of two's complement), padded to `places`. */
function format(value: number, radix: Radix, places: Scalar | undefined): Scalar {
  const bits = BITS[radix];
  if (value < -(2 ** (bits - 1)) || value > 2 ** (bits - 1) - 1) return ERR.NUM;
  if (value < 0) return (2 ** bits + value).toString(radix).toUpperCase();
  const text = value.toString(radix).toUpperCase();
  if (places === undefined || places === null) return text;
  const p = toNumber(places);
  if (isError(p)) return p;
  const width = trunc(p);
  if (width < text.length || width > 10) return ERR.NUM;
  return text.padStart(width, "0");
}

function convert(from: Radix, to: Radix) {
  return (args: Scalar[]): Scalar => {
    let value: number;
    if (from === 10) {
      const n = toNumber(args[0] ?? null);
      if (isError(n)) return n;
      value = trunc(n);
      const bits = BITS[to];
      if (value < -(2 ** (bits - 1)) || value > 2 ** (bits - 1) - 1) return ERR.NUM;
    } else {
      const v = parse(args[0] ?? null, from);
      if (typeof v !== "number") return v;
      value = v;
    }
    return to === 10 ? value : format(value, to, args[1]);
  };
}

const MAX_BITS = 2 ** 48;
const bitArg = (x: number) => Number.isInteger(x) && x >= 0 && x < MAX_BITS;

/** A bitwise operation on 48-bit non-negative integers, done on two 24-bit halves (JavaScript's bit operators stop at 32). */
function bitwise(op: (a: number, b: number) => number) {
  return (a: number, b: number): Scalar => {
    if (!bitArg(a) || !bitArg(b)) return ERR.NUM;
    const half = 2 ** 24;
    const high = op(Math.floor(a / half), Math.floor(b / half));
    const low = op(a % half, b % half);
    return high * half + low;
  };
}

function shift(direction: 1 | -1) {
  return (n: number, amount: number): Scalar => {
    const s = trunc(amount) * direction;
    if (!bitArg(n) || Math.abs(s) > 53) return ERR.NUM;
    const r = s >= 0 ? n * 2 ** s : Math.floor(n / 2 ** -s);
    return r >= MAX_BITS ? ERR.NUM : r;
  };
}

function besselOf(f: (x: number, n: number) => number, positive: boolean) {
  return numeric((x, nRaw) => {
    const n = trunc(nRaw);
    // The series' cost grows with n (BESSELI(2,1E300) never ended); past order 1,000 the values
    // are beyond a double's range or precision, and #NUM!.
    if (n < 0 || n > 1_000 || (positive && x <= 0)) return ERR.NUM;
    return f(x, n);
  });
}

export const ENGINEERING: FnTable = {
  BIN2DEC: { min: 1, max: 1, scalar: convert(2, 10) },
  BIN2HEX: { min: 1, max: 2, scalar: convert(2, 16) },
  BIN2OCT: { min: 1, max: 2, scalar: convert(2, 8) },
  DEC2BIN: { min: 1, max: 2, scalar: convert(10, 2) },
  DEC2HEX: { min: 1, max: 2, scalar: convert(10, 16) },
  DEC2OCT: { min: 1, max: 2, scalar: convert(10, 8) },
  HEX2BIN: { min: 1, max: 2, scalar: convert(16, 2) },
  HEX2DEC: { min: 1, max: 1, scalar: convert(16, 10) },
  HEX2OCT: { min: 1, max: 2, scalar: convert(16, 8) },
  OCT2BIN: { min: 1, max: 2, scalar: convert(8, 2) },
  OCT2DEC: { min: 1, max: 1, scalar: convert(8, 10) },
  OCT2HEX: { min: 1, max: 2, scalar: convert(8, 16) },
  BITAND: { min: 2, max: 2, scalar: numeric(bitwise((a, b) => a & b)) },
  BITOR: { min: 2, max: 2, scalar: numeric(bitwise((a, b) => a | b)) },
  BITXOR: { min: 2, max: 2, scalar: numeric(bitwise((a, b) => a ^ b)) },
  BITLSHIFT: { min: 2, max: 2, scalar: numeric(shift(1)) },
  BITRSHIFT: { min: 2, max: 2, scalar: numeric(shift(-1)) },
  DELTA: { min: 1, max: 2, scalar: numeric((a, b) => (a === b ? 1 : 0), [0, 0]) },
  GESTEP: { min: 1, max: 2, scalar: numeric((n, step) => (n >= step ? 1 : 0), [0, 0]) },
  ERF: { min: 1, max: 2, scalar: numeric((lo, hi) => (Number.isNaN(hi) ? erf(lo) : erf(hi) - erf(lo)), [0, NaN]) },
  "ERF.PRECISE": { min: 1, max: 1, scalar: numeric(erf) },
  ERFC: { min: 1, max: 1, scalar: numeric(erfc) },
  "ERFC.PRECISE": { min: 1, max: 1, scalar: numeric(erfc) },
  BESSELI: { min: 2, max: 2, scalar: besselOf(bessel.besseli, false) },
  BESSELJ: { min: 2, max: 2, scalar: besselOf(bessel.besselj, false) },
  BESSELK: { min: 2, max: 2, scalar: besselOf(bessel.besselk, true) },
  BESSELY: { min: 2, max: 2, scalar: besselOf(bessel.bessely, true) },
};
