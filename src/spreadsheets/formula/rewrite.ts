// Formula text after a structure edit, as Excel rewrites it: references move with inserted and
// deleted rows and columns (ranges stretch and shrink; a reference to deleted cells becomes
// #REF!), follow a renamed sheet, and become #REF! when their sheet is deleted.
import { tokenize } from "@borgar/fx";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";
import { formatRefToken, parseRefToken, type RefPart, type RefToken } from "./refs.ts";

export type Shift = { kind: "rows" | "columns"; sheet: string; at: number; count: number };
export type StructureChange =
  | Shift
  | { kind: "rename"; from: string; to: string }
  /** `order`: the sheets before the deletion, for 3-D references whose first or last sheet goes. */
  | { kind: "deleteSheet"; sheet: string; order?: string[] };

type Axis = "row" | "col";

/** New [first, last] of a span along one axis, or null when the span was deleted whole. */
function shiftSpan(first: number, last: number, at: number, count: number, limit: number): [number, number] | null {
  if (count > 0) {
    const a = first >= at ? first + count : first;
    const b = last >= at ? last + count : last;
    if (a >= limit) return null;
    return [a, Math.min(b, limit - 1)];
  }
  const n = -count;
  const end = at + n - 1;
  if (first >= at && last <= end) return null;
  const a = first < at ? first : first > end ? first - n : at;
  const b = last < at ? last : last > end ? last - n : at - 1;
  return [a, b];
}

function shiftRef(ref: RefToken, axis: Axis, at: number, count: number): RefToken | null {
  const b = ref.b ?? ref.a;
  const first = ref.a[axis];
  const last = b[axis];
  if (first === null || last === null) return ref; // whole rows under a column edit, and the reverse
  const lo = Math.min(first, last);
  const hi = Math.max(first, last);
  const span = shiftSpan(lo, hi, at, count, axis === "row" ? MAX_ROWS : MAX_COLUMNS);
  if (!span) return null;
  const set = (part: RefPart, value: number): RefPart => ({ ...part, [axis]: value });
  if (!ref.b) return { ...ref, a: set(ref.a, span[0]) };
  const aFirst = first <= last;
  return { ...ref, a: set(ref.a, aFirst ? span[0] : span[1]), b: set(ref.b, aFirst ? span[1] : span[0]) };
}

function rewriteRef(ref: RefToken, own: string, change: StructureChange): RefToken | null {
  const target = (ref.sheet ?? own).toLowerCase();
  if (change.kind === "rename") return ref.sheet !== null && target === change.from.toLowerCase() ? { ...ref, sheet: change.to } : ref;
  if (change.kind === "deleteSheet") return target === change.sheet.toLowerCase() ? null : ref;
  if (target !== change.sheet.toLowerCase()) return ref;
  return shiftRef(ref, change.kind === "rows" ? "row" : "col", change.at, change.count);
}

/**
 * A 3-D reference after a change of sheets: a renamed first or last sheet is renamed in it; a
 * deleted one moves the span's end inwards (Excel's rule); a span left with no sheet is #REF!. Rows
 * and columns inserted on one sheet of the span leave it as it is.
 */
function rewriteSpan(ref: RefToken, change: StructureChange): RefToken | null {
  const [first, last] = (ref.sheet as string).split(":") as [string, string];
  const is = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (change.kind === "rename") {
    if (!is(first, change.from) && !is(last, change.from)) return ref;
    return { ...ref, sheet: `${is(first, change.from) ? change.to : first}:${is(last, change.from) ? change.to : last}` };
  }
  if (change.kind !== "deleteSheet" || (!is(first, change.sheet) && !is(last, change.sheet))) return ref;
  const order = change.order ?? [];
  const a = order.findIndex((s) => is(s, first));
  const b = order.findIndex((s) => is(s, last));
  if (a < 0 || b < 0 || a === b) return null;
  const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
  const gone = order.findIndex((s) => is(s, change.sheet));
  const start = gone === lo ? lo + 1 : lo;
  const end = gone === hi ? hi - 1 : hi;
  return { ...ref, sheet: start === end ? (order[start] as string) : `${order[start]}:${order[end]}`, threeD: start !== end };
}

/**
 * The formula (without "=") after `change`; `own` is the name of the sheet the formula is on
 * (before a rename). Returns the text unchanged when no reference is touched.
 */
export function rewriteFormula(text: string, own: string, change: StructureChange): string {
  const tokens = tokenize(`=${text}`, { mergeRefs: true, allowTernary: false });
  let touched = false;
  const out: string[] = [];
  for (const token of tokens) {
    if (token.type === "fx_prefix") continue;
    const ref = token.type === "range" || token.type === "range_beam" ? parseRefToken(token.value) : null;
    if (ref?.threeD && !ref.external) {
      const moved = rewriteSpan(ref, change);
      touched ||= moved !== ref;
      out.push(moved === ref ? token.value : moved ? formatRefToken(moved) : "#REF!");
      continue;
    }
    if (!ref || ref.external) {
      out.push(token.value);
      continue;
    }
    const moved = rewriteRef(ref, own, change);
    if (moved === ref) out.push(token.value);
    else {
      touched = true;
      out.push(moved ? formatRefToken(moved) : "#REF!");
    }
  }
  return touched ? out.join("") : text;
}
