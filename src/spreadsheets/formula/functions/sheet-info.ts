// Information about cells and sheets rather than values: ISFORMULA, FORMULATEXT, SHEET, SHEETS,
// and CELL for what the workbook model holds (address, row, col, contents, type, prefix, format
// "G", protect, parentheses, color, filename as ""); it holds no column widths, so CELL("width")
// is #N/A rather than a guess.
import { cellAddress } from "../../cells/cells.ts";
import type { EvalContext } from "../context.ts";
import { toText } from "../coerce.ts";
import { ERR, isError, isRange, type RangeValue, type Scalar, type Value } from "../values.ts";
import { scalarArg } from "./args.ts";
import type { FnTable } from "./spec.ts";

function isformula(args: Value[], ctx: EvalContext): Value {
  const ref = args[0];
  if (!isRange(ref)) return isError(ref) ? ref : ERR.VALUE;
  return (ctx.formulaText?.(ref.sid, ref.top, ref.left) ?? null) !== null;
}

function formulatext(args: Value[], ctx: EvalContext): Value {
  const ref = args[0];
  if (!isRange(ref)) return isError(ref) ? ref : ERR.VALUE;
  const text = ctx.formulaText?.(ref.sid, ref.top, ref.left) ?? null;
  return text === null ? ERR.NA : `=${text}`;
}

function sheet(args: Value[], ctx: EvalContext): Value {
  const v = args[0];
  if (v === undefined || v === null) return ctx.sheetPosition?.(ctx.sid) ?? 1;
  if (isRange(v)) return ctx.sheetPosition?.(v.sid) ?? 1;
  const name = toText(scalarArg(v, ctx));
  if (isError(name)) return name;
  const sid = ctx.sheetId(name);
  return sid < 0 ? ERR.NA : (ctx.sheetPosition?.(sid) ?? 1);
}

function sheets(args: Value[], ctx: EvalContext): Value {
  const v = args[0];
  if (v === undefined || v === null) return ctx.sheetCount?.() ?? 1;
  if (!isRange(v)) return isError(v) ? v : ERR.VALUE;
  return new Set((v.areas ?? [v]).map((a) => a.sid)).size;
}

function kind(v: Scalar): string {
  return v === null ? "b" : typeof v === "string" ? "l" : "v";
}

function cellInfo(type: string, ref: RangeValue, ctx: EvalContext): Scalar {
  const value = (): Scalar => ctx.value(ref.sid, ref.top, ref.left);
  switch (type) {
    case "address":
      return cellAddress(ref.top, ref.left).replace(/^([A-Z]+)(\d+)$/, "$$$1$$$2");
    case "row":
      return ref.top + 1;
    case "col":
      return ref.left + 1;
    case "contents":
      return value();
    case "type":
      return kind(value());
    case "prefix":
      return typeof value() === "string" ? "'" : "";
    case "format":
      return "G";
    case "protect":
      return 1;
    case "parentheses":
    case "color":
      return 0;
    case "filename":
      return "";
    case "width":
      return ERR.NA;
    default:
      return ERR.VALUE;
  }
}

function cell(args: Value[], ctx: EvalContext): Value {
  const type = toText(scalarArg(args[0], ctx));
  if (isError(type)) return type;
  const ref = args[1] ?? null;
  if (ref !== null && !isRange(ref)) return isError(ref) ? ref : ERR.VALUE;
  const at = ref ?? { sid: ctx.sid, top: ctx.row, left: ctx.col };
  return cellInfo(type.toLowerCase(), at as RangeValue, ctx);
}

export const SHEET_INFO: FnTable = {
  ISFORMULA: { min: 1, max: 1, call: isformula },
  FORMULATEXT: { min: 1, max: 1, call: formulatext },
  SHEET: { min: 0, max: 1, call: sheet, areas: true },
  SHEETS: { min: 0, max: 1, call: sheets, areas: true },
  CELL: { min: 1, max: 2, call: cell, volatile: true },
};
