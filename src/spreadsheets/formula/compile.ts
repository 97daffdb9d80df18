// Formula text → Program. The text is tokenized once (@borgar/fx); references are made relative to
// the formula's cell to form the formula's shape, and one Program is compiled per shape, so a
// column of "=B2*2", "=B3*2", … shares one closure. The same pass normalizes the text (function
// names and cell letters in upper case) and refuses what the gateway will not store. A formula from
// a file saved before dynamic arrays ("legacy") gets "@" where Excel intersected implicitly, as
// Excel 365 shows it, and is then an ordinary formula (./legacy.ts). A formula of a template
// (row numbers masked) compiled before at the same relative rows skips all of this (./recipes.ts).
import { parseStructRef, type Token } from "@borgar/fx";
import { SheetsError } from "../cells/errors.ts";
import { CompileProblem, compileNode, type AstNode, type NodeCompiler } from "./compile-node.ts";
import { specOf } from "./compile-refs.ts";
import type { CompileEnv } from "./env.ts";
import type { FnTable } from "./functions/spec.ts";
import { legacySpots, type Spot } from "./legacy.ts";
import { NO_SHEET, OWN_SHEET, type Program, type RefSpec } from "./program.ts";
import { formatRefToken, parseRefToken } from "./refs.ts";
import { Recipes } from "./recipes.ts";
import { resolveStructured } from "./structured.ts";
import { displayForm, formulaTokens, parseTokens } from "./tokens.ts";
import { ERR } from "./values.ts";

/** Functions that reach outside the workbook: refused wherever they appear. */
export const REFUSED_FUNCTIONS = new Set(["WEBSERVICE", "RTD", "CALL", "REGISTER.ID", "REGISTER", "FILTERXML", "DDE", "DDEAUTO", "EXEC"]);
/** HYPERLINK targets allowed when written in the formula (CONTRACT §11): web and mail addresses. */
const SAFE_LINK = /^\s*(https?:|mailto:)/i;
/** Written as calls, compiled as syntax (LET, LAMBDA) or from their argument (ISOMITTED). */
const SYNTAX = new Set(["LET", "LAMBDA", "ISOMITTED"]);
const SUBTOTALS = new Set(["SUBTOTAL", "AGGREGATE"]);

export interface CompiledFormula {
  /** The formula without "=", function names and cell letters in upper case. */
  text: string;
  program: Program;
}

/** Where a formula is: its sheet id and 0-based cell. */
export interface FormulaAt {
  sid: number;
  row: number;
  col: number;
}

export interface CompileOptions {
  /** A write: a formula that does not parse throws BAD_FORMULA (an import keeps it, computing #NAME?). */
  strict: boolean;
  /** A formula saved without dynamic arrays: implicit intersection where Excel made it ("@" is added). */
  legacy?: boolean;
}

type Entry = { program: Program; spots: null } | { program: null; spots: Spot[] };

const refused = (formula: string, why: string) =>
  new SheetsError("REFUSED_FORMULA", `The formula "=${formula}" is refused: ${why}.`, { subject: `=${formula}` });

export const canonicalName = (name: string): string => name.toUpperCase().replace(/^_XLFN\.(_XLWS\.)?|^_XLWS\./, "");

const shapeOf = (spec: RefSpec, sheet: string | null) =>
  `${sheet === null ? "" : sheet.toLowerCase()}!${spec.topAbs ? "" : "~"}${spec.top},${spec.leftAbs ? "" : "~"}${spec.left}:${spec.bottomAbs ? "" : "~"}${spec.bottom},${spec.rightAbs ? "" : "~"}${spec.right}`;

function refuseExternal(token: Token, source: string): void {
  if (token.type === "unknown" && token.value.includes("|")) throw refused(source, "DDE links (program|topic!item) are not allowed");
  if ((token.type === "unknown" || token.type === "context" || token.type.startsWith("range")) && /[[\]]/.test(token.value))
    throw refused(source, "it references another workbook");
  if (token.type === "structured") {
    let context: string[] = [];
    try {
      context = parseStructRef(token.value)?.context ?? [];
    } catch {
      context = [];
    }
    if (context.length > 1 || context.some((part) => /[[\]]/.test(part))) throw refused(source, "it references another workbook");
  }
}

export class FormulaCompiler {
  private readonly cache = new Map<string, Entry>();
  /** Formulas of a template already compiled, by their shape (./recipes.ts). */
  private readonly recipes = new Recipes();

  constructor(
    private readonly env: CompileEnv,
    private readonly functions: FnTable,
  ) {}

  /** Forget compiled shapes: sheets, names or tables resolve differently after they change. */
  clear(): void {
    this.cache.clear();
    this.recipes.clear();
  }

