// What a cell shows (render=formatted, the owner's grid): its value through its number format, as
// Excel displays it in a column of the standard width. numfmt (already the engine's TEXT) applies
// the format codes; General is Excel's cell General: at most 11 characters, so 10 significant
// digits at most, and scientific notation ("1.23457E+11") where the decimal text would not fit.
import { format } from "numfmt";
import { isError, type Scalar } from "../formula/values.ts";

// en-US as the engine's TEXT; Excel's date bounds (1900–9999). A date out of them shows as Excel
// shows one that does not fit: hashes.
const OPTIONS = { locale: "en-US", leap1900: true, dateSpanLarge: false, dateErrorNumber: false, overflow: "########", throws: true };

/**
 * numfmt's General rounds 999999999999 to a mantissa of 10 ("10E+11"); Excel shows the power of
 * ten that is ("1E+12", "0.0001"), which numfmt's General gets right once it is given that number.
 */
const tenMantissa = /^(-?)10E([+-]\d+)$/;

/** A number in Excel's General format at the standard column width. */
export function generalText(n: number): string {
  if (n === 0) return "0";
  const text = format("General", n, OPTIONS);
  const carried = tenMantissa.exec(text);
  return carried ? format("General", Number(`${carried[1]}1E${Number(carried[2]) + 1}`), OPTIONS) : text;
}

const isGeneral = (code: string | undefined): boolean => !code || code.toLowerCase() === "general";

/** The text a cell shows: null for an empty cell; a format code that cannot be read leaves the value in General. */
export function displayText(value: Scalar, numFmt: string | undefined): string | null {
  if (value === null) return null;
  if (isError(value)) return value.error;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (!isGeneral(numFmt)) {
      try {
        return format(numFmt as string, value, OPTIONS);
      } catch {
        // An unreadable code: the number as General, as a file with one opens in Excel.
      }
    }
    return generalText(value);
  }
  // Text goes through the code's text section ("@", or a fourth section like `"Item: "@`), if any.
  if (isGeneral(numFmt)) return value;
  try {
    return format(numFmt as string, value, OPTIONS);
  } catch {
    return value;
  }
}
