// Text functions about characters: CHAR/CODE (Windows-1252, Excel's code page on Windows),
// UNICHAR/UNICODE, CLEAN, T, REPLACE, ASC/DBCS (full- and half-width forms), and the byte-counting
// variants (LEFTB …), which count characters as their plain forms do in a single-byte language.
import { toNumber, toText } from "../coerce.ts";
import type { EvalContext } from "../context.ts";
import { ERR, isError, type Scalar, type Value } from "../values.ts";
import { firstCell } from "./information.ts";
import type { FnTable } from "./spec.ts";
import { TEXT } from "./text.ts";

const CP1252 = new TextDecoder("windows-1252");
const FROM_UNICODE = new Map<string, number>();
for (let code = 1; code < 256; code++) FROM_UNICODE.set(CP1252.decode(new Uint8Array([code])), code);

function char(args: Scalar[]): Scalar {
  const n = toNumber(args[0] ?? null);
  if (isError(n)) return n;
  const code = Math.trunc(n);
  return code < 1 || code > 255 ? ERR.VALUE : CP1252.decode(new Uint8Array([code]));
}

function code(args: Scalar[]): Scalar {
  const t = toText(args[0] ?? null);
  if (isError(t)) return t;
  if (t === "") return ERR.VALUE;
  return FROM_UNICODE.get(t[0] as string) ?? 63; // "?" for a character the code page lacks
}

function unichar(args: Scalar[]): Scalar {
  const n = toNumber(args[0] ?? null);
  if (isError(n)) return n;
  const c = Math.trunc(n);
  if (c < 1 || c > 0x10ffff) return ERR.VALUE;
  if (c >= 0xd800 && c <= 0xdfff) return ERR.NA;
  return String.fromCodePoint(c);
}

function unicode(args: Scalar[]): Scalar {
  const t = toText(args[0] ?? null);
  if (isError(t)) return t;
  return t === "" ? ERR.VALUE : (t.codePointAt(0) as number);
}

function clean(args: Scalar[]): Scalar {
  const t = toText(args[0] ?? null);
  // eslint-disable-next-line no-control-regex
  return isError(t) ? t : t.replace(/[\x00-\x1f]/g, "");
}

/** T: text as is, anything else "" (errors pass through); of a reference or array, its first cell (Excel's T(A1:C1)). */
function t(args: Value[], ctx: EvalContext): Value {
  const v = firstCell(args[0] ?? null, ctx);
  return typeof v === "string" || isError(v) ? v : "";
}

function replace(args: Scalar[]): Scalar {
  const text = toText(args[0] ?? null);
  if (isError(text)) return text;
  const start = toNumber(args[1] ?? null);
  if (isError(start)) return start;
  const count = toNumber(args[2] ?? null);
  if (isError(count)) return count;
  const insert = toText(args[3] ?? null);
  if (isError(insert)) return insert;
  const s = Math.trunc(start);
  const n = Math.trunc(count);
  if (s < 1 || n < 0) return ERR.VALUE;
  const out = text.slice(0, s - 1) + insert + text.slice(s - 1 + n);
  return out.length > 32767 ? ERR.VALUE : out;
}

/** ASC: full-width ASCII forms and the ideographic space to their half-width forms; DBCS the other way. */
function width(full: boolean) {
  return (args: Scalar[]): Scalar => {
    const text = toText(args[0] ?? null);
    if (isError(text)) return text;
    let out = "";
    for (const ch of text) {
      const c = ch.codePointAt(0) as number;
      if (full) out += c === 0x20 ? "\u3000" : c > 0x20 && c < 0x7f ? String.fromCodePoint(c + 0xfee0) : ch;
      else out += c === 0x3000 ? " " : c >= 0xff01 && c <= 0xff5e ? String.fromCodePoint(c - 0xfee0) : ch;
    }
    return out;
  };
}

export const CHARACTERS: FnTable = {
  CHAR: { min: 1, max: 1, scalar: char },
  CODE: { min: 1, max: 1, scalar: code },
  UNICHAR: { min: 1, max: 1, scalar: unichar },
  UNICODE: { min: 1, max: 1, scalar: unicode },
  CLEAN: { min: 1, max: 1, scalar: clean },
  T: { min: 1, max: 1, call: t },
  REPLACE: { min: 4, max: 4, scalar: replace },
  REPLACEB: { min: 4, max: 4, scalar: replace },
  ASC: { min: 1, max: 1, scalar: width(false) },
  DBCS: { min: 1, max: 1, scalar: width(true) },
  LEFTB: TEXT["LEFT"]!,
  RIGHTB: TEXT["RIGHT"]!,
  MIDB: TEXT["MID"]!,
  LENB: TEXT["LEN"]!,
  FINDB: TEXT["FIND"]!,
  SEARCHB: TEXT["SEARCH"]!,
};