  /**
   * Compiles a formula (with or without its "=") for the cell `at`. Refused formulas throw
   * REFUSED_FORMULA; a formula that does not parse throws BAD_FORMULA when `strict` (a write), and
   * otherwise (an import) compiles to #NAME? with its problem noted.
   */
  compile(formula: string, at: FormulaAt, options: CompileOptions): CompiledFormula {
    const source = displayForm(formula.startsWith("=") ? formula.slice(1) : formula);
    const legacy = options.legacy === true;
    const known = this.recipes.find(source, at, legacy);
    if (known !== null && "program" in known) return checked(source, known, options);
    const wanted = known !== null && known.template === undefined;
    const tokens = formulaTokens(source, legacy || wanted);
    const shape: string[] = [];
    const text: string[] = [];
    let scoped = false;
    for (const token of tokens) {
      refuseExternal(token, source);
      const [part, written, byScope] = this.piece(token, at, source);
      shape.push(part);
      text.push(written);
      scoped ||= byScope;
    }
    const key = `${shape.join("\u0001")}${scoped ? `\u0002${at.sid}` : ""}${legacy ? "\u0003" : ""}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.build(tokens, at, source, options);
      this.cache.set(key, entry);
    }
    if (entry.spots) {
      for (const [first, last, atomic] of entry.spots) {
        text[first] = `${atomic ? "@" : "@("}${text[first]}`;
        if (!atomic) text[last] += ")";
      }
      return this.compile(text.join(""), at, { strict: options.strict });
    }
    const compiled = { text: text.join(""), program: entry.program };
    if (known !== null)
      this.recipes.add(known, source, at, compiled, wanted ? tokens.map((token, i) => ({ token, written: text[i] as string })) : null);
    return checked(source, compiled, options);
  }

  /** A token's part of the shape, its normalized text, and whether its meaning depends on the formula's sheet. */
  private piece(token: Token, at: FormulaAt, source: string): [string, string, boolean] {
    if (token.type === "func") {
      const name = token.value.toUpperCase();
      const canonical = canonicalName(name);
      if (REFUSED_FUNCTIONS.has(canonical)) throw refused(source, `${canonical} reaches outside the workbook`);
      // Written as Excel shows it (without .xlsx's _xlfn.); not a function: a defined name holding a LAMBDA, which may be local to the sheet.
      return [canonical, canonical, !this.functions[canonical] && !SYNTAX.has(canonical)];
    }
    if (token.type === "range" || token.type === "range_beam") {
      const ref = parseRefToken(token.value);
      if (ref?.external) throw refused(source, "it references another workbook");
      if (ref && ref.threeD) {
        // The span by name (its sheets are found when compiling), the cells relative to the formula's cell as for any reference.
        const spec = specOf(ref, OWN_SHEET, at.row, at.col);
        return [`3d:${(ref.sheet as string).toLowerCase()}${shapeOf(spec, null)}`, formatRefToken(ref), false];
      }
      if (ref) {
        const spec = specOf(ref, ref.sheet === null ? OWN_SHEET : this.sheetOf(ref.sheet), at.row, at.col);
        return [shapeOf(spec, ref.sheet), formatRefToken(ref), false];
      }
    }
    if (token.type === "range_named") return [`name:${token.value.toLowerCase()}`, token.value, true];
    if (token.type === "structured") {
      const table = this.env.tableAt(at.sid, at.row, at.col);
      const resolved = resolveStructured(token.value, (name) => this.env.table(name), table);
      return [`struct:${JSON.stringify(resolved)}`, token.value, false];
    }
    return [`${token.type}:${token.value}`, token.value, false];
  }

  private sheetOf(name: string): number {
    const sid = this.env.sheetId(name);
    return sid < 0 ? NO_SHEET : sid;
  }

  private build(tokens: Token[], at: FormulaAt, source: string, options: CompileOptions): Entry {
    let ast: AstNode;
    try {
      ast = parseTokens(tokens);
    } catch (error) {
      return { program: failed(`it does not parse (${(error as Error).message})`), spots: null };
    }
    checkLinks(ast, source);
    if (options.legacy) {
      const spots = legacySpots(ast, tokens, { functions: this.functions, env: this.env, sid: at.sid });
      if (spots.length > 0) return { program: null, spots };
    }
    const c: NodeCompiler = {
      functions: this.functions,
      env: this.env,
      sid: at.sid,
      anchor: { row: at.row, col: at.col },
      cell: { row: at.row, col: at.col },
      fnName: canonicalName,
      unknown: [],
      refs: [],
      names: new Set(),
      volatile: false,
      scope: null,
      naming: new Map(),
    };
    try {
      const run = compileNode(ast, c);
      const outer = ast.type === "CallExpression" ? this.functions[canonicalName(ast.callee?.name ?? "")] : undefined;
      const program: Program = {
        run,
        refs: c.refs,
        unknown: c.unknown,
        names: [...c.names],
        problem: null,
        volatile: c.volatile,
        format: outer?.format ?? null,
        formatFrom: this.formatSource(ast, at),
        subtotal: tokens.some((t) => t.type === "func" && SUBTOTALS.has(canonicalName(t.value))),
      };
      return { program, spots: null };
    } catch (error) {
      if (error instanceof CompileProblem) return { program: failed(error.message), spots: null };
      throw error;
    }
  }

  /** "=A1+7", "=A1-B1": the result takes A1's format when A1 has a date format (Excel does so). */
  private formatSource(ast: AstNode, at: FormulaAt): RefSpec | null {
    let node: AstNode | null | undefined = ast;
    while (node && node.type === "BinaryExpression" && (node.operator === "+" || node.operator === "-")) node = node.arguments?.[0];
    if (node === ast || !node || node.type !== "ReferenceIdentifier" || node.kind !== "range") return null;
    const ref = parseRefToken(String(node.value));
    if (!ref || ref.external || ref.threeD) return null;
    return specOf(ref, ref.sheet === null ? OWN_SHEET : this.sheetOf(ref.sheet), at.row, at.col);
  }
}

/** A write refuses a formula that does not parse (an import keeps it, computing #NAME?). */
function checked(source: string, compiled: CompiledFormula, options: CompileOptions): CompiledFormula {
  if (options.strict && compiled.program.problem)
    throw new SheetsError("BAD_FORMULA", `The formula "=${source}" is not valid: ${compiled.program.problem}.`, { subject: `=${source}` });
  return compiled;
}

function failed(problem: string): Program {
  return { run: () => ERR.NAME, refs: [], unknown: [], names: [], problem, volatile: false, format: null, formatFrom: null };
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
  for (const d of node.declarations ?? []) checkLinks(d.init, source);
  if (node.body) checkLinks(node.body, source);
  if (node.callee && node.callee.type !== "Identifier") checkLinks(node.callee, source);
}
