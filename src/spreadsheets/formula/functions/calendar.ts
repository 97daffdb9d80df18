// Calendar arithmetic on 1900-system serials: DAYS360 (US and European), YEARFRAC (the five day-count
// bases, basis 1 as Excel computes it), WEEKNUM, ISOWEEKNUM, and DATEVALUE/TIMEVALUE over the date
// and time texts Excel reads in en-US ("8/22/2011", "22-Aug-2011", "Aug 22, 2011", "6:35 PM").
import { daysInMonth, MAX_DATE_SERIAL, serialFromYmd, weekday, ymdFromSerial, type Ymd } from "../../cells/dates.ts";
import type { EvalContext } from "../context.ts";
import { textToNumber, toBoolean, toNumber } from "../coerce.ts";
import { ERR, isError, type FormulaError, type Scalar } from "../values.ts";
import type { FnTable } from "./spec.ts";

function serialOf(v: Scalar | undefined): number | FormulaError {
  const n = toNumber(v ?? null);
  if (isError(n)) return n;
  return n < 0 || n > MAX_DATE_SERIAL ? ERR.NUM : Math.trunc(n);
}

const lastOfFebruary = (d: Ymd): boolean => d.month === 2 && d.day === daysInMonth(d.year, 2);

function days360(args: Scalar[]): Scalar {
  const start = serialOf(args[0]);
  if (isError(start)) return start;
  const end = serialOf(args[1]);
  if (isError(end)) return end;
  const european = args[2] === undefined ? false : toBoolean(args[2]);
  if (isError(european)) return european;
  const a = ymdFromSerial(start);
  const b = ymdFromSerial(end);
  let [d1, d2] = [a.day, b.day];
  if (european) {
    d1 = Math.min(d1, 30);
    d2 = Math.min(d2, 30);
  } else {
    if (d1 === 31 || lastOfFebruary(a)) d1 = 30;
    if (d2 === 31 && d1 >= 30) d2 = 30;
  }
  return (b.year - a.year) * 360 + (b.month - a.month) * 30 + d2 - d1;
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** YEARFRAC basis 1: within a year, by that year's length (366 when a 29 February falls in); else the years' mean length. */
function actualActual(s: number, e: number, a: Ymd, b: Ymd): number {
  const withinYear = a.year === b.year || (b.year === a.year + 1 && (a.month > b.month || (a.month === b.month && a.day >= b.day)));
  if (withinYear) {
    let leap = a.year === b.year && isLeap(a.year);
    for (let y = a.year; y <= b.year && !leap; y++)
      if (isLeap(y)) {
        const feb29 = serialFromYmd(y, 2, 29);
        leap = feb29 >= s && feb29 <= e;
      }
    return (e - s) / (leap ? 366 : 365);
  }
  const span = serialFromYmd(b.year + 1, 1, 1) - serialFromYmd(a.year, 1, 1);
  return (e - s) / (span / (b.year - a.year + 1));
}

function us30360(a: Ymd, b: Ymd): number {
  let [d1, d2] = [a.day, b.day];
  if (d1 === 31 && d2 === 31) [d1, d2] = [30, 30];
  else if (d1 === 31) d1 = 30;
  else if (d1 === 30 && d2 === 31) d2 = 30;
  else if (lastOfFebruary(a) && lastOfFebruary(b)) [d1, d2] = [30, 30];
  else if (lastOfFebruary(a)) d1 = 30;
  return ((b.year - a.year) * 360 + (b.month - a.month) * 30 + d2 - d1) / 360;
}

export function yearFraction(start: number, end: number, basis: number): number | FormulaError {
  if (basis < 0 || basis > 4) return ERR.NUM;
  const [s, e] = start <= end ? [start, end] : [end, start];
  const a = ymdFromSerial(s);
  const b = ymdFromSerial(e);
  switch (basis) {
    case 0:
      return us30360(a, b);
    case 1:
      return actualActual(s, e, a, b);
    case 2:
      return (e - s) / 360;
    case 3:
      return (e - s) / 365;
    default:
      return ((b.year - a.year) * 360 + (b.month - a.month) * 30 + Math.min(b.day, 30) - Math.min(a.day, 30)) / 360;
  }
}

function yearfrac(args: Scalar[]): Scalar {
  const start = serialOf(args[0]);
  if (isError(start)) return start;
  const end = serialOf(args[1]);
  if (isError(end)) return end;
  const basis = args[2] === undefined ? 0 : toNumber(args[2]);
  return isError(basis) ? basis : yearFraction(start, end, Math.trunc(basis));
}

const WEEK_STARTS: Record<number, number> = { 1: 1, 17: 1, 2: 2, 11: 2, 12: 3, 13: 4, 14: 5, 15: 6, 16: 7 };

function isoWeek(serial: number): number {
  const monday = (weekday(serial) + 5) % 7; // 0 Monday … 6 Sunday
  const thursday = serial - monday + 3;
  const jan1 = serialFromYmd(ymdFromSerial(thursday).year, 1, 1);
  return Math.floor((thursday - jan1) / 7) + 1;
}

function weeknum(args: Scalar[]): Scalar {
  const serial = serialOf(args[0]);
  if (isError(serial)) return serial;
  const type = args[1] === undefined || args[1] === null ? 1 : toNumber(args[1]);
  if (isError(type)) return type;
  const t = Math.trunc(type);
  if (t === 21) return isoWeek(serial);
  const start = WEEK_STARTS[t];
  if (start === undefined) return ERR.NUM;
  const jan1 = serialFromYmd(ymdFromSerial(serial).year, 1, 1);
  const offset = (weekday(jan1) - start + 7) % 7;
  return Math.floor((serial - jan1 + offset) / 7) + 1;
}

const MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split(" ");
const monthOf = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
const DAY_MONTH_YEAR = /^(\d{1,2})[-\s/]([a-z]{3,9})\.?(?:[-\s/,]+(\d{2,4}))?$/i;
const MONTH_DAY_YEAR = /^([a-z]{3,9})\.?[-\s/]+(\d{1,2})(?:(?:,\s*|[-\s/]+)(\d{2,4}))?$/i;
const NUMERIC = /^(\d{1,4})[/-](\d{1,2})(?:[/-](\d{1,4}))?$/;

const fullYear = (y: number): number => (y < 30 ? 2000 + y : y < 100 ? 1900 + y : y);

function ymdSerial(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 9999 || day > daysInMonth(year, month)) return null;
  return serialFromYmd(year, month, day);
}

