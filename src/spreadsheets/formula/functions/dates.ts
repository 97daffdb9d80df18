// Date functions over 1900-system serials (dates.ts): DATE, YEAR … DATEDIF, NETWORKDAYS, TODAY, NOW.
import { daysInMonth, MAX_DATE_SERIAL, serialFromYmd, weekday, ymdFromSerial, timeOfSerial } from "../../cells/dates.ts";
import type { EvalContext } from "../context.ts";
import { toNumber, toText } from "../coerce.ts";
import { ERR, isError, type FormulaError, type Scalar, type Value } from "../values.ts";
import { eachNumber, numberArg } from "./args.ts";
import type { FnTable } from "./spec.ts";

const DATE_FORMAT = "yyyy-mm-dd";

/** A serial argument: converted, truncated, within 0..9999-12-31, else #NUM!/#VALUE!. */
function serialOf(v: Scalar | undefined): number | FormulaError {
  const n = toNumber(v ?? null);
  if (isError(n)) return n;
  return n < 0 || n >= MAX_DATE_SERIAL + 1 ? ERR.NUM : n;
}

function dates(count: number, f: (...xs: number[]) => Scalar) {
  return (args: Scalar[]): Scalar => {
    const xs: number[] = [];
    for (let i = 0; i < count; i++) {
      const n = i === 0 ? serialOf(args[i]) : toNumber(args[i] ?? null);
      if (isError(n)) return n;
      xs.push(n);
    }
    return f(...xs);
  };
}

const inRange = (serial: number): Scalar => (serial < 0 || serial > MAX_DATE_SERIAL ? ERR.NUM : serial);

/** DATE's and TIME's arguments as whole numbers (truncated toward zero), or the first error among them. */
function truncated(args: Scalar[]): number[] | FormulaError {
  const xs: number[] = [];
  for (const a of args) {
    const n = toNumber(a);
    if (isError(n)) return n;
    xs.push(Math.trunc(n));
  }
  return xs;
}

function date(args: Scalar[]): Scalar {
  const xs = truncated(args);
  if (isError(xs)) return xs;
  let [year] = xs as [number];
  if (year < 0 || year >= 10000) return ERR.NUM;
  if (year < 1900) year += 1900;
  return inRange(serialFromYmd(year, xs[1] as number, xs[2] as number));
}

function weekdayFn(serial: number, type: number): Scalar {
  const d = weekday(serial); // 1 = Sunday
  const t = Math.trunc(type);
  if (t === 1 || t === 17) return d;
  if (t === 2 || t === 11) return ((d + 5) % 7) + 1;
  if (t === 3) return (d + 5) % 7;
  if (t >= 12 && t <= 16) return ((d - (t - 9) + 7) % 7) + 1; // 12: Tuesday is 1 … 16: Saturday is 1
  return ERR.NUM;
}

function addMonths(serial: number, months: number, end: boolean): Scalar {
  const { year, month, day } = ymdFromSerial(Math.trunc(serial));
  const total = year * 12 + (month - 1) + Math.trunc(months);
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  if (y < 1900 || y > 9999) return ERR.NUM;
  const last = daysInMonth(y, m);
  // Serial 0 is "0 January 1900": a month on is "0 February", 31 January (EDATE(0,1) is 31, as in Excel).
  return inRange(serialFromYmd(y, m, end ? last : Math.min(day, last)));
}

function datedif(start: number, end: number, unit: string): Scalar {
  const s = Math.trunc(start);
  const e = Math.trunc(end);
  if (s > e) return ERR.NUM;
  const a = ymdFromSerial(s);
  const b = ymdFromSerial(e);
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  if (b.day < a.day) months--;
  switch (unit.toUpperCase()) {
    case "D":
      return e - s;
    case "M":
      return months;
    case "Y":
      return Math.floor(months / 12);
    case "YM":
      return months % 12;
    case "MD": {
      if (b.day >= a.day) return b.day - a.day;
      const prevMonth = b.month === 1 ? 12 : b.month - 1;
      const prevYear = b.month === 1 ? b.year - 1 : b.year;
      return daysInMonth(prevYear, prevMonth) - a.day + b.day;
    }
    case "YD": {
      const years = Math.floor(months / 12);
      let anniversary = serialFromYmd(a.year + years, a.month, Math.min(a.day, daysInMonth(a.year + years, a.month)));
      if (anniversary > e) anniversary = serialFromYmd(a.year + years - 1, a.month, a.day);
      return e - anniversary;
    }
    default:
      return ERR.NUM;
  }
}

