// References in a formula, compiled: cells and ranges (relative to the formula's cell), 3-D
// references across a span of sheets, structured references to tables, defined names (their
// definitions compiled in place, so the cells they refer to are the formula's dependencies), the
// spill operator A1# and implicit intersection (@).
import type { EvalContext } from "./context.ts";
import { CompileProblem, compileNode, constant, type AstNode, type NodeCompiler } from "./compile-node.ts";
import { variable } from "./compile-lambda.ts";
import { isBuiltInName, type NameDef } from "./env.ts";
import type { Thunk } from "./functions/spec.ts";
import { NO_SHEET, OWN_SHEET, type RefSpec } from "./program.ts";
import { parseRefToken, type RefPart, type RefToken } from "./refs.ts";
import { resolveStructured } from "./structured.ts";
import { formulaTokens, parseTokens } from "./tokens.ts";
import { ERR, isArray, isError, isLambda, isRange, RangeValue, type FormulaError, type Value } from "./values.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";

function edge(part: RefPart, which: "row" | "col", anchor: number, end: "first" | "last"): [number, boolean] {
  const value = part[which];
  if (value === null) return [end === "first" ? 0 : which === "row" ? MAX_ROWS - 1 : MAX_COLUMNS - 1, true];
  const abs = which === "row" ? part.rowAbs : part.colAbs;
  return abs ? [value, true] : [value - anchor, false];
}

/** A reference token as a spec: absolute edges as they are, relative ones as offsets from (row, col). */
export function specOf(ref: RefToken, sid: number, row: number, col: number, wrap = false): RefSpec {
  const b = ref.b ?? ref.a;
  const [top, topAbs] = edge(ref.a, "row", row, "first");
  const [left, leftAbs] = edge(ref.a, "col", col, "first");
  const [bottom, bottomAbs] = edge(b, "row", row, "last");
  const [right, rightAbs] = edge(b, "col", col, "last");
  const spec: RefSpec = { sid, top, left, bottom, right, topAbs, leftAbs, bottomAbs, rightAbs };
  if (wrap && !(topAbs && leftAbs && bottomAbs && rightAbs)) spec.wrap = true;
  return spec;
}

/** A reference token compiled where `c` is: in a defined name, relative to A1 and wrapping around the sheet. */
const specIn = (ref: RefToken, sid: number, c: NodeCompiler): RefSpec => specOf(ref, sid, c.anchor.row, c.anchor.col, c.cell === null);

export const isSingle = (s: RefSpec): boolean =>
  s.top === s.bottom && s.left === s.right && s.topAbs === s.bottomAbs && s.leftAbs === s.rightAbs;

/** A reference's cells for the formula's cell: a RangeValue, or #REF! off the sheet. */
export function rangeThunk(spec: RefSpec): Thunk {
  const fixed = spec.topAbs && spec.leftAbs && spec.bottomAbs && spec.rightAbs;
  if (spec.sid === NO_SHEET) return constant(ERR.REF);
  if (fixed && spec.sid !== OWN_SHEET) return constant(new RangeValue(spec.sid, spec.top, spec.left, spec.bottom, spec.right));
  return (ctx) => rangeAt(spec, ctx);
}

function rangeAt(spec: RefSpec, ctx: EvalContext): RangeValue | FormulaError {
  // No helper closures: this runs for every reference of every formula computed.
  const { wrap } = spec;
  const top = spec.topAbs ? spec.top : wrap ? (ctx.row + spec.top) % MAX_ROWS : ctx.row + spec.top;
  const bottom = spec.bottomAbs ? spec.bottom : wrap ? (ctx.row + spec.bottom) % MAX_ROWS : ctx.row + spec.bottom;
  const left = spec.leftAbs ? spec.left : wrap ? (ctx.col + spec.left) % MAX_COLUMNS : ctx.col + spec.left;
  const right = spec.rightAbs ? spec.right : wrap ? (ctx.col + spec.right) % MAX_COLUMNS : ctx.col + spec.right;
  if (Math.min(top, bottom) < 0 || Math.min(left, right) < 0 || Math.max(top, bottom) >= MAX_ROWS || Math.max(left, right) >= MAX_COLUMNS)
    return ERR.REF;
  return new RangeValue(
    spec.sid === OWN_SHEET ? ctx.sid : spec.sid,
    Math.min(top, bottom),
    Math.min(left, right),
    Math.max(top, bottom),
    Math.max(left, right),
  );
}

/** A single-cell reference read straight to its value. */
export function cellThunk(spec: RefSpec): Thunk {
  if (spec.sid === NO_SHEET) return constant(ERR.REF);
  const { top, left, topAbs, leftAbs, sid } = spec;
  if (spec.wrap)
    return (ctx) =>
      ctx.value(
        sid === OWN_SHEET ? ctx.sid : sid,
        topAbs ? top : (ctx.row + top) % MAX_ROWS,
        leftAbs ? left : (ctx.col + left) % MAX_COLUMNS,
      );
  return (ctx) => {
    const r = topAbs ? top : ctx.row + top;
    const c = leftAbs ? left : ctx.col + left;
    if (r < 0 || c < 0 || r >= MAX_ROWS || c >= MAX_COLUMNS) return ERR.REF;
    return ctx.value(sid === OWN_SHEET ? ctx.sid : sid, r, c);
  };
}

function sheetOf(name: string, c: NodeCompiler): number {
  const sid = c.env.sheetId(name);
  return sid < 0 ? NO_SHEET : sid;
}

