// Defined names of a workbook: workbook-scoped and sheet-scoped, each referring to a range, a
// constant, a formula or a LAMBDA. Formulas compile a name's definition in place, so the cells it
// refers to are their dependencies; defining, redefining or deleting a name recompiles and
// recomputes the formulas that use it. Excel's built-in names (_xlnm.Print_Area …) are kept and
// written back but never computed.
import type { Book } from "./book.ts";
import { SheetsError } from "../cells/errors.ts";
import { isBuiltInName, WORKBOOK_SCOPE, type NameDef } from "../formula/env.ts";
import { formulaTokens, parseTokens } from "../formula/tokens.ts";
import { parseRefToken } from "../formula/refs.ts";
import type { FormulaCell } from "../cells/grid.ts";

/** A defined name as callers see it (and as .xlsx keeps it). */
export interface DefinedName {
  name: string;
  /** The sheet the name is local to, or null for the whole workbook. */
  sheet: string | null;
  /** What it refers to, without "=": "Sheet1!$B$2:$B$20", "0.07", "LAMBDA(x,x*1.07)". */
  formula: string;
  hidden?: boolean;
  comment?: string;
}

/** Excel's rules for a name: a letter, "_" or "\" first; then letters, digits, ".", "_", "\"; not a cell reference; up to 255 characters. */
const NAME = /^[\p{L}_\\][\p{L}\p{N}_.\\?]*$/u;
const R1C1 = /^(R|C|R\d*C\d*|R\[-?\d+\]C.*|R\d*C\[.*)$/i;

export function nameProblem(name: string): string | null {
  if (typeof name !== "string" || name.length === 0) return "a name cannot be empty";
  if (name.length > 255) return `the name "${name.slice(0, 40)}…" is longer than 255 characters`;
  if (isBuiltInName(name)) return null;
  if (!NAME.test(name)) return `"${name}" is not a valid name (start with a letter, "_" or "\\"; then letters, digits, ".", "_")`;
  if (parseRefToken(name) !== null || R1C1.test(name) || /^(TRUE|FALSE)$/i.test(name))
    return `"${name}" looks like a cell reference and cannot be a name`;
  return null;
}

export const nameKey = (sid: number, name: string): string => `${sid}\u0000${name.toLowerCase()}`;

/** The workbook's names, by scope and name. */
export class Names {
  readonly byKey = new Map<string, NameDef>();

  get(name: string, sid: number): NameDef | null {
    return this.byKey.get(nameKey(sid, name)) ?? (sid === WORKBOOK_SCOPE ? null : (this.byKey.get(nameKey(WORKBOOK_SCOPE, name)) ?? null));
  }

  get size(): number {
    return this.byKey.size;
  }

  all(): NameDef[] {
    return [...this.byKey.values()];
  }

  set(def: NameDef): void {
    this.byKey.set(nameKey(def.sid, def.name), def);
  }

  delete(sid: number, name: string): NameDef | null {
    const key = nameKey(sid, name);
    const found = this.byKey.get(key) ?? null;
    this.byKey.delete(key);
    return found;
  }

  /** Names local to a sheet go with it. */
  dropSheet(sid: number): void {
    for (const [key, def] of this.byKey) if (def.sid === sid) this.byKey.delete(key);
  }
}

function scopeOf(book: Book, sheet: string | null | undefined): number {
  return sheet === null || sheet === undefined ? WORKBOOK_SCOPE : book.sheet(sheet).sid;
}

/** Every formula cell of the workbook. */
export function* formulaCells(book: Book): Generator<FormulaCell> {
  for (const sheet of book.sheets) for (const tile of sheet.grid.tiles.values()) if (tile.formulas) yield* tile.formulas.values();
}

/** Recompiles the formulas that use any of `names` (lower case) and marks them for the recalculation. */
export function recompileUsers(book: Book, names: Set<string>): void {
  book.compiler.clear();
  for (const cell of [...formulaCells(book)]) {
    if (!cell.program.names.some((n) => names.has(n))) continue;
    book.recompile(cell);
  }
}

/**
 * Defines (or redefines) a name: `formula` is what it refers to, with or without "="; `sheet` the
 * sheet it is local to (null: the workbook). The formulas using it are recomputed by the next
 * recalculation. BAD_INPUT for an invalid name, BAD_FORMULA for a definition that does not parse,
 * REFUSED_FORMULA for one the gateway would refuse in a cell (another workbook, DDE…).
 */
export function defineName(book: Book, input: DefinedName): NameDef {
  const problem = nameProblem(input.name);
  if (problem) throw new SheetsError("BAD_INPUT", `${problem[0]?.toUpperCase()}${problem.slice(1)}.`, { subject: input.name });
  const sid = scopeOf(book, input.sheet);
  const formula = String(input.formula ?? "").replace(/^=/, "");
  if (!isBuiltInName(input.name)) {
    try {
      parseTokens(formulaTokens(formula));
    } catch (error) {
      throw new SheetsError("BAD_FORMULA", `The definition "=${formula}" of "${input.name}" is not valid: ${(error as Error).message}.`, {
        subject: input.name,
      });
    }
    // Refused as in any formula: a definition reaching another workbook or outside it (DDE, WEBSERVICE…).
    const at = { sid: sid === WORKBOOK_SCOPE ? (book.sheets[0]?.sid ?? sid) : sid, row: 0, col: 0 };
    book.compiler.compile(formula, at, { strict: false });
    if (book.tables.byName(input.name))
      throw new SheetsError("BAD_INPUT", `"${input.name}" is the name of a table; a defined name cannot share it.`, {
        subject: input.name,
      });
  }
  const def: NameDef = { name: input.name, sid, formula };
  if (input.hidden) def.hidden = true;
  if (input.comment) def.comment = input.comment;
  book.names.set(def);
  book.dirt.sheetsChanged = true;
  recompileUsers(book, new Set([input.name.toLowerCase()]));
  return def;
}

/** Deletes a name; formulas using it compute #NAME? (Excel's behaviour). NOT_FOUND-like BAD_INPUT when there is none. */
export function deleteName(book: Book, name: string, sheet: string | null = null): void {
  const sid = scopeOf(book, sheet);
  if (!book.names.delete(sid, name))
    throw new SheetsError("BAD_INPUT", `There is no name "${name}"${sheet ? ` local to sheet "${sheet}"` : " in the workbook's scope"}.`, {
      subject: name,
    });
  book.dirt.sheetsChanged = true;
  recompileUsers(book, new Set([name.toLowerCase()]));
}

const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** The names as callers see them, sorted by name ignoring case, then scope (the workbook's first, then by sheet name). */
export function listNames(book: Book): DefinedName[] {
  return book.names
    .all()
    .map((def) => {
      const out: DefinedName = {
        name: def.name,
        sheet: def.sid === WORKBOOK_SCOPE ? null : (book.sheetById(def.sid)?.name ?? null),
        formula: def.formula,
      };
      if (def.hidden) out.hidden = true;
      if (def.comment) out.comment = def.comment;
      return out;
    })
    .sort((a, b) => order(a.name.toLowerCase(), b.name.toLowerCase()) || order(a.sheet?.toLowerCase() ?? "", b.sheet?.toLowerCase() ?? ""));
}
