// Trigonometric and hyperbolic functions. Excel refuses (#NUM!) angles of 2^27 or more for the
// circular functions and their reciprocals (precision is gone there), and answers #DIV/0! where a
// reciprocal divides by zero.
import { ERR, type Scalar } from "../values.ts";
import { numeric } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

const LIMIT = 134217728; // 2^27

const angle = (f: (x: number) => number) => numeric((x) => (Math.abs(x) >= LIMIT ? ERR.NUM : f(x)));
const reciprocal = (f: (x: number) => number, limited = true) =>
  numeric((x): Scalar => {
    if (limited && Math.abs(x) >= LIMIT) return ERR.NUM;
    const d = f(x);
    return d === 0 ? ERR.DIV0 : 1 / d;
  });
const within = (lo: number, hi: number, f: (x: number) => number) => numeric((x) => (x < lo || x > hi ? ERR.NUM : f(x)));

function atan2(x: number, y: number): Scalar {
  if (x === 0 && y === 0) return ERR.DIV0;
  return Math.atan2(y, x);
}

export const TRIG: FnTable = {
  SIN: { min: 1, max: 1, scalar: angle(Math.sin) },
  COS: { min: 1, max: 1, scalar: angle(Math.cos) },
  TAN: { min: 1, max: 1, scalar: angle(Math.tan) },
  SEC: { min: 1, max: 1, scalar: reciprocal(Math.cos) },
  CSC: { min: 1, max: 1, scalar: reciprocal(Math.sin) },
  COT: { min: 1, max: 1, scalar: reciprocal(Math.tan) },
  ASIN: { min: 1, max: 1, scalar: within(-1, 1, Math.asin) },
  ACOS: { min: 1, max: 1, scalar: within(-1, 1, Math.acos) },
  ATAN: { min: 1, max: 1, scalar: numeric(Math.atan) },
  ATAN2: { min: 2, max: 2, scalar: numeric(atan2) },
  ACOT: { min: 1, max: 1, scalar: numeric((x) => Math.PI / 2 - Math.atan(x)) },
  SINH: { min: 1, max: 1, scalar: numeric(Math.sinh) },
  COSH: { min: 1, max: 1, scalar: numeric(Math.cosh) },
  TANH: { min: 1, max: 1, scalar: numeric(Math.tanh) },
  SECH: { min: 1, max: 1, scalar: reciprocal(Math.cosh) },
  CSCH: { min: 1, max: 1, scalar: reciprocal(Math.sinh) },
  COTH: { min: 1, max: 1, scalar: reciprocal(Math.tanh) },
  ASINH: { min: 1, max: 1, scalar: numeric(Math.asinh) },
  ACOSH: { min: 1, max: 1, scalar: within(1, Infinity, Math.acosh) },
  ATANH: { min: 1, max: 1, scalar: numeric((x) => (Math.abs(x) >= 1 ? ERR.NUM : Math.atanh(x))) },
  ACOTH: { min: 1, max: 1, scalar: numeric((x) => (Math.abs(x) <= 1 ? ERR.NUM : 0.5 * Math.log((x + 1) / (x - 1)))) },
  RADIANS: { min: 1, max: 1, scalar: numeric((x) => (x * Math.PI) / 180) },
  DEGREES: { min: 1, max: 1, scalar: numeric((x) => (x * 180) / Math.PI) },
  SQRTPI: { min: 1, max: 1, scalar: numeric((x) => (x < 0 ? ERR.NUM : Math.sqrt(x * Math.PI))) },
};