function networkdays(args: Value[], ctx: EvalContext): Value {
  const start = serialOf(toScalar(args[0], ctx));
  const end = serialOf(toScalar(args[1], ctx));
  if (isError(start)) return start;
  if (isError(end)) return end;
  const holidays = new Set<number>();
  if (args[2] !== undefined && args[2] !== null) {
    const error = eachNumber([args[2]], ctx, (n) => holidays.add(Math.trunc(n)));
    if (error) return error;
  }
  const [from, to, sign] = start <= end ? [Math.trunc(start), Math.trunc(end), 1] : [Math.trunc(end), Math.trunc(start), -1];
  ctx.step((to - from) / 64);
  let count = 0;
  for (let d = from; d <= to; d++) {
    const w = weekday(d);
    if (w !== 1 && w !== 7 && !holidays.has(d)) count++;
  }
  return sign * count;
}

const toScalar = (v: Value | undefined, ctx: EvalContext): Scalar => numberArg(v, ctx);

function time(args: Scalar[]): Scalar {
  const xs = truncated(args);
  if (isError(xs)) return xs;
  const seconds = (xs[0] as number) * 3600 + (xs[1] as number) * 60 + (xs[2] as number);
  if (seconds < 0 || xs[0]! > 32767) return ERR.NUM;
  return (seconds % 86400) / 86400;
}

function days(args: Scalar[]): Scalar {
  const end = serialOf(args[0]);
  const start = serialOf(args[1]);
  return isError(end) ? end : isError(start) ? start : Math.trunc(end) - Math.trunc(start);
}

export const DATES: FnTable = {
  DATE: { min: 3, max: 3, scalar: date, format: DATE_FORMAT },
  TIME: { min: 3, max: 3, scalar: time, format: "hh:mm:ss" },
  TODAY: { min: 0, max: 0, scalar: (_args, ctx) => Math.floor(ctx.now), volatile: true, format: DATE_FORMAT },
  NOW: { min: 0, max: 0, scalar: (_args, ctx) => ctx.now, volatile: true, format: "yyyy-mm-dd hh:mm:ss" },
  YEAR: { min: 1, max: 1, scalar: dates(1, (s) => ymdFromSerial(s).year) },
  MONTH: { min: 1, max: 1, scalar: dates(1, (s) => ymdFromSerial(s).month) },
  DAY: { min: 1, max: 1, scalar: dates(1, (s) => ymdFromSerial(s).day) },
  HOUR: { min: 1, max: 1, scalar: dates(1, (s) => timeOfSerial(s).hours) },
  MINUTE: { min: 1, max: 1, scalar: dates(1, (s) => timeOfSerial(s).minutes) },
  SECOND: { min: 1, max: 1, scalar: dates(1, (s) => timeOfSerial(s).seconds) },
  WEEKDAY: { min: 1, max: 2, scalar: (args) => dates(2, weekdayFn)([args[0] ?? null, args[1] ?? 1]) },
  EDATE: { min: 2, max: 2, scalar: dates(2, (s, m) => addMonths(s, m, false)), format: DATE_FORMAT },
  EOMONTH: { min: 2, max: 2, scalar: dates(2, (s, m) => addMonths(s, m, true)), format: DATE_FORMAT },
  DAYS: { min: 2, max: 2, scalar: days },
  DATEDIF: {
    min: 3,
    max: 3,
    scalar: (args) => {
      const unit = toText(args[2] ?? null);
      if (isError(unit)) return unit;
      const end = serialOf(args[1]);
      return isError(end) ? end : dates(1, (s) => datedif(s, end, unit))([args[0] ?? null]);
    },
  },
  NETWORKDAYS: { min: 2, max: 3, call: networkdays },
};
