// Imported formulas the gateway never stores (a reference to another workbook, DDE, WEBSERVICE…: a
// write of one is refused): the import keeps the value the file saved for the cell instead, and
// counts it for the report. Only formulas that may be refused are compiled here first.
import type { Book } from "../workbook/book.ts";
import { isSheetsError } from "../cells/errors.ts";
import type { FormulaAt } from "../formula/compile.ts";
import { FIRST_CELLS } from "./types.ts";
import { First, type KeptValues } from "./report.ts";

const MAY_BE_REFUSED = /[[|]|WEBSERVICE|RTD|CALL|REGISTER|FILTERXML|DDE|EXEC|HYPERLINK/i;

/** Why an imported formula cannot be stored: it links another workbook, or it is refused; null when it can be. */
export function refusedOnImport(book: Book, formula: string, at: FormulaAt): "external" | "refused" | null {
  if (!MAY_BE_REFUSED.test(formula)) return null;
  try {
    book.compiler.compile(formula, at, { strict: false });
    return null;
  } catch (error) {
    if (!isSheetsError(error) || error.code !== "REFUSED_FORMULA") throw error;
    return /another workbook/.test(error.message) ? "external" : "refused";
  }
}

const keptValues = (): KeptValues => ({ count: 0, first: new First<string>(FIRST_CELLS) });

/** Counts a cell kept as its value (cells come in reading order: the first ones are the first met). */
export function countKept(book: Book, why: "external" | "refused", where: () => string): void {
  const kept = (book.report.kept ??= { external: keptValues(), refused: keptValues() });
  const entry = kept[why];
  entry.first.add(entry.count++, where);
}