/** A plain single-cell reference node (the operand fast path), or null. */
export function singleRef(node: AstNode, c: NodeCompiler): RefSpec | null {
  if (node.type !== "ReferenceIdentifier" || (node.kind !== "range" && node.kind !== "beam")) return null;
  const ref = parseRefToken(String(node.value));
  if (!ref || ref.external || ref.threeD) return null;
  const spec = specIn(ref, ref.sheet === null ? OWN_SHEET : sheetOf(ref.sheet, c), c);
  return isSingle(spec) ? spec : null;
}

function threeD(ref: RefToken, c: NodeCompiler): Thunk {
  const [first, last] = (ref.sheet as string).split(":") as [string, string];
  const sids = c.env.sheetSpan(first, last);
  if (!sids) return constant(ERR.REF);
  const specs = sids.map((sid) => specIn(ref, sid, c));
  c.refs.push(...specs);
  return (ctx) => {
    const areas: RangeValue[] = [];
    for (const spec of specs) {
      const area = rangeAt(spec, ctx);
      if (isError(area)) return area;
      areas.push(area);
    }
    return RangeValue.of(areas);
  };
}

function rangeNode(text: string, c: NodeCompiler): Thunk {
  const ref = parseRefToken(text);
  if (!ref || ref.external) throw new CompileProblem(`"${text}" is not a reference the engine takes`);
  if (ref.threeD) return threeD(ref, c);
  const spec = specIn(ref, ref.sheet === null ? OWN_SHEET : sheetOf(ref.sheet, c), c);
  c.refs.push(spec);
  return rangeThunk(spec);
}

function structuredNode(text: string, c: NodeCompiler): Thunk {
  const at = c.cell ? c.env.tableAt(c.sid, c.cell.row, c.cell.col) : null;
  const resolved = resolveStructured(text, (name) => c.env.table(name), at);
  if (isError(resolved)) return constant(resolved);
  c.refs.push(resolved.spec);
  const range = rangeThunk(resolved.spec);
  const rows = resolved.rows;
  if (!rows) return range;
  return (ctx) => (ctx.row >= rows.top && ctx.row <= rows.bottom ? range(ctx) : ERR.VALUE);
}

const parsedNames = new WeakMap<NameDef, AstNode | null>();

/** A defined name's definition compiled where it is used (relative references are relative to A1, as in .xlsx). */
export function compileName(def: NameDef, c: NodeCompiler): Thunk {
  const busy = c.naming.get(def);
  if (busy) return (ctx) => (busy.thunk ? busy.thunk(ctx) : ERR.NAME);
  let ast = parsedNames.get(def);
  if (ast === undefined) {
    try {
      ast = parseTokens(formulaTokens(def.formula));
    } catch {
      ast = null;
    }
    parsedNames.set(def, ast);
  }
  if (ast === null) return constant(ERR.NAME);
  const holder: { thunk: Thunk | null } = { thunk: null };
  const saved = { anchor: c.anchor, cell: c.cell, scope: c.scope };
  c.naming.set(def, holder);
  Object.assign(c, { anchor: { row: 0, col: 0 }, cell: null, scope: null });
  try {
    holder.thunk = compileNode(ast, c);
  } catch (error) {
    if (!(error instanceof CompileProblem)) throw error;
    holder.thunk = constant(ERR.NAME);
  } finally {
    c.naming.delete(def);
    Object.assign(c, saved);
  }
  return holder.thunk;
}

/** A name in a formula: a LET or LAMBDA variable, a defined name (Sheet2!Rate too), a table, or #NAME?. */
function nameNode(text: string, c: NodeCompiler): Thunk {
  const bound = variable(text, c);
  if (bound) return bound;
  const bang = text.lastIndexOf("!");
  const name = bang < 0 ? text : text.slice(bang + 1);
  const sheet = bang < 0 ? null : text.slice(0, bang).replace(/^'|'$/g, "").replace(/''/g, "'");
  const sid = sheet === null ? c.sid : c.env.sheetId(sheet);
  c.names.add(name.toLowerCase());
  const def = sid < 0 || isBuiltInName(name) ? null : c.env.name(name, sid);
  if (def) return compileName(def, c);
  const table = sheet === null ? c.env.table(name) : null;
  if (table) return structuredNode(`${table.name}[]`, c);
  c.unknown.push(text);
  return constant(ERR.NAME);
}

export function compileReference(node: AstNode, c: NodeCompiler): Thunk {
  const text = String(node.value);
  if (node.kind === "range" || node.kind === "beam") return rangeNode(text, c);
  if (node.kind === "table") return structuredNode(text, c);
  return nameNode(text, c);
}

/** The spill operator (A1#): the cells the dynamic array at a cell fills. */
export function spillThunk(arg: Thunk): Thunk {
  return (ctx) => {
    const r = arg(ctx);
    if (isError(r)) return r;
    if (!isRange(r) || r.areas) return ERR.REF;
    return ctx.spillRange ? ctx.spillRange(r.sid, r.top, r.left) : ERR.REF;
  };
}

/**
 * Implicit intersection (@, and how formulas saved before dynamic arrays read a range where one
 * value is wanted): a one-column range gives its cell in the formula's row, a one-row range its cell
 * in the formula's column (on whatever sheet the range is), an array its first value; else #VALUE!.
 */
export function implicitIntersection(v: Value, ctx: EvalContext): Value {
  if (isArray(v)) return v[0]?.[0] ?? null;
  if (isLambda(v)) return ERR.CALC;
  if (!isRange(v)) return v;
  if (v.areas) return ERR.VALUE;
  if (v.single) return v;
  if (v.left === v.right && ctx.row >= v.top && ctx.row <= v.bottom) return new RangeValue(v.sid, ctx.row, v.left, ctx.row, v.left);
  if (v.top === v.bottom && ctx.col >= v.left && ctx.col <= v.right) return new RangeValue(v.sid, v.top, ctx.col, v.top, ctx.col);
  return ERR.VALUE;
}
