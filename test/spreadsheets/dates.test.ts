import { describe, expect, it } from "vitest";
import { isoFromSerial, serialFrom1904, serialFromIso, serialFromYmd, weekday, ymdFromSerial } from "../../src/spreadsheets/cells/dates.ts";

describe("1900 date serials", () => {
  it("counts as Excel does, 1900-02-29 included", () => {
    expect(serialFromYmd(1900, 1, 1)).toBe(1);
    expect(serialFromYmd(1900, 2, 28)).toBe(59);
    expect(serialFromYmd(1900, 2, 29)).toBe(60);
    expect(serialFromYmd(1900, 3, 1)).toBe(61);
    expect(serialFromYmd(2026, 1, 31)).toBe(46053);
    expect(serialFromYmd(9999, 12, 31)).toBe(2_958_465);
    expect(ymdFromSerial(60)).toEqual({ year: 1900, month: 2, day: 29 });
    expect(ymdFromSerial(61)).toEqual({ year: 1900, month: 3, day: 1 });
    expect(ymdFromSerial(59)).toEqual({ year: 1900, month: 2, day: 28 });
    expect(ymdFromSerial(0)).toEqual({ year: 1900, month: 1, day: 0 });
    expect(ymdFromSerial(45322.75)).toEqual({ year: 2024, month: 1, day: 31 });
  });

  it("lets months and days overflow as DATE does", () => {
    expect(serialFromYmd(2024, 13, 1)).toBe(serialFromYmd(2025, 1, 1));
    expect(serialFromYmd(2024, 3, 0)).toBe(serialFromYmd(2024, 2, 29));
    expect(serialFromYmd(2024, 0, 1)).toBe(serialFromYmd(2023, 12, 1));
    expect(serialFromYmd(1900, 3, 0)).toBe(60);
  });

  it("counts days as the calendar Date keeps, for any year and overflowing month or day", () => {
    // The serial is computed by arithmetic (no Date per cell); Date's proleptic Gregorian
    // calendar, with setUTCFullYear's overflow, is the reference.
    const early = Date.UTC(1899, 11, 31) / 86_400_000;
    const byDate = (year: number, month: number, day: number) => {
      const date = new Date(0);
      date.setUTCFullYear(year, month - 1, 1);
      const days = date.getTime() / 86_400_000 - early;
      return (days >= 60 ? days + 1 : days) + day - 1;
    };
    let checked = 0;
    for (let year = -3; year <= 10_003; year += year < 2101 ? 1 : 97)
      for (let month = -25; month <= 38; month += 3)
        for (const day of [-40, 0, 1, 29, 31, 70]) {
          expect(serialFromYmd(year, month, day), `${year}-${month}-${day}`).toBe(byDate(year, month, day));
          checked++;
        }
    expect(checked).toBeGreaterThan(100_000);
  });

  it("round-trips every day between 1900 and 2100", () => {
    const wrong: number[] = [];
    for (let s = 1; s < 73_051; s += 1) {
      const { year, month, day } = ymdFromSerial(s);
      if (serialFromYmd(year, month, day) !== s) wrong.push(s);
    }
    expect(wrong).toEqual([]);
  });

  it("writes and reads ISO 8601", () => {
    expect(isoFromSerial(46053, "date")).toBe("2026-01-31");
    expect(isoFromSerial(46053.395833333336, "datetime")).toBe("2026-01-31T09:30:00");
    expect(isoFromSerial(0.75, "time")).toBe("18:00:00");
    expect(isoFromSerial(46053.99999999, "datetime")).toBe("2026-02-01T00:00:00");
    expect(isoFromSerial(60, "date")).toBe("1900-02-29");
    expect(isoFromSerial(-1, "date")).toBeNull();
    expect(isoFromSerial(3_000_000, "date")).toBeNull();
    expect(serialFromIso("2026-01-31")).toEqual({ serial: 46053, kind: "date" });
    expect(serialFromIso("2026-01-31T09:30")?.serial).toBeCloseTo(46053.395833333, 8);
    expect(serialFromIso("2026-01-31 09:30:15")?.kind).toBe("datetime");
    for (const bad of ["2026-02-30", "2026-13-01", "1899-12-31", "2026-1-31", "2026-01-31T25:00"])
      expect(serialFromIso(bad), bad).toBeNull();
  });

  it("numbers weekdays as WEEKDAY does and converts 1904 serials", () => {
    expect(weekday(45322)).toBe(4); // 2024-01-31, a Wednesday
    expect(weekday(1)).toBe(1); // Excel's 1900-01-01 is a Sunday
    expect(serialFrom1904(0)).toBe(1462); // 1904-01-01
    expect(ymdFromSerial(serialFrom1904(43830))).toEqual({ year: 2024, month: 1, day: 1 });
  });
});
