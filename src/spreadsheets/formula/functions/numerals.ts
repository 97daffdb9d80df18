// Numbers written in other systems: BASE and DECIMAL (radix 2–36), ROMAN (with Excel's four
// "more concise" forms) and ARABIC.
import { toNumber, toText } from "../coerce.ts";
import { ERR, isError, type Scalar } from "../values.ts";
import type { FnTable } from "./spec.ts";

const MAX_SAFE = 2 ** 53;

function base(args: Scalar[]): Scalar {
  const [n, radix, length] = args.map((a) => (a === undefined ? 0 : toNumber(a)));
  for (const x of [n, radix, length]) if (isError(x)) return x;
  const [x, r, l] = [Math.trunc(n as number), Math.trunc(radix as number), Math.trunc(length as number)];
  if (x < 0 || x >= MAX_SAFE || r < 2 || r > 36 || l < 0 || l > 255) return ERR.NUM;
  return x.toString(r).toUpperCase().padStart(l, "0");
}

function decimal(args: Scalar[]): Scalar {
  const text = toText(args[0] ?? null);
  if (isError(text)) return text;
  const radix = toNumber(args[1] ?? null);
  if (isError(radix)) return radix;
  const r = Math.trunc(radix);
  if (r < 2 || r > 36) return ERR.NUM;
  if (text.length > 255) return ERR.VALUE;
  let value = 0;
  for (const ch of text.toLowerCase()) {
    const digit = parseInt(ch, 36);
    if (Number.isNaN(digit) || digit >= r) return ERR.NUM;
    value = value * r + digit;
  }
  return value >= MAX_SAFE ? ERR.NUM : value;
}

const LETTERS = ["M", "D", "C", "L", "X", "V", "I"];
const VALUES = [1000, 500, 100, 50, 10, 5, 1];

/**
 * Roman numerals. Form 0 is classic (499 → CDXCIX); forms 1–4 let a subtracted letter reach further
 * (499 → LDVLIV, XDIX, VDIV, ID), one step per form, as Excel's examples show.
 */
export function roman(value: number, form: number): string {
  let out = "";
  let n = value;
  for (let index = 0; index < VALUES.length; index += 2) {
    const digit = Math.floor(n / (VALUES[index] as number));
    if (digit % 5 === 4) {
      const index2 = digit === 4 ? index - 1 : index - 2;
      let i = index;
      for (let steps = 0; steps < form && i < VALUES.length - 1; steps++) {
        if ((VALUES[index2] as number) - (VALUES[i + 1] as number) <= n) i++;
        else break;
      }
      out += (LETTERS[i] as string) + (LETTERS[index2] as string);
      n = n + (VALUES[i] as number) - (VALUES[index2] as number);
    } else {
      if (digit > 4) out += LETTERS[index - 1] as string;
      out += (LETTERS[index] as string).repeat(digit % 5);
      n %= VALUES[index] as number;
    }
  }
  return out;
}

function romanFn(args: Scalar[]): Scalar {
  const n = toNumber(args[0] ?? null);
  if (isError(n)) return n;
  const f = args[1];
  const form = f === undefined || f === null ? 0 : typeof f === "boolean" ? (f ? 0 : 4) : toNumber(f);
  if (isError(form)) return form;
  const value = Math.trunc(n);
  const mode = Math.trunc(form);
  if (value < 0 || value > 3999 || mode < 0 || mode > 4) return ERR.VALUE;
  return roman(value, mode);
}

const ROMAN_VALUE: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

function arabic(args: Scalar[]): Scalar {
  const text = toText(args[0] ?? null);
  if (isError(text)) return text;
  if (text.length > 255) return ERR.VALUE;
  let t = text.trim().toUpperCase();
  const sign = t.startsWith("-") ? -1 : 1;
  if (sign < 0) t = t.slice(1);
  let total = 0;
  for (let i = 0; i < t.length; i++) {
    const v = ROMAN_VALUE[t[i] as string];
    if (v === undefined) return ERR.VALUE;
    const next = i + 1 < t.length ? (ROMAN_VALUE[t[i + 1] as string] ?? 0) : 0;
    total += v < next ? -v : v;
  }
  return sign * total || 0;
}

export const NUMERALS: FnTable = {
  BASE: { min: 2, max: 3, scalar: base },
  DECIMAL: { min: 2, max: 2, scalar: decimal },
  ROMAN: { min: 1, max: 2, scalar: romanFn },
  ARABIC: { min: 1, max: 1, scalar: arabic },
};
