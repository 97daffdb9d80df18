// The parts of a workbook beside its cells — defined names and tables — as the store, the .xlsx
// reader and the writer carry them: by sheet name (sheet ids belong to one model). Loaded before
// any formula, since formulas compile against them.
import type { Book } from "./book.ts";
import { WORKBOOK_SCOPE } from "../formula/env.ts";
import { listNames, nameProblem, type DefinedName } from "./names.ts";
import { tableProblem, type TableData, type TableDef } from "./tables.ts";

/** A table with the name of its sheet. */
export type StoredTable = TableData & { sheet: string };

export interface BookParts {
  names?: DefinedName[] | undefined;
  tables?: StoredTable[] | undefined;
}

/** The tables of the workbook, by sheet name. */
export function bookTables(book: Book): StoredTable[] {
  return book.tables.all().flatMap((t) => {
    const sheet = book.sheetById(t.sid);
    if (!sheet) return [];
    const { sid: _sid, ...data } = t;
    return [{ ...structuredClone(data), sheet: sheet.name }];
  });
}

export function bookParts(book: Book): BookParts {
  return { names: listNames(book), tables: bookTables(book) };
}

/**
 * Puts names and tables into a book that has its sheets but no formulas yet. A name or table that
 * cannot be kept (an unknown sheet, an invalid name, a name taken) is left out with a warning.
 */
export function loadBookParts(book: Book, parts: BookParts): void {
  for (const table of parts.tables ?? []) {
    const sid = book.sheets.find((s) => s.name.toLowerCase() === table.sheet.toLowerCase())?.sid;
    const { sheet, ...data } = table;
    const def: TableDef = { ...structuredClone(data), sid: sid ?? -1 };
    const problem = sid === undefined ? `its sheet "${sheet}" is missing` : tableProblem(book.tables, def);
    if (problem) book.warnings.add(`Table "${table.name}" is left out: ${problem}.`);
    else book.tables.add(def);
  }
  for (const input of parts.names ?? []) {
    const sid = input.sheet === null ? WORKBOOK_SCOPE : book.sheets.find((s) => s.name.toLowerCase() === input.sheet?.toLowerCase())?.sid;
    const problem =
      sid === undefined
        ? `its sheet "${input.sheet}" is missing`
        : (nameProblem(input.name) ?? (book.names.byKey.has(`${sid}\u0000${input.name.toLowerCase()}`) ? "the name is given twice" : null));
    if (problem || sid === undefined) {
      book.warnings.add(`The defined name "${input.name}" is left out: ${problem}.`);
      continue;
    }
    book.names.set({
      name: input.name,
      sid,
      formula: input.formula.replace(/^=/, ""),
      ...(input.hidden ? { hidden: true } : {}),
      ...(input.comment ? { comment: input.comment } : {}),
    });
  }
}
