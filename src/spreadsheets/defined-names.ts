// The model's defined names, as the spreadsheets service runs them (the sheets.names,
// sheets.defineName and sheets.deleteName rows; docs/spreadsheets-names.md): listed, set and
// deleted, kept with each version in the manifest's book page (stored-manifest.ts), as branch
// semantics keeps them. This is the thinnest model that API needs, in a file of its own: branch
// semantics brings the engine's names (src/spreadsheets/names.ts: Book.names, defineName,
// deleteName, listNames, names read from and written to .xlsx, formulas computing them and
// recomputed when a name changes). At that merge this file's bodies become calls to names.ts and
// the table below goes; until then a formula that uses a name still reads #NAME?, and a change
// says so in its warnings.
import type { Book } from "./book.ts";
import { Meter, type Budget } from "./budget.ts";
import { SheetsError } from "./errors.ts";
import { parseRefToken } from "./formula/refs.ts";
import type { Workbook, WriteResult } from "./model.ts";
import { recalculate } from "./recalc.ts";

/** A defined name as callers see it (and as .xlsx keeps it). */
export interface DefinedName {
  name: string;
  /** The sheet the name is local to, or null for the whole workbook. */
  sheet: string | null;
  /** What it refers to, without "=": "Data!$B$2:$B$20", "0.07", "SUM(Data!$B:$B)". */
  formula: string;
  hidden?: boolean;
  comment?: string;
}

/** A name as the model holds it: its scope by sheet id (0: the workbook), which survives a sheet's renaming. */
interface Held {
  name: string;
  sid: number;
  formula: string;
  hidden?: boolean;
  comment?: string;
}

const WORKBOOK = 0;
const tables = new WeakMap<Book, Map<string, Held>>();
const keyOf = (sid: number, name: string) => `${sid}\u0000${name.toLowerCase()}`;

function namesOf(book: Book): Map<string, Held> {
  let names = tables.get(book);
  if (!names) tables.set(book, (names = new Map()));
  return names;
}

/** Excel's rules: a letter, "_" or "\" first, then letters, digits, ".", "_", "\" or "?"; not a cell reference, R1C1 or a boolean; ≤ 255. */
const NAME = /^[\p{L}_\\][\p{L}\p{N}_.\\?]*$/u;
const R1C1 = /^(R|C|R\d*C\d*|R\[-?\d+\]C.*|R\d*C\[.*)$/i;

function nameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 255) return "a name has 1 to 255 characters";
  if (!NAME.test(name)) return `"${name}" is not a valid name (start with a letter, "_" or "\\"; then letters, digits, "." or "_")`;
  if (parseRefToken(name) !== null || R1C1.test(name) || /^(TRUE|FALSE)$/i.test(name)) return `"${name}" looks like a cell reference`;
  return null;
}

const scopeOf = (book: Book, sheet: string | null): number => (sheet === null ? WORKBOOK : book.sheet(sheet).sid);

/** The workbook's names, sorted by name (ignoring case) then scope (the workbook's first); names of a deleted sheet are gone. */
export function listDefinedNames(workbook: Workbook): DefinedName[] {
  const book = workbook.book;
  const names = namesOf(book);
  const out: DefinedName[] = [];
  for (const [key, held] of names) {
    const sheet = held.sid === WORKBOOK ? null : (book.sheetById(held.sid)?.name ?? undefined);
    if (sheet === undefined) {
      names.delete(key);
      continue;
    }
    out.push({
      name: held.name,
      sheet,
      formula: held.formula,
      ...(held.hidden ? { hidden: true } : {}),
      ...(held.comment ? { comment: held.comment } : {}),
    });
  }
  const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return out.sort(
    (a, b) => order(a.name.toLowerCase(), b.name.toLowerCase()) || order(a.sheet?.toLowerCase() ?? "", b.sheet?.toLowerCase() ?? ""),
  );
}

/** Puts stored names into a model loaded from tiles (its sheets are there); one whose sheet is gone is left out. */
export function loadDefinedNames(book: Book, names: readonly DefinedName[]): void {
  const table = namesOf(book);
  for (const { name, sheet, formula, hidden, comment } of names) {
    const sid = sheet === null ? WORKBOOK : book.sheets.find((s) => s.name.toLowerCase() === sheet.toLowerCase())?.sid;
    if (sid === undefined) continue;
    table.set(keyOf(sid, name), { name, sid, formula, ...(hidden ? { hidden } : {}), ...(comment ? { comment } : {}) });
  }
}

/** What a name change answers, as a write's result (model.ts finish). */
function settled(book: Book, budget: Budget | undefined, note?: string): WriteResult {
  const recalculatedCells = recalculate(book, new Meter(budget));
  const warnings = [...book.warnings, ...(note ? [note] : [])];
  book.warnings.clear();
  return { updatedRange: null, updatedCells: 0, recalculatedCells, warnings };
}

/** Defines or redefines a name (`sheet` null: the workbook's scope). BAD_INPUT for an invalid name, BAD_FORMULA for a definition that does not parse. */
export function defineName(workbook: Workbook, input: DefinedName, budget?: Budget): WriteResult {
  const book = workbook.book;
  const problem = nameProblem(input.name);
  if (problem) throw new SheetsError("BAD_INPUT", `${problem[0]?.toUpperCase()}${problem.slice(1)}.`, { subject: input.name });
  const sid = scopeOf(book, input.sheet);
  const formula = input.formula.replace(/^=/, "");
  // The definition must be a formula the gateway would store (no other workbook, no DDE).
  book.compiler.compile(formula, 0, 0, true);
  namesOf(book).set(keyOf(sid, input.name), {
    name: input.name,
    sid,
    formula,
    ...(input.hidden ? { hidden: true } : {}),
    ...(input.comment ? { comment: input.comment } : {}),
  });
  book.dirt.sheetsChanged = true;
  return settled(
    book,
    budget,
    `The name ${input.name} is kept with the workbook, but this build of the gateway does not compute names in formulas: formulas that use it read #NAME? (Excel computes them on open).`,
  );
}

/** Deletes a name (`sheet` null: the workbook's scope); BAD_INPUT when there is none. */
export function deleteDefinedName(workbook: Workbook, input: { name: string; sheet: string | null }, budget?: Budget): WriteResult {
  const book = workbook.book;
  const sid = scopeOf(book, input.sheet);
  if (!namesOf(book).delete(keyOf(sid, input.name)))
    throw new SheetsError(
      "BAD_INPUT",
      `There is no name "${input.name}" ${input.sheet === null ? "in the workbook's scope" : `local to sheet "${input.sheet}"`}.`,
      { subject: input.name },
    );
  book.dirt.sheetsChanged = true;
  return settled(book, budget);
}
