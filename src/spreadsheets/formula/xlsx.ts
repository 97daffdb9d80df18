// Formula text as .xlsx stores it. Functions newer than Excel 2007 carry the "_xlfn." prefix
// (FILTER and SORT "_xlfn._xlws."), LET and LAMBDA variables "_xlpm." (Excel, LibreOffice and other
// readers show #NAME? without them). "@" and "#" are not file syntax: A1# is _xlfn.ANCHORARRAY(A1),
// and "@" is left out where Excel before dynamic arrays intersected anyway, else _xlfn.SINGLE(…).
// A formula whose meaning needs dynamic arrays (a range where one value is wanted, with no "@") is
// written as a dynamic-array formula; the engine reads all of these forms.
import type { Token } from "@borgar/fx";
import { canonicalName } from "./compile.ts";
import type { AstNode } from "./compile-node.ts";
import { FUTURE_FUNCTIONS, WORKSHEET_FUNCTIONS } from "./functions/index.ts";
import { tokenSpans, walk, type LegacyEnv } from "./legacy.ts";
import { formulaTokens, parseLocated } from "./tokens.ts";

/** How one formula shape is written: whether it needs the dynamic-array flag, and what changes in its tokens. */
export interface XlsxPlan {
  dynamic: boolean;
  /** Text put before / instead of / after tokens, by token index; null when the text is written as it is. */
  edits: { before: Map<number, string>; replace: Map<number, string>; after: Map<number, string> } | null;
}

const PLAIN: XlsxPlan = { dynamic: false, edits: null };

function visit(node: AstNode | null | undefined, fn: (node: AstNode) => void): void {
  if (!node) return;
  fn(node);
  for (const arg of node.arguments ?? []) visit(arg, fn);
  for (const row of node.elements ?? []) for (const el of row) visit(el, fn);
  for (const d of node.declarations ?? []) visit(d.init, fn);
  visit(node.body, fn);
  if (node.callee && node.callee.type !== "Identifier") visit(node.callee, fn);
}

/** The plan for a formula (engine text, without "="): computed once per formula shape. */
export function planXlsx(text: string, env: LegacyEnv): XlsxPlan {
  // Without "@", "#", a range, a call or an array, nothing can need dynamic arrays (a result that spills says so itself).
  if (!/[@#:({]/.test(text)) return needsPrefixes(text) ? { dynamic: false, edits: emptyEdits() } : PLAIN;
  const tree = parseLocated(text);
  if (!tree) return needsPrefixes(text) ? { dynamic: false, edits: emptyEdits() } : PLAIN;
  const { tokens, ast } = tree;
  const span = tokenSpans(tokens);
  const ats: AstNode[] = [];
  const spills: AstNode[] = [];
  let dynamic = false;
  visit(ast, (node) => {
    if (node.type === "UnaryExpression" && node.operator === "@") ats.push(node);
    if (node.type === "UnaryExpression" && node.operator === "#") spills.push(node);
    if (node.type === "LetExpression" || node.type === "LambdaExpression") dynamic = true;
  });
  const covered = new Set(ats.map((n) => n.arguments?.[0]));
  const marked = new Set<AstNode>();
  walk(ast, "value", env, (node) => {
    marked.add(node);
    if (!covered.has(node)) dynamic = true;
  });
  const edits = emptyEdits();
  for (const at of ats) {
    const operand = at.arguments?.[0];
    const [a, o] = [span(at), operand ? span(operand) : null];
    if (!a || !o) continue;
    if (!dynamic && operand && marked.has(operand)) edits.replace.set(a[0], "");
    else {
      edits.replace.set(a[0], "_xlfn.SINGLE(");
      edits.after.set(o[1], `${edits.after.get(o[1]) ?? ""})`);
    }
  }
  for (const node of spills) {
    const ref = node.arguments?.[0];
    const [s, r] = [span(node), ref ? span(ref) : null];
    if (!s || !r) continue;
    edits.before.set(r[0], `_xlfn.ANCHORARRAY(${edits.before.get(r[0]) ?? ""}`);
    edits.replace.set(s[1], ")");
  }
  const changes = edits.replace.size > 0 || edits.before.size > 0 || needsPrefixes(text);
  return { dynamic, edits: changes ? edits : null };
}

const emptyEdits = (): NonNullable<XlsxPlan["edits"]> => ({ before: new Map(), replace: new Map(), after: new Map() });

function needsPrefixes(text: string): boolean {
  const upper = text.toUpperCase();
  for (const name of FUTURE_FUNCTIONS) if (upper.includes(name)) return true;
  return false;
}

/** LET and LAMBDA variable names of a formula (lower case). */
function parameters(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  let depth = 0;
  const open: { fn: string; depth: number; arg: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.type === "func") {
      open.push({ fn: canonicalName(t.value), depth: depth + 1, arg: 0 });
      continue;
    }
    if (t.value === "(") depth++;
    else if (t.value === ")") {
      if (open[open.length - 1]?.depth === depth) open.pop();
      depth--;
    } else if (t.value === "," && open[open.length - 1]?.depth === depth) (open[open.length - 1] as { arg: number }).arg++;
    else if (t.type === "range_named") {
      const top = open[open.length - 1];
      if (top && top.depth === depth && ((top.fn === "LET" && top.arg % 2 === 0) || top.fn === "LAMBDA")) names.add(t.value.toLowerCase());
    }
  }
  return names;
}

/** Applies a plan to a formula of its shape (engine text, without "="). */
export function applyXlsxPlan(text: string, plan: XlsxPlan): string {
  if (!plan.edits) return text;
  const { before, replace, after } = plan.edits;
  const tokens = formulaTokens(text);
  const params = /LET|LAMBDA/i.test(text) ? parameters(tokens) : new Set<string>();
  return tokens
    .map((t, i) => {
      let value = t.value;
      if (t.type === "func") {
        const name = canonicalName(value);
        if (FUTURE_FUNCTIONS.has(name) && !/^_xlfn\./i.test(value))
          value = `${WORKSHEET_FUNCTIONS.has(name) ? "_xlfn._xlws." : "_xlfn."}${value}`;
      } else if (t.type === "range_named" && params.has(value.toLowerCase())) value = `_xlpm.${value}`;
      const replaced = replace.has(i) ? (replace.get(i) as string) : value;
      return `${before.get(i) ?? ""}${replaced}${after.get(i) ?? ""}`;
    })
    .join("");
}

/** "XLOOKUP(A1,B:B,C:C)" → "_xlfn.XLOOKUP(A1,B:B,C:C)": the prefixes alone (defined names' formulas, the fidelity corpus). */
export function toXlsxFormula(formula: string): string {
  const text = formula.startsWith("=") ? formula.slice(1) : formula;
  if (!needsPrefixes(text)) return text;
  return applyXlsxPlan(text, { dynamic: false, edits: emptyEdits() });
}