/** The date part of an en-US date text as a serial (the current year when it has none), or null. */
function dateText(text: string, thisYear: number): number | null {
  const t = text.trim();
  let m = DAY_MONTH_YEAR.exec(t);
  if (m && monthOf(m[2] as string) > 0) return ymdSerial(m[3] ? fullYear(Number(m[3])) : thisYear, monthOf(m[2] as string), Number(m[1]));
  m = MONTH_DAY_YEAR.exec(t);
  if (m && monthOf(m[1] as string) > 0) return ymdSerial(m[3] ? fullYear(Number(m[3])) : thisYear, monthOf(m[1] as string), Number(m[2]));
  m = NUMERIC.exec(t);
  if (m) {
    const [x, y, z] = [Number(m[1]), Number(m[2]), m[3] === undefined ? undefined : Number(m[3])];
    if ((m[1] as string).length === 4) return z === undefined ? null : ymdSerial(x, y, z);
    return ymdSerial(z === undefined ? thisYear : fullYear(z), x, y);
  }
  return null;
}

/** A date-and-time text split into its date (a serial, or null when it has none) and its time of day. */
function readDateTime(text: string, ctx: EvalContext): { date: number | null; time: number } | null {
  const whole = textToNumber(text);
  if (whole !== null && /[-/:]|[ap]m$/i.test(text.trim()))
    return { date: whole >= 1 ? Math.floor(whole) : null, time: whole - Math.floor(whole) };
  const thisYear = ymdFromSerial(Math.floor(ctx.now)).year;
  const clock = /\s+(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[ap]m)?)$/i.exec(text.trim());
  const datePart = clock ? text.trim().slice(0, clock.index) : text;
  const date = dateText(datePart, thisYear);
  if (date === null) return null;
  const time = clock ? textToNumber(clock[1] as string) : 0;
  return time === null ? null : { date, time: time - Math.floor(time) };
}

/** A date text as DATEVALUE reads it (its serial, the time dropped), or null. */
export function dateSerialOfText(text: string, ctx: EvalContext): number | null {
  return readDateTime(text, ctx)?.date ?? null;
}

function datevalue(args: Scalar[], ctx: EvalContext): Scalar {
  const v = args[0] ?? null;
  if (isError(v)) return v;
  if (typeof v !== "string") return ERR.VALUE;
  const read = readDateTime(v, ctx);
  return read === null || read.date === null ? ERR.VALUE : read.date;
}

function timevalue(args: Scalar[], ctx: EvalContext): Scalar {
  const v = args[0] ?? null;
  if (isError(v)) return v;
  if (typeof v !== "string") return ERR.VALUE;
  const read = readDateTime(v, ctx);
  return read === null ? ERR.VALUE : read.time;
}

export const CALENDAR: FnTable = {
  DAYS360: { min: 2, max: 3, scalar: days360 },
  YEARFRAC: { min: 2, max: 3, scalar: yearfrac },
  WEEKNUM: { min: 1, max: 2, scalar: weeknum },
  ISOWEEKNUM: {
    min: 1,
    max: 1,
    scalar: (args) => {
      const s = serialOf(args[0]);
      return isError(s) ? s : isoWeek(s);
    },
  },
  DATEVALUE: { min: 1, max: 1, scalar: datevalue },
  TIMEVALUE: { min: 1, max: 1, scalar: timevalue },
};
