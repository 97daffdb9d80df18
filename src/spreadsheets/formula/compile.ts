// Formula text → Program. The text is tokenized once (@borgar/fx); references are made relative to
// the formula's cell to form the formula's shape, and one Program is compiled per shape, so a
// column of "=B2*2", "=B3*2", … shares one closure. The same pass normalizes the text (function
// names and cell letters in upper case) and refuses what the gateway will not store.
import { parse, tokenize } from "@borgar/fx";
import { SheetsError } from "../errors.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../types.ts";
import { CompileProblem, compileNode, type AstNode, type NodeCompiler } from "./compile-node.ts";
import type { FnTable } from "./functions/spec.ts";
import { NO_SHEET, OWN_SHEET, type Program, type RefSpec } from "./program.ts";
import { formatRefToken, parseRefToken, type RefPart, type RefToken } from "./refs.ts";
import { ERR } from "./values.ts";

/** Functions that reach outside the workbook: refused wherever they appear. */
export const REFUSED_FUNCTIONS = new Set(["WEBSERVICE", "RTD", "CALL", "REGISTER.ID", "REGISTER", "FILTERXML", "DDE", "DDEAUTO", "EXEC"]);
const SAFE_LINK = /^\s*(https?:|mailto:)/i;
const SUBTOTALS = new Set(["SUBTOTAL", "AGGREGATE"]);

export interface CompiledFormula {
  /** The formula without "=", function names and cell letters in upper case. */
  text: string;
  program: Program;
}

export interface CompileEnv {
  /** Sheet id of a sheet name (case-insensitive), or -1. */
  sheetId(name: string): number;
}

const refused = (formula: string, why: string) =>
  new SheetsError("REFUSED_FORMULA", `The formula "=${formula}" is refused: ${why}.`, { subject: `=${formula}` });

export const canonicalName = (name: string): string => name.toUpperCase().replace(/^_XLFN\.(_XLWS\.)?|^_XLWS\./, "");

function edge(part: RefPart, which: "row" | "col", anchor: number, end: "first" | "last"): [number, boolean] {
  const value = part[which];
  if (value === null) return [end === "first" ? 0 : which === "row" ? MAX_ROWS - 1 : MAX_COLUMNS - 1, true];
  const abs = which === "row" ? part.rowAbs : part.colAbs;
  return abs ? [value, true] : [value - anchor, false];
}

function specOf(ref: RefToken, sid: number, row: number, col: number): RefSpec {
  const b = ref.b ?? ref.a;
  const [top, topAbs] = edge(ref.a, "row", row, "first");
  const [left, leftAbs] = edge(ref.a, "col", col, "first");
  const [bottom, bottomAbs] = edge(b, "row", row, "last");
  const [right, rightAbs] = edge(b, "col", col, "last");
  return { sid, top, left, bottom, right, topAbs, leftAbs, bottomAbs, rightAbs };
}

const shapeOf = (spec: RefSpec, sheet: string | null) =>
  `${sheet === null ? "" : sheet.toLowerCase()}!${spec.topAbs ? "" : "~"}${spec.top},${spec.leftAbs ? "" : "~"}${spec.left}:${spec.bottomAbs ? "" : "~"}${spec.bottom},${spec.rightAbs ? "" : "~"}${spec.right}`;

export class FormulaCompiler {
  private readonly cache = new Map<string, Program>();

  constructor(
    private readonly env: CompileEnv,
    private readonly functions: FnTable,
  ) {}

  /** Forget compiled shapes: sheet names resolve differently after a sheet is added, renamed or deleted. */
  clear(): void {
    this.cache.clear();
  }

