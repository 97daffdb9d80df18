// Formula text as .xlsx stores it: functions newer than Excel 2007 carry the "_xlfn." prefix
// (Excel, LibreOffice and other readers show #NAME? without it). The engine reads both forms.
import { tokenize } from "@borgar/fx";
import { canonicalName } from "./compile.ts";
import { FUTURE_FUNCTIONS } from "./functions/index.ts";

/** "XLOOKUP(A1,B:B,C:C)" → "_xlfn.XLOOKUP(A1,B:B,C:C)"; formulas without such functions come back unchanged. */
export function toXlsxFormula(formula: string): string {
  const text = formula.startsWith("=") ? formula.slice(1) : formula;
  if (![...FUTURE_FUNCTIONS].some((name) => text.toUpperCase().includes(name))) return text;
  return tokenize(`=${text}`, { mergeRefs: true, allowTernary: false })
    .filter((t) => t.type !== "fx_prefix")
    .map((t) =>
      t.type === "func" && FUTURE_FUNCTIONS.has(canonicalName(t.value)) && !/^_xlfn\./i.test(t.value) ? `_xlfn.${t.value}` : t.value,
    )
    .join("");
}
