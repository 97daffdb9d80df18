// TEXT's number-format grammar where Excel and the numfmt library part ways (measured on the Excel
// corpus's format tests): an empty format gives "", TRUE/FALSE are formatted as text (the "@"
// section), a lower-case exponent ("0.0e+0") stays lower-case, "a/p" gives "a" or "p", and a
// negative elapsed time ("[h]:mm") is the elapsed time of its magnitude with a minus sign.
import { format as numfmt } from "numfmt";
import { ERR, type Scalar } from "../values.ts";
import { fractionText } from "./fraction-format.ts";

const OPTIONS = { locale: "en-US", leap1900: true, dateSpanLarge: false, throws: true } as const;

/** The format's parts outside quotes, escapes and brackets, rewritten by `fn` (quoted text left as is). */
function outsideLiterals(fmt: string, fn: (plain: string) => string): string {
  let out = "";
  let plain = "";
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i] as string;
    const end = ch === '"' ? fmt.indexOf('"', i + 1) : ch === "[" ? fmt.indexOf("]", i + 1) : ch === "\\" ? i + 1 : -2;
    if (end === -2) {
      plain += ch;
      continue;
    }
    const stop = end < 0 ? fmt.length - 1 : end;
    out += fn(plain) + fmt.slice(i, stop + 1);
    plain = "";
    i = stop;
  }
  return out + fn(plain);
}

const ELAPSED = /\[(h+|m+|s+)\]/i;

interface Plan {
  /** The format as numfmt takes it. */
  rewritten: string;
  lowerExponent: boolean;
  lowerAmPm: boolean;
  /** What the number is multiplied by first (a comma before the point, more than one "%"). */
  scale: number;
  elapsed: boolean;
}

/** Plans by format: a column of TEXT(x, "00000") rewrites its format once, not once a cell. */
const plans = new Map<string, Plan>();
const MAX_PLANS = 512;

function planOf(fmt: string): Plan {
  const known = plans.get(fmt);
  if (known) return known;
  let lowerExponent = false;
  let lowerAmPm = false;
  let scale = 1;
  let percents = 0;
  const scientific = /[eE][+-]/.test(outsideLiterals(fmt, (plain) => plain).replace(/"[^"]*"|\[[^\]]*\]|\\./g, ""));
  const elapsed = ELAPSED.exec(fmt)?.[1]?.[0]?.toLowerCase();
  const rewritten = outsideLiterals(fmt, (plain) => {
    let p = plain.replace(/e(?=[+-])/g, () => ((lowerExponent = true), "E")).replace(/a\/p/g, () => ((lowerAmPm = true), "AM/PM"));
    // In a scientific format "%" is text and a comma scales nothing; after [h] a later "h" is elapsed too.
    if (scientific && !fmt.includes(";")) p = p.replace(/%/g, '"%"').replace(/,(?![#0?])/g, "");
    if (elapsed) p = p.replace(new RegExp(`${elapsed}+`, "gi"), (run) => `[${run}]`);
    // A comma just before the decimal point scales by 1000 (numfmt takes only trailing ones); each "%" by 100.
    if (!scientific && !fmt.includes(";") && !/[dmyhs]/i.test(p)) {
      p = p.replace(/,+(?=\.)/g, (run) => ((scale /= 1000 ** run.length), ""));
      percents += (p.match(/%/g) ?? []).length;
    }
    return p;
  });
  if (percents > 1) scale *= 100 ** (percents - 1);
  const plan = { rewritten, lowerExponent, lowerAmPm, scale, elapsed: !fmt.includes(";") && ELAPSED.test(fmt) };
  if (plans.size >= MAX_PLANS) plans.clear();
  plans.set(fmt, plan);
  return plan;
}

/** Formats a number or text as TEXT does, or #VALUE! for a format Excel would refuse. */
export function excelText(value: Scalar, fmt: string): Scalar {
  if (fmt === "") return "";
  if (typeof value === "number") {
    const fraction = fractionText(value, fmt);
    if (fraction !== null) return fraction;
  }
  const subject = typeof value === "boolean" ? (value ? "TRUE" : "FALSE") : value;
  const { rewritten, lowerExponent, lowerAmPm, scale, elapsed } = planOf(fmt);
  const negativeElapsed = typeof subject === "number" && subject < 0 && elapsed;
  let out: string;
  try {
    const n = typeof subject === "number" ? subject * scale : subject;
    out = numfmt(rewritten, negativeElapsed ? -(n as number) : (n ?? 0), OPTIONS);
  } catch {
    return ERR.VALUE;
  }
  if (lowerExponent) out = out.replace(/E(?=[+-]?[\d ]*[^E]*$)/, "e");
  if (lowerAmPm) out = out.replace(/(AM|PM)(?!.*(AM|PM))/, (m) => (m === "AM" ? "a" : "p"));
  return negativeElapsed ? `-${out}` : out;
}
