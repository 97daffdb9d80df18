// An ad-hoc formula computed against the workbook without writing anything.
import type { Book } from "./book.ts";
import { enterJob, type Meter } from "../formula/budget.ts";
import { dateKindOf } from "../cells/formats.ts";
import { cellResult } from "../formula/result.ts";
import { OWN_SHEET, resolveRef } from "../formula/program.ts";
import { Calculator } from "./recalc.ts";
import { renderValue, type JsonCellValue } from "./values.ts";

export function evaluateFormula(book: Book, formula: string, sheetName: string | null, meter: Meter): JsonCellValue {
  const sheet = book.sheet(sheetName);
  const { program } = book.compiler.compile(formula.trim(), { sid: sheet.sid, row: 0, col: 0 }, { strict: true });
  const calc = new Calculator(book, meter);
  calc.sid = sheet.sid;
  const leave = enterJob(meter);
  let result;
  try {
    result = cellResult(program.run(calc), calc);
  } finally {
    leave();
  }
  // An array result reads as its first value (a write would spill it).
  const value = Array.isArray(result) ? (result[0]?.[0] ?? null) : result;
  let format = program.format ?? undefined;
  if (!format && program.formatFrom) {
    const box = resolveRef(program.formatFrom, 0, 0);
    const source = book.sheetById(program.formatFrom.sid === OWN_SHEET ? sheet.sid : program.formatFrom.sid);
    const code = box && source ? book.formatAt(source, box.top, box.left) : undefined;
    format = code && dateKindOf(code) ? code : undefined;
  }
  return renderValue(value, format);
}
