// Date serials of the 1900 date system, as Excel keeps them: day 1 is 1900-01-01, and day 60 is
// 1900-02-29, a day that never was (Lotus 1-2-3's bug, kept by Excel for compatibility), so every
// serial from 61 (1900-03-01) on counts real days from 1899-12-30. Times are the fraction of a day.
// Everything here is in UTC: a serial is a calendar reading, not an instant.

const DAY_MS = 86_400_000;
/** The real day that serial 0 stands on for serials before the phantom 1900-02-29. */
const EPOCH_EARLY = Date.UTC(1899, 11, 31);
/** The last serial Excel shows as a date: 9999-12-31. */
export const MAX_DATE_SERIAL = 2_958_465;
/** Serial of a 1904-system workbook + this = the 1900-system serial of the same day. */
export const OFFSET_1904 = 1462;

export interface Ymd {
  year: number;
  month: number;
  day: number;
}

function utcDays(year: number, monthIndex: number, day: number): number {
  // Days from 1970-01-01 in the proleptic Gregorian calendar, as Date counts them (Hinnant's
  // days_from_civil), with the month and day overflowing as setUTCFullYear lets them; years 0..99
  // are years 0..99 (Date.UTC would read them as 1900..1999). Arithmetic, not a Date per call: an
  // import computes this for every date cell.
  const [y, m, d] = [Math.trunc(year), Math.trunc(monthIndex), Math.trunc(day)];
  if (!Number.isFinite(y + m + d)) return NaN;
  const carry = Math.floor(m / 12);
  const month = m - carry * 12; // 0 (January) … 11
  const shifted = month < 2 ? y + carry - 1 : y + carry; // the year counted from March
  const era = Math.floor(shifted / 400);
  const yearOfEra = shifted - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 10) % 12) + 2) / 5);
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468 + d - 1;
}

/** Serial of the first day of a month (month may overflow either way, as DATE allows). */
function firstOfMonth(year: number, month: number): number {
  const days = utcDays(year, month - 1, 1) - EPOCH_EARLY / DAY_MS;
  return days >= 60 ? days + 1 : days;
}

/**
 * The serial DATE(year, month, day) gives: month and day overflow into the next or previous
 * month or year; day 0 is the last day of the month before. The phantom 1900-02-29 is 60.
 * Callers check the year range (DATE maps 0..1899 to 1900..3799 and refuses the rest).
 */
export function serialFromYmd(year: number, month: number, day: number): number {
  return firstOfMonth(year, month) + day - 1;
}

/** The calendar day of a serial's integer part (serial 0 is "1900-01-00", serial 60 is 1900-02-29). */
export function ymdFromSerial(serial: number): Ymd {
  const whole = Math.floor(serial);
  if (whole === 60) return { year: 1900, month: 2, day: 29 };
  if (whole === 0) return { year: 1900, month: 1, day: 0 };
  const date = new Date(EPOCH_EARLY + (whole < 60 ? whole : whole - 1) * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Days in a month of the 1900 system (February 1900 has 29). */
export function daysInMonth(year: number, month: number): number {
  if (year === 1900 && month === 2) return 29;
  return utcDays(year, month, 1) - utcDays(year, month - 1, 1);
}

/** WEEKDAY's default numbering: 1 = Sunday … 7 = Saturday (serials before 61 as Excel has them). */
export function weekday(serial: number): number {
  return ((((Math.floor(serial) - 1) % 7) + 7) % 7) + 1;
}

/** Hours, minutes and seconds of a serial's fraction, rounded to the second; `carry` when it rounds up to midnight. */
export function timeOfSerial(serial: number): { hours: number; minutes: number; seconds: number; carry: boolean } {
  let seconds = Math.round((serial - Math.floor(serial)) * 86_400);
  const carry = seconds >= 86_400;
  if (carry) seconds -= 86_400;
  return { hours: Math.floor(seconds / 3600), minutes: Math.floor(seconds / 60) % 60, seconds: seconds % 60, carry };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export type DateKind = "date" | "datetime" | "time";

/**
 * ISO 8601 text of a serial: "2026-01-31", "2026-01-31T09:30:00" or "09:30:00". Null when the
 * serial is not a date Excel would show (negative, or past 9999-12-31): the caller gives the number.
 */
export function isoFromSerial(serial: number, kind: DateKind): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= MAX_DATE_SERIAL + 1) return null;
  const time = timeOfSerial(serial);
  const clock = `${pad(time.hours)}:${pad(time.minutes)}:${pad(time.seconds)}`;
  if (kind === "time") return clock;
  const ymd = ymdFromSerial(time.carry ? Math.floor(serial) + 1 : serial);
  // Serial 0 is "1900-01-00" in Excel; ISO has no day 0, so it reads as the day before 1900-01-01.
  const date = ymd.day === 0 ? "1899-12-31" : `${pad(ymd.year, 4)}-${pad(ymd.month)}-${pad(ymd.day)}`;
  return kind === "date" ? date : `${date}T${clock}`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?)?$/;
const ISO_TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?$/;

/** "2026-01-31" / "2026-01-31T09:30[:00]" (or with a space) → serial and kind; null when not such a day from 1900 to 9999. */
export function serialFromIso(text: string): { serial: number; kind: DateKind } | null {
  if (text.length === 10) return dayFromIso(text);
  const match = ISO.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const date = serialFromYmd(year, month, day);
  if (match[4] === undefined) return { serial: date, kind: "date" };
  const fraction = clockFraction(Number(match[4]), Number(match[5]), Number(match[6] ?? 0));
  return fraction === null ? null : { serial: date + fraction, kind: "datetime" };
}

/** Digits of text from `start` to `end` as a number; -1 when one is not a digit. */
function digitsAt(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/**
 * serialFromIso for a day alone ("2026-01-31", what a file's date column holds), read without
 * the regex, whose match array and captured strings cost more than the day itself.
 */
function dayFromIso(text: string): { serial: number; kind: DateKind } | null {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return null;
  const [year, month, day] = [digitsAt(text, 0, 4), digitsAt(text, 5, 7), digitsAt(text, 8, 10)];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { serial: serialFromYmd(year, month, day), kind: "date" };
}

/** "09:30" / "9:30:15" → the fraction of a day; null when not a time of day. */
export function fractionFromClock(text: string): number | null {
  const match = ISO_TIME.exec(text);
  return match ? clockFraction(Number(match[1]), Number(match[2]), Number(match[3] ?? 0)) : null;
}

function clockFraction(hours: number, minutes: number, seconds: number): number | null {
  if (hours > 23 || minutes > 59 || seconds >= 60) return null;
  return (hours * 3600 + minutes * 60 + seconds) / 86_400;
}

/** The 1900-system serial of a serial read from a 1904-system workbook (dates only: durations keep their value). */
export const serialFrom1904 = (serial: number): number => serial + OFFSET_1904;

/** The serial of an instant, read as a UTC calendar date and time (TODAY and NOW). */
export function serialFromInstant(ms: number): number {
  const days = ms / DAY_MS - EPOCH_EARLY / DAY_MS;
  return days >= 60 ? days + 1 : days;
}
