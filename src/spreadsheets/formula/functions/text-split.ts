// TEXTSPLIT (text into a spilled array by column and row delimiters, each one text or an array of
// them, empty parts kept or dropped, padded with #N/A), PHONETIC (a cell's text: the model keeps no
// furigana) and ENCODEURL (percent-encoding, as Excel's: letters, digits and -_.~ stay).
import type { EvalContext } from "../context.ts";
import { toBoolean, toNumber, toText } from "../coerce.ts";
import { ERR, isArray, isError, isRange, type FormulaError, type Scalar, type Value } from "../values.ts";
import { eachValue, scalarArg } from "./args.ts";
import type { FnTable } from "./spec.ts";

/** The delimiters of an argument (one text, or every value of an array or range), or an error. */
function delimiters(v: Value | undefined, ctx: EvalContext): string[] | FormulaError {
  if (v === undefined || v === null) return [];
  const out: string[] = [];
  let error: FormulaError | null = null;
  eachValue([v], ctx, (x) => {
    const t = toText(x);
    if (isError(t)) error ??= t;
    else out.push(t);
  });
  return error ?? out;
}

function splitBy(text: string, delims: string[], caseless: boolean): string[] {
  const usable = delims.filter((d) => d !== "");
  if (usable.length === 0) return [text];
  const hay = caseless ? text.toLowerCase() : text;
  const needles = usable.map((d) => (caseless ? d.toLowerCase() : d));
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const hit = needles.find((d) => hay.startsWith(d, i));
    if (hit === undefined) i++;
    else {
      parts.push(text.slice(start, i));
      i += hit.length;
      start = i;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function textsplit(args: Value[], ctx: EvalContext): Value {
  const text = toText(scalarArg(args[0], ctx));
  if (isError(text)) return text;
  const columns = delimiters(args[1], ctx);
  if (isError(columns)) return columns;
  const rows = delimiters(args[2], ctx);
  if (isError(rows)) return rows;
  const ignore = args[3] === undefined || args[3] === null ? false : toBoolean(scalarArg(args[3], ctx));
  if (isError(ignore)) return ignore;
  const mode = args[4] === undefined || args[4] === null ? 0 : toNumber(scalarArg(args[4], ctx));
  if (isError(mode)) return mode;
  if (columns.every((d) => d === "") && rows.every((d) => d === "")) return ERR.VALUE;
  const pad: Scalar = args[5] === undefined ? ERR.NA : scalarArg(args[5], ctx);
  const keep = (parts: string[]) => (ignore ? parts.filter((p) => p !== "") : parts);
  const grid = keep(splitBy(text, rows, mode === 1)).map((line) => keep(splitBy(line, columns, mode === 1)) as Scalar[]);
  const width = Math.max(1, ...grid.map((r) => r.length));
  ctx.step(grid.length * width);
  const out = grid.map((r) => [...r, ...Array<Scalar>(width - r.length).fill(pad)]);
  return out.length === 0 ? ERR.CALC : out;
}

function phonetic(args: Value[], ctx: EvalContext): Value {
  const v = args[0];
  if (!isRange(v) && !isArray(v)) return isError(v) ? v : ERR.VALUE;
  return toText(scalarArg(isRange(v) ? ctx.value(v.sid, v.top, v.left) : (v[0]?.[0] ?? null), ctx));
}

function encodeurl(args: Scalar[]): Scalar {
  const t = toText(args[0] ?? null);
  if (isError(t)) return t;
  return encodeURIComponent(t).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export const TEXT_SPLIT: FnTable = {
  TEXTSPLIT: { min: 2, max: 6, call: textsplit },
  PHONETIC: { min: 1, max: 1, call: phonetic },
  ENCODEURL: { min: 1, max: 1, scalar: encodeurl },
};
