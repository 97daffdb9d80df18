// Dates as the cell model keeps them: 1900-system serials (1900-02-29 counted, as Excel does).

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);

/** Days between the 1904 system's day 0 (1904-01-01) and the 1900 system's. */
export const DAYS_1904 = 1462;

/** An ISO 8601 date or date-time (a cell of type d) as a 1900-system serial; undefined when not one. */
export function isoToSerial(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0"] = match;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  if (Number.isNaN(day)) return undefined;
  let serial = (day - EPOCH_1900) / DAY_MS;
  // Excel counts a 1900-02-29 that never was: serials before 1900-03-01 are one less.
  if (serial < 61) serial -= 1;
  return serial + (Number(h) * 3600 + Number(mi) * 60 + Number(s)) / 86_400;
}
