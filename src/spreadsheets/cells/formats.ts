// Number formats: a workbook-wide table (cells keep a small index), and which codes are dates,
// date-times or times — what decides that a number is read back as an ISO 8601 string.
import { getFormatDateInfo, isDateFormat } from "numfmt";
import type { DateKind } from "./dates.ts";
import { SheetsError } from "./errors.ts";

export const DATE_FORMAT = "yyyy-mm-dd";
export const DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss";
export const TIME_FORMAT = "hh:mm:ss";

const kinds = new Map<string, DateKind | null>();

/** Whether a format code shows a date, a date and time, a time of day, or none of these (null). */
export function dateKindOf(code: string): DateKind | null {
  let kind = kinds.get(code);
  if (kind !== undefined) return kind;
  kind = null;
  try {
    if (isDateFormat(code)) {
      const info = getFormatDateInfo(code);
      const day = info.year || info.month || info.day;
      const clock = info.hours || info.minutes || info.seconds;
      // Durations ([h]:mm) are not times of day: they stay numbers.
      kind = /\[(h+|m+|s+)\]/i.test(code) && !day ? null : day && clock ? "datetime" : day ? "date" : "time";
    }
  } catch {
    kind = null;
  }
  if (kinds.size > 10_000) kinds.clear();
  kinds.set(code, kind);
  return kind;
}

/** The format codes a workbook uses; cells hold their index (0 is General). */
export class FormatTable {
  private readonly codes: string[] = [""];
  private readonly index = new Map<string, number>([["", 0]]);

  id(code: string | undefined | null): number {
    if (!code || code.toLowerCase() === "general") return 0;
    let id = this.index.get(code);
    if (id === undefined) {
      id = this.codes.length;
      if (id > 0xffff)
        throw new SheetsError("LIMIT", "A workbook holds at most 65,535 distinct number formats.", { limit: "MAX_NUMBER_FORMATS" });
      this.codes.push(code);
      this.index.set(code, id);
    }
    return id;
  }

  code(id: number): string {
    return this.codes[id] ?? "";
  }
}