  /**
   * Compiles a formula (with or without its "=") for the cell at (row, col). Refused formulas throw
   * REFUSED_FORMULA; a formula that does not parse throws BAD_FORMULA when `strict` (a write), and
   * otherwise (an import) compiles to #NAME? with its problem noted.
   */
  compile(formula: string, row: number, col: number, strict: boolean): CompiledFormula {
    const source = formula.startsWith("=") ? formula.slice(1) : formula;
    const tokens = tokenize(`=${source}`, { mergeRefs: true, allowTernary: false });
    const shape: string[] = [];
    const text: string[] = [];
    const refs = new Map<string, RefSpec>();
    for (const token of tokens) {
      if (token.type === "fx_prefix") continue;
      if (token.type === "func") {
        const name = token.value.toUpperCase();
        if (REFUSED_FUNCTIONS.has(canonicalName(name))) throw refused(source, `${canonicalName(name)} reaches outside the workbook`);
        shape.push(name);
        text.push(name);
        continue;
      }
      if (token.type === "unknown" && token.value.includes("|")) throw refused(source, "DDE links (program|topic!item) are not allowed");
      if ((token.type === "unknown" || token.type === "context" || token.type.startsWith("range")) && /[[\]]/.test(token.value))
        throw refused(source, "it references another workbook");
      const ref = token.type === "range" || token.type === "range_beam" ? parseRefToken(token.value) : null;
      if (ref?.external) throw refused(source, "it references another workbook");
      if (ref && !ref.threeD) {
        const spec = specOf(ref, ref.sheet === null ? OWN_SHEET : this.sheetOf(ref.sheet), row, col);
        refs.set(token.value, spec);
        shape.push(shapeOf(spec, ref.sheet));
        text.push(formatRefToken(ref));
        continue;
      }
      shape.push(`${token.type}:${token.value}`);
      text.push(token.value);
    }
    const normalized = text.join("");
    const key = shape.join("\u0001");
    let program = this.cache.get(key);
    if (!program) {
      program = this.build(tokens, refs, source, strict);
      this.cache.set(key, program);
    }
    if (strict && program.problem)
      throw new SheetsError("BAD_FORMULA", `The formula "=${source}" is not valid: ${program.problem}.`, { subject: `=${source}` });
    return { text: normalized, program };
  }

  private sheetOf(name: string): number {
    const sid = this.env.sheetId(name);
    return sid < 0 ? NO_SHEET : sid;
  }

  private build(tokens: ReturnType<typeof tokenize>, refs: Map<string, RefSpec>, source: string, strict: boolean): Program {
    const c: NodeCompiler = {
      functions: this.functions,
      ref: (text) => refs.get(text) ?? null,
      fnName: canonicalName,
      unknown: [],
      refs: [],
      volatile: false,
    };
    let ast: AstNode;
    try {
      ast = parse(tokens) as unknown as AstNode;
    } catch (error) {
      return failed(`it does not parse (${(error as Error).message})`);
    }
    checkLinks(ast, source);
    try {
      const run = compileNode(ast, c);
      const outer = ast.type === "CallExpression" ? this.functions[canonicalName(ast.callee?.name ?? "")] : undefined;
      return {
        run,
        refs: c.refs,
        unknown: c.unknown,
        problem: null,
        volatile: c.volatile,
        format: outer?.format ?? null,
        formatFrom: formatSource(ast, refs),
        subtotal: tokens.some((t) => t.type === "func" && SUBTOTALS.has(canonicalName(t.value))),
      };
    } catch (error) {
      if (error instanceof CompileProblem) return failed(error.message);
      if (!strict && error instanceof SheetsError) throw error;
      throw error;
    }
  }
}

function failed(problem: string): Program {
  return { run: () => ERR.NAME, refs: [], unknown: [], problem, volatile: false, format: null, formatFrom: null };
}

/** "=A1+7", "=A1-B1": the result takes A1's format when A1 has a date format (Excel does so). */
function formatSource(ast: AstNode, refs: Map<string, RefSpec>): RefSpec | null {
  let node: AstNode | null | undefined = ast;
  while (node && node.type === "BinaryExpression" && (node.operator === "+" || node.operator === "-")) node = node.arguments?.[0];
  if (node === ast || !node || node.type !== "ReferenceIdentifier") return null;
  return refs.get(String(node.value)) ?? null;
}

/** HYPERLINK only to http(s): and mailto: when its target is written in the formula. */
function checkLinks(node: AstNode | null | undefined, source: string): void {
  if (!node) return;
  if (node.type === "CallExpression" && canonicalName(node.callee?.name ?? "") === "HYPERLINK") {
    const target = node.arguments?.[0];
    if (target?.type === "Literal" && typeof target.value === "string" && !SAFE_LINK.test(target.value))
      throw refused(source, "HYPERLINK may only link to http:, https: or mailto: addresses");
  }
  for (const arg of node.arguments ?? []) checkLinks(arg, source);
  for (const row of node.elements ?? []) for (const el of row) checkLinks(el, source);
}
