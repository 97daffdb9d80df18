// Working-day functions: WORKDAY, WORKDAY.INTL and NETWORKDAYS.INTL, with Excel's weekend codes
// (1–7 two-day weekends, 11–17 one day, or a "0000011" mask from Monday) and holiday lists.
import { work } from "../budget.ts";
import { MAX_DATE_SERIAL, weekday } from "../../cells/dates.ts";
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isError, type FormulaError, type Value } from "../values.ts";
import { eachValue, scalarArg } from "./args.ts";
import { dateSerialOfText } from "./calendar.ts";
import type { FnTable } from "./spec.ts";

/** Which days (0 Monday … 6 Sunday) are the weekend. */
export function weekendMask(v: Value | undefined, ctx: EvalContext): boolean[] | FormulaError {
  const code = v === undefined || v === null ? 1 : scalarArg(v, ctx);
  if (isError(code)) return code;
  if (typeof code === "string" && (/^[01]{7}$/.test(code) || !/^\d+(\.\d*)?$/.test(code.trim()))) {
    if (!/^[01]{7}$/.test(code) || code === "1111111") return ERR.VALUE;
    return [...code].map((c) => c === "1");
  }
  const n = toNumber(code);
  if (isError(n)) return n;
  const k = Math.trunc(n);
  const mask = Array<boolean>(7).fill(false);
  if (k >= 1 && k <= 7) {
    mask[(k + 4) % 7] = true;
    mask[(k + 5) % 7] = true;
  } else if (k >= 11 && k <= 17) mask[(k - 11 + 6) % 7] = true;
  else return ERR.NUM;
  return mask;
}

/** The holidays: numbers, and texts that read as dates (`{"2006/1/2"}`); other text is #VALUE!. */
function holidaysOf(v: Value | undefined, ctx: EvalContext): Set<number> | FormulaError {
  const out = new Set<number>();
  if (v === undefined || v === null) return out;
  let error: FormulaError | null = null;
  eachValue([v], ctx, (x) => {
    const n = typeof x === "string" ? (dateSerialOfText(x, ctx) ?? ERR.VALUE) : typeof x === "boolean" ? null : x;
    if (isError(n)) error ??= n;
    else if (n !== null) out.add(Math.trunc(n));
  });
  return error ?? out;
}

function serialArg(v: Value | undefined, ctx: EvalContext): number | FormulaError {
  const n = toNumber(scalarArg(v, ctx));
  if (isError(n)) return n;
  return n < 0 || n > MAX_DATE_SERIAL ? ERR.NUM : Math.trunc(n);
}

const isWorkday = (serial: number, mask: boolean[], holidays: Set<number>): boolean =>
  !mask[(weekday(serial) + 5) % 7] && !holidays.has(serial);

function workday(intl: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const start = serialArg(args[0], ctx);
    if (isError(start)) return start;
    const count = toNumber(scalarArg(args[1], ctx));
    if (isError(count)) return count;
    const mask = intl ? weekendMask(args[2], ctx) : weekendMask(1, ctx);
    if (isError(mask)) return mask;
    const holidays = holidaysOf(args[intl ? 3 : 2], ctx);
    if (isError(holidays)) return holidays;
    let left = Math.abs(Math.trunc(count));
    const direction = count < 0 ? -1 : 1;
    ctx.step(left / 16);
    let day = start;
    while (left > 0) {
      work(1);
      day += direction;
      if (day < 0 || day > MAX_DATE_SERIAL) return ERR.NUM;
      if (isWorkday(day, mask, holidays)) left--;
    }
    return day;
  };
}

function networkdaysIntl(args: Value[], ctx: EvalContext): Value {
  const start = serialArg(args[0], ctx);
  if (isError(start)) return start;
  const end = serialArg(args[1], ctx);
  if (isError(end)) return end;
  const mask = weekendMask(args[2], ctx);
  if (isError(mask)) return mask;
  const holidays = holidaysOf(args[3], ctx);
  if (isError(holidays)) return holidays;
  const [from, to, sign] = start <= end ? [start, end, 1] : [end, start, -1];
  ctx.step((to - from) / 64);
  let count = 0;
  for (let d = from; d <= to; d++) {
    work(1);
    if (isWorkday(d, mask, holidays)) count++;
  }
  return sign * count;
}

export const WORKDAYS: FnTable = {
  WORKDAY: { min: 2, max: 3, call: workday(false) },
  "WORKDAY.INTL": { min: 2, max: 4, call: workday(true) },
  "NETWORKDAYS.INTL": { min: 2, max: 4, call: networkdaysIntl },
};
