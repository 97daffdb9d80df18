// INDIRECT's text as a reference of this workbook, resolved while the formula runs: A1 ("B2",
// "Sheet2!A1:C3", "'Q1 Sales'!B:B"), R1C1 ("R2C3", "R[-1]C", relative to the formula's cell), a
// defined name or a structured reference. Another workbook, a 3-D span, text that is none of these:
// #REF!, as in Excel. The formula that calls INDIRECT is volatile, so what it reads is always read again.
import { parseR1C1Ref } from "@borgar/fx";
import type { Book } from "./book.ts";
import type { EvalContext } from "../formula/context.ts";
import { parseRefToken } from "../formula/refs.ts";
import { ERR, isError, RangeValue, type FormulaError } from "../formula/values.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";

/** A name or a structured reference, optionally after a sheet: what INDIRECT compiles as a formula. */
const NAME_LIKE = /^((?:'[^']+'|[^'!:[\]]+)!)?[\p{L}_\\][\p{L}\p{N}_.\\]*(\[.*\])?$/u;

function sheetSid(book: Book, sheet: string | null, own: number): number {
  if (sheet === null) return own;
  const sid = book.sheets.find((s) => s.name.toLowerCase() === sheet.toLowerCase())?.sid;
  return sid ?? -1;
}

function a1(book: Book, text: string, ctx: EvalContext): RangeValue | FormulaError | null {
  const ref = parseRefToken(text);
  if (!ref) return null;
  if (ref.external || ref.threeD) return ERR.REF;
  const sid = sheetSid(book, ref.sheet, ctx.sid);
  if (sid < 0) return ERR.REF;
  const b = ref.b ?? ref.a;
  const top = Math.min(ref.a.row ?? 0, b.row ?? 0);
  const bottom = ref.a.row === null ? MAX_ROWS - 1 : Math.max(ref.a.row, b.row ?? 0);
  const left = Math.min(ref.a.col ?? 0, b.col ?? 0);
  const right = ref.a.col === null ? MAX_COLUMNS - 1 : Math.max(ref.a.col, b.col ?? 0);
  return new RangeValue(sid, top, left, bottom, right);
}

function r1c1(book: Book, text: string, ctx: EvalContext): RangeValue | FormulaError | null {
  let parsed: ReturnType<typeof parseR1C1Ref>;
  try {
    parsed = parseR1C1Ref(text);
  } catch {
    return null;
  }
  if (!parsed || !("range" in parsed) || !parsed.range) return null;
  const context = parsed.context ?? [];
  if (context.length > 1 || context.some((c) => c.includes(":") || /[[\]]/.test(c))) return ERR.REF;
  const sid = sheetSid(book, context[0] ?? null, ctx.sid);
  if (sid < 0) return ERR.REF;
  const r = parsed.range as {
    r0?: number;
    c0?: number;
    r1?: number;
    c1?: number;
    $r0?: boolean;
    $c0?: boolean;
    $r1?: boolean;
    $c1?: boolean;
  };
  // R1C1 numbers are 1-based when absolute (R2 is row 2) and offsets when relative (R[1]); fx gives 0-based absolutes.
  const edge = (n: number | undefined, abs: boolean | undefined, own: number, whole: number): number =>
    n === undefined || n === null ? whole : abs ? n : own + n;
  const top = edge(r.r0, r.$r0, ctx.row, 0);
  const bottom = edge(r.r1 ?? r.r0, r.r1 === undefined ? r.$r0 : r.$r1, ctx.row, r.r0 === undefined ? MAX_ROWS - 1 : top);
  const left = edge(r.c0, r.$c0, ctx.col, 0);
  const right = edge(r.c1 ?? r.c0, r.c1 === undefined ? r.$c0 : r.$c1, ctx.col, r.c0 === undefined ? MAX_COLUMNS - 1 : left);
  const box = [Math.min(top, bottom), Math.min(left, right), Math.max(top, bottom), Math.max(left, right)] as const;
  if (box[0] < 0 || box[1] < 0 || box[2] >= MAX_ROWS || box[3] >= MAX_COLUMNS) return ERR.REF;
  return new RangeValue(sid, ...box);
}

/** A defined name or structured reference, compiled as a formula at the calling cell and run there. */
function named(book: Book, text: string, ctx: EvalContext): RangeValue | FormulaError {
  if (!NAME_LIKE.test(text)) return ERR.REF;
  try {
    const { program } = book.compiler.compile(text, { sid: ctx.sid, row: ctx.row, col: ctx.col }, { strict: false });
    if (program.problem || program.unknown.length > 0) return ERR.REF;
    const v = program.run(ctx);
    return v instanceof RangeValue ? v : isError(v) ? v : ERR.REF;
  } catch (error) {
    // A text that is refused as a formula (another workbook …) is no reference of this workbook.
    if (error instanceof Error && error.name === "SheetsError") return ERR.REF;
    throw error;
  }
}

export function indirectReference(book: Book, input: string, isA1: boolean, ctx: EvalContext): RangeValue | FormulaError {
  const text = input.trim();
  if (text === "" || text.startsWith("[")) return ERR.REF;
  const ref = isA1 ? a1(book, text, ctx) : r1c1(book, text, ctx);
  return ref ?? named(book, text, ctx);
}
