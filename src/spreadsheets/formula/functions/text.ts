// Text functions. Lengths and positions count UTF-16 code units, as Excel does.
import type { EvalContext } from "../context.ts";
import { textToNumber, toNumber, toText } from "../coerce.ts";
import { wildcardRegExp } from "../criteria.ts";
import { MAX_TEXT, TextJoin } from "../text-limit.ts";
import { ERR, isError, type FormulaError, type Scalar, type Value } from "../values.ts";
import { eachValue, numberArg, textArg } from "./args.ts";
import type { FnTable } from "./spec.ts";
import { excelText } from "./text-format.ts";

/** A scalar function of text and number arguments: kinds by position ("t" text, "n" number), optional ones with defaults. */
function typed(kinds: string, f: (...xs: (string | number)[]) => Scalar, defaults: (string | number | undefined)[] = []) {
  return (args: Scalar[]): Scalar => {
    const xs: (string | number)[] = [];
    for (let i = 0; i < kinds.length; i++) {
      const a = args[i];
      if (a === undefined) {
        const d = defaults[i];
        if (d === undefined) break;
        xs.push(d);
        continue;
      }
      const x = kinds[i] === "t" ? toText(a) : toNumber(a);
      if (isError(x)) return x;
      xs.push(x);
    }
    return f(...xs);
  };
}

function concat(args: Value[], ctx: EvalContext): Value {
  const out = new TextJoin();
  let error: FormulaError | null = null;
  eachValue(args, ctx, (v) => {
    const t = toText(v);
    if (isError(t)) error ??= t;
    else out.add(t);
  });
  return error ?? out.result();
}

function textjoin(args: Value[], ctx: EvalContext): Value {
  const delimiter = textArg(args[0], ctx);
  if (isError(delimiter)) return delimiter;
  const ignore = numberArg(args[1], ctx);
  if (isError(ignore)) return ignore;
  const out = new TextJoin(delimiter);
  let error: FormulaError | null = null;
  eachValue(
    args.slice(2),
    ctx,
    (v) => {
      const t = toText(v);
      if (isError(t)) error ??= t;
      else if (!(ignore && t === "")) out.add(t);
    },
    !ignore,
  );
  return error ?? out.result();
}

function proper(text: string): string {
  let out = "";
  let previousLetter = false;
  for (const ch of text) {
    const letter = ch.toLowerCase() !== ch.toUpperCase();
    out += letter ? (previousLetter ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    previousLetter = letter;
  }
  return out;
}

function substitute(text: string, old: string, replacement: string, instance?: number): Scalar {
  if (old === "") return text;
  if (instance === undefined) {
    const parts = text.split(old);
    // Refused before the join: 32,767 a's each replaced by 32,767 b's would be a billion characters.
    return text.length + (parts.length - 1) * (replacement.length - old.length) > MAX_TEXT ? ERR.VALUE : parts.join(replacement);
  }
  const n = Math.trunc(instance);
  if (n < 1) return ERR.VALUE;
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf(old, at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at) + replacement + text.slice(at + old.length);
}

function find(caseless: boolean) {
  return (needle: string, haystack: string, start: number): Scalar => {
    const from = Math.trunc(start) - 1;
    if (from < 0 || from > haystack.length) return ERR.VALUE;
    if (needle === "") return from + 1;
    if (!caseless) {
      const at = haystack.indexOf(needle, from);
      return at < 0 ? ERR.VALUE : at + 1;
    }
    const regex = wildcardRegExp(needle);
    if (!regex) {
      const at = haystack.toLowerCase().indexOf(needle.toLowerCase(), from);
      return at < 0 ? ERR.VALUE : at + 1;
    }
    const unanchored = new RegExp(regex.source.slice(1, -1), "i");
    const match = unanchored.exec(haystack.slice(from));
    return match ? from + match.index + 1 : ERR.VALUE;
  };
}

function text(args: Scalar[]): Scalar {
  const [value, pattern] = args as [Scalar, Scalar];
  const fmt = toText(pattern);
  if (isError(fmt)) return fmt;
  if (isError(value)) return value;
  if (typeof value === "boolean") return excelText(value, fmt);
  const n = typeof value === "string" ? textToNumber(value) : toNumber(value);
  return excelText(n === null || isError(n) ? value : n, fmt);
}

function value(args: Scalar[]): Scalar {
  const [v] = args as [Scalar];
  if (typeof v === "number" || isError(v)) return v;
  if (v === null) return 0;
  if (typeof v === "boolean") return ERR.VALUE;
  const n = textToNumber(v);
  return n === null ? ERR.VALUE : n;
}

const left = (t: string, n: number): Scalar => (n < 0 ? ERR.VALUE : t.slice(0, Math.trunc(n)));
const right = (t: string, n: number): Scalar => (n < 0 ? ERR.VALUE : Math.trunc(n) === 0 ? "" : t.slice(-Math.trunc(n)));
const mid = (t: string, start: number, n: number): Scalar =>
  start < 1 || n < 0 ? ERR.VALUE : t.slice(Math.trunc(start) - 1, Math.trunc(start) - 1 + Math.trunc(n));

const rept = (t: string, n: number): Scalar => (n < 0 || t.length * Math.trunc(n) > MAX_TEXT ? ERR.VALUE : t.repeat(Math.trunc(n)));

export const TEXT: FnTable = {
  CONCAT: { min: 1, max: 255, call: concat },
  CONCATENATE: { min: 1, max: 255, call: concat },
  TEXTJOIN: { min: 3, max: 255, call: textjoin },
  LEFT: { min: 1, max: 2, scalar: typed("tn", (t, n) => left(t as string, n as number), [undefined, 1]) },
  RIGHT: { min: 1, max: 2, scalar: typed("tn", (t, n) => right(t as string, n as number), [undefined, 1]) },
  MID: { min: 3, max: 3, scalar: typed("tnn", (t, s, n) => mid(t as string, s as number, n as number)) },
  LEN: { min: 1, max: 1, scalar: typed("t", (t) => (t as string).length) },
  UPPER: { min: 1, max: 1, scalar: typed("t", (t) => (t as string).toUpperCase()) },
  LOWER: { min: 1, max: 1, scalar: typed("t", (t) => (t as string).toLowerCase()) },
  PROPER: { min: 1, max: 1, scalar: typed("t", (t) => proper(t as string)) },
  TRIM: { min: 1, max: 1, scalar: typed("t", (t) => (t as string).replace(/ +/g, " ").replace(/^ | $/g, "")) },
  SUBSTITUTE: {
    min: 3,
    max: 4,
    scalar: typed("tttn", (t, o, r, i) => substitute(t as string, o as string, r as string, i as number | undefined)),
  },
  FIND: {
    min: 2,
    max: 3,
    scalar: typed("ttn", (n, h, s) => find(false)(n as string, h as string, s as number), [undefined, undefined, 1]),
  },
  SEARCH: {
    min: 2,
    max: 3,
    scalar: typed("ttn", (n, h, s) => find(true)(n as string, h as string, s as number), [undefined, undefined, 1]),
  },
  TEXT: { min: 2, max: 2, scalar: text },
  VALUE: { min: 1, max: 1, scalar: value },
  REPT: { min: 2, max: 2, scalar: typed("tn", (t, n) => rept(t as string, n as number)) },
  EXACT: { min: 2, max: 2, scalar: typed("tt", (a, b) => a === b) },
};
