// Text functions that turn numbers and values into text and back: DOLLAR and FIXED (rounded as
// ROUND does, en-US separators), NUMBERVALUE (given separators), VALUETOTEXT, ARRAYTOTEXT, and
// TEXTBEFORE/TEXTAFTER (instance from either end, case-insensitive mode, end of text as a delimiter).
import type { EvalContext } from "../context.ts";
import { toBoolean, toNumber, toText } from "../coerce.ts";
import { ERR, isError, type Scalar, type Value } from "../values.ts";
import { gridOf, numberArg } from "./args.ts";
import { roundDigits } from "./rounding.ts";
import type { FnTable } from "./spec.ts";

/** |n| rounded to `decimals` (negative: left of the point) as digits with en-US thousands separators. */
function grouped(n: number, decimals: number, commas: boolean): string {
  const d = Math.trunc(decimals);
  const rounded = Math.abs(roundDigits(n, d, "half"));
  const [whole, fraction] = rounded.toFixed(Math.max(0, Math.min(d, 100))).split(".") as [string, string | undefined];
  const body = commas ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : whole;
  return fraction ? `${body}.${fraction}` : body;
}

function money(kind: "dollar" | "fixed") {
  return (args: Scalar[]): Scalar => {
    const n = toNumber(args[0] ?? null);
    if (isError(n)) return n;
    const d = args[1] === undefined ? 2 : toNumber(args[1]);
    if (isError(d)) return d;
    if (d > 127) return ERR.VALUE;
    const noCommas = kind === "fixed" && args[2] !== undefined ? toBoolean(args[2]) : false;
    if (isError(noCommas)) return noCommas;
    const body = grouped(n, d, !noCommas);
    const negative = roundDigits(n, Math.trunc(d), "half") < 0;
    if (kind === "fixed") return negative ? `-${body}` : body;
    return negative ? `($${body})` : `$${body}`;
  };
}

function numbervalue(args: Scalar[]): Scalar {
  const text = toText(args[0] ?? null);
  if (isError(text)) return text;
  const decimal = args[1] === undefined || args[1] === null ? "." : toText(args[1]);
  if (isError(decimal)) return decimal;
  const group = args[2] === undefined || args[2] === null ? "," : toText(args[2]);
  if (isError(group)) return group;
  const [dec, grp] = [decimal[0] ?? ".", group[0] ?? ","];
  if (dec === grp && decimal !== "" && group !== "") return ERR.VALUE;
  let body = text.replace(/\s+/g, "");
  if (body === "") return 0;
  let scale = 1;
  while (body.endsWith("%")) {
    scale /= 100;
    body = body.slice(0, -1);
  }
  const point = body.indexOf(dec);
  if (point >= 0 && body.indexOf(dec, point + 1) >= 0) return ERR.VALUE;
  const [integer, fraction] = point >= 0 ? [body.slice(0, point), body.slice(point + 1)] : [body, ""];
  if (fraction.includes(grp)) return ERR.VALUE;
  const plain = `${integer.split(grp).join("")}${point >= 0 ? `.${fraction}` : ""}`;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(plain)) return ERR.VALUE;
  return Number(plain) * scale;
}

function asText(v: Scalar, strict: boolean): string {
  if (typeof v === "string") return strict ? `"${v.replaceAll('"', '""')}"` : v;
  if (isError(v)) return v.error;
  return toText(v) as string;
}

function valuetotext(args: Scalar[]): Scalar {
  const format = args[1] === undefined || args[1] === null ? 0 : toNumber(args[1]);
  if (isError(format)) return format;
  if (format !== 0 && format !== 1) return ERR.VALUE;
  return asText(args[0] ?? null, format === 1);
}

function arraytotext(args: Value[], ctx: EvalContext): Value {
  const format = numberArg(args[1], ctx, 0);
  if (isError(format)) return format;
  if (format !== 0 && format !== 1) return ERR.VALUE;
  const grid = gridOf(args[0] as Value, ctx);
  if (isError(grid)) return grid;
  ctx.step(grid.rows * grid.columns);
  const rows: string[] = [];
  for (let r = 0; r < grid.rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < grid.columns; c++) cells.push(asText(grid.at(r, c), format === 1));
    rows.push(cells.join(format === 1 ? "," : ", "));
  }
  const out = format === 1 ? `{${rows.join(";")}}` : rows.join(", ");
  return out.length > 32767 ? ERR.VALUE : out;
}

/** Where the `instance`th delimiter starts and ends (from the end when negative), or null. */
function delimiterAt(text: string, delimiter: string, instance: number, caseless: boolean, endIsDelimiter: boolean) {
  const hay = caseless ? text.toLowerCase() : text;
  const needle = caseless ? delimiter.toLowerCase() : delimiter;
  const found: [number, number][] = [];
  if (needle === "") found.push([0, 0]);
  else for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) found.push([at, at + needle.length]);
  if (instance > 0) {
    if (endIsDelimiter && (needle !== "" || found.length === 0)) found.push([text.length, text.length]);
    return found[instance - 1] ?? null;
  }
  if (needle === "") found[0] = [text.length, text.length];
  if (endIsDelimiter) found.unshift([0, 0]);
  return found[found.length + instance] ?? null;
}

function around(after: boolean) {
  return (args: Scalar[]): Scalar => {
    const text = toText(args[0] ?? null);
    if (isError(text)) return text;
    const delimiter = toText(args[1] ?? null);
    if (isError(delimiter)) return delimiter;
    const numbers: number[] = [];
    for (const [i, fallback] of [
      [2, 1],
      [3, 0],
      [4, 0],
    ] as const) {
      const n = args[i] === undefined || args[i] === null ? fallback : toNumber(args[i] as Scalar);
      if (isError(n)) return n;
      numbers.push(Math.trunc(n));
    }
    const [instance, mode, end] = numbers as [number, number, number];
    if (instance === 0 || Math.abs(instance) > text.length + 1 || (mode !== 0 && mode !== 1)) return ERR.VALUE;
    const at = delimiterAt(text, delimiter, instance, mode === 1, end !== 0);
    if (!at) return args[5] === undefined ? ERR.NA : (args[5] ?? null);
    return after ? text.slice(at[1]) : text.slice(0, at[0]);
  };
}

export const TEXT_VALUES: FnTable = {
  DOLLAR: { min: 1, max: 2, scalar: money("dollar") },
  FIXED: { min: 1, max: 3, scalar: money("fixed") },
  NUMBERVALUE: { min: 1, max: 3, scalar: numbervalue },
  VALUETOTEXT: { min: 1, max: 2, scalar: valuetotext },
  ARRAYTOTEXT: { min: 1, max: 2, call: arraytotext },
  TEXTBEFORE: { min: 2, max: 6, scalar: around(false) },
  TEXTAFTER: { min: 2, max: 6, scalar: around(true) },
};
