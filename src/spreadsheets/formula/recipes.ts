// Formulas of one template (the text with its row numbers masked, so a filled-down column shares
// one) compiled without tokenizing them: the first of a template goes through the compiler's whole
// path, which leaves a recipe — which masked numbers are relative rows, and how the normalized text
// is made from the source. A later formula of the template whose masked numbers, as rows relative
// to its cell, its column and its sheet are those of one compiled before has that one's shape, so
// its Program, and its text from the recipe. Any other goes the whole way and is added.
import type { Token } from "@borgar/fx";
import type { Program } from "./program.ts";
import { parseRefToken } from "./refs.ts";

/** Row numbers as references write them: 1 to 1048576, no leading zero (no more than 7 digits). */
const MAX_ROW_NUMBER = 1_048_576;
/** Templates kept per compiler, and instances per template; bounded, emptied when full. */
const MAX_RECIPES = 4096;
const MAX_INSTANCES = 256;

/** The masked numbers of the text last scanned: where each starts and ends, and its value. */
interface Runs {
  count: number;
  starts: number[];
  ends: number[];
  values: number[];
}

/** Where a formula is (compile.ts FormulaAt). */
type FormulaAt = { sid: number; row: number; col: number };

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Finds the text's masked numbers (each number after a letter or "$" that is a valid row number, as
 * the tokenizer's templates mask them, formula/tokens.ts) into `runs`, and returns a hash of its
 * template (the text with them masked); -1 for a text holding a NUL, whose template could be
 * another's. No template string is made: two texts have one template when they have the same
 * length, their numbers at the same places and the same characters elsewhere (`sameTemplate`).
 */
function scan(text: string, runs: Runs): number {
  let hash = 0x811c9dc5 ^ text.length;
  runs.count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return -1;
    if (!isDigit(c)) {
      hash = Math.imul(hash ^ c, 0x01000193);
      continue;
    }
    let end = i;
    let value = 0;
    for (; end < text.length; end++) {
      const d = text.charCodeAt(end);
      if (!isDigit(d)) break;
      if (end - i < 8) value = value * 10 + d - 48;
    }
    const before = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (c !== 48 && end - i <= 7 && (isLetter(before) || before === 36) && value <= MAX_ROW_NUMBER) {
      const n = runs.count++;
      runs.starts[n] = i;
      runs.ends[n] = end;
      runs.values[n] = value;
      hash = Math.imul(hash ^ (end - i), 0x01000193);
    } else for (let k = i; k < end; k++) hash = Math.imul(hash ^ text.charCodeAt(k), 0x01000193);
    i = end - 1;
  }
  return hash & 0x3fffffff;
}

/** A template as kept: a text of it with its masked numbers, and its recipe. */
interface Template {
  sample: string;
  starts: number[];
  ends: number[];
  legacy: boolean;
  recipe: Recipe | typeof NONE;
}

/** Whether the text scanned into `runs` has the template's. */
function sameTemplate(template: Template, text: string, runs: Runs, legacy: boolean): boolean {
  const { sample } = template;
  if (template.legacy !== legacy || sample.length !== text.length || template.starts.length !== runs.count) return false;
  let from = 0;
  for (let n = 0; n <= runs.count; n++) {
    const to = n < runs.count ? (runs.starts[n] as number) : text.length;
    if (n < runs.count && (template.starts[n] !== to || template.ends[n] !== runs.ends[n])) return false;
    for (let i = from; i < to; i++) if (text.charCodeAt(i) !== sample.charCodeAt(i)) return false;
    from = n < runs.count ? (runs.ends[n] as number) : to;
  }
  return true;
}

function countDigits(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (isDigit(text.charCodeAt(i))) count++;
  return count;
}

/** A token (with its location in "=" + source) and what the compiler wrote for it. */
export interface Written {
  token: Token;
  written: string;
}

class Recipe {
  /** Per masked number: true for a relative row (its value less the formula's row identifies the shape). */
  readonly relative: boolean[];
  /** The text: constant pieces and [start, end) slices of the source; null when it is the source itself (most are). */
  readonly pieces: (string | [number, number])[] | null;
  private readonly programs = new Map<string, Program>();
  private last: { col: number; sid: number; key: number[]; program: Program } | null = null;

  constructor(relative: boolean[], pieces: (string | [number, number])[] | null) {
    this.relative = relative;
    this.pieces = pieces;
  }

  /** The numbers that, with the column and sheet, identify the shape of the formula scanned into `runs`. */
  private keyOf(runs: Runs, row: number): number[] {
    const key = new Array<number>(runs.count);
    for (let n = 0; n < runs.count; n++) key[n] = (runs.values[n] as number) - (this.relative[n] ? row : 0);
    return key;
  }

  find(runs: Runs, at: FormulaAt): Program | undefined {
    const last = this.last;
    if (last && last.col === at.col && last.sid === at.sid) {
      let same = true;
      for (let n = 0; n < runs.count && same; n++) same = (runs.values[n] as number) - (this.relative[n] ? at.row : 0) === last.key[n];
      if (same) return last.program;
    }
    const key = this.keyOf(runs, at.row);
    const program = this.programs.get(`${at.col},${at.sid},${key.join(",")}`);
    if (program) this.last = { col: at.col, sid: at.sid, key, program };
    return program;
  }

  add(runs: Runs, at: FormulaAt, program: Program): void {
    if (this.programs.size >= MAX_INSTANCES) this.programs.clear();
    const key = this.keyOf(runs, at.row);
    this.programs.set(`${at.col},${at.sid},${key.join(",")}`, program);
    this.last = { col: at.col, sid: at.sid, key, program };
  }

  text(source: string): string {
    if (!this.pieces) return source;
    let text = "";
    for (const piece of this.pieces) text += typeof piece === "string" ? piece : source.slice(piece[0], piece[1]);
    return text;
  }
}

/** The recipe of a template that cannot have one: its formulas always go the compiler's whole way. */
const NONE = "none";

/**
 * How a template's masked numbers and text are read, from its first formula's tokens (with their
 * locations in "=" + source) and what the compiler wrote for each; null when the text cannot be
 * made from the source this way. A masked number inside a cell or range reference's address is its
 * row: relative after a column letter, absolute after "$". Any other (in a sheet's name, a string,
 * a function's name) identifies the shape by its value, as its token's text does.
 */
function recipeOf(source: string, runs: Runs, tokens: Written[]): Recipe | null {
  const relative = new Array<boolean>(runs.count).fill(false);
  const pieces: (string | [number, number])[] = [];
  // Whether the tokens cover the source end to end, each written as it is: the text is then the source.
  let identity = true;
  let covered = 0;
  let n = 0;
  for (const { token, written } of tokens) {
    // A structured reference means what the table around the formula's cell makes it: not one shape per template.
    const loc = token.loc;
    if (!loc || token.type === "structured") return null;
    const start = (loc[0] as number) - 1;
    const end = (loc[1] as number) - 1;
    const raw = source.slice(start, end);
    identity &&= start === covered && written === raw;
    covered = end;
    const address = start + raw.lastIndexOf("!") + 1;
    const reference = (token.type === "range" || token.type === "range_beam") && parseRefToken(token.value) !== null;
    while (n < runs.count && (runs.ends[n] as number) <= start) n++;
    let masked = false;
    let digits = 0;
    for (let m = n; m < runs.count && (runs.starts[m] as number) < end; m++) {
      masked = true;
      const from = runs.starts[m] as number;
      const to = runs.ends[m] as number;
      if (from < address || to > end) continue;
      digits += to - from;
      if (reference && isLetter(source.charCodeAt(from - 1))) relative[m] = true;
    }
    // A row number the template keeps ("ROWS(3:4)", "A01") may be relative: its shape is not the template's alone.
    if (reference && digits !== countDigits(source, address, end)) return null;
    // A token without masked numbers is the same in every formula of the template; one with them is copied from each.
    if (!masked) pieces.push(written);
    else if (written === raw) pieces.push([start, end]);
    else return null;
  }
  return new Recipe(relative, identity && covered === source.length ? null : pieces);
}

/** A formula's template looked up: its hash, and the template when one was kept. */
export interface Lookup {
  hash: number;
  legacy: boolean;
  template: Template | undefined;
}

/** A compiler's recipes by template. */
export class Recipes {
  /** Templates by hash (one, or the few sharing a hash). */
  private readonly byHash = new Map<number, Template | Template[]>();
  private count = 0;
  private readonly runs: Runs = { count: 0, starts: [], ends: [], values: [] };

  clear(): void {
    this.byHash.clear();
    this.count = 0;
  }

  private template(hash: number, source: string, legacy: boolean): Template | undefined {
    const kept = this.byHash.get(hash);
    if (kept === undefined) return undefined;
    if (!Array.isArray(kept)) return sameTemplate(kept, source, this.runs, legacy) ? kept : undefined;
    return kept.find((t) => sameTemplate(t, source, this.runs, legacy));
  }

  /**
   * The formula's text and Program from its template's recipe, when one of the same shape was
   * compiled; otherwise its template looked up, for `add` (null: it has none).
   */
  find(source: string, at: FormulaAt, legacy: boolean): { text: string; program: Program } | Lookup | null {
    const hash = scan(source, this.runs);
    if (hash < 0) return null;
    const template = this.template(hash, source, legacy);
    const recipe = template?.recipe;
    const program = recipe === undefined || recipe === NONE ? undefined : recipe.find(this.runs, at);
    return program ? { text: (recipe as Recipe).text(source), program } : { hash, legacy, template };
  }

  /** A formula compiled the whole way (`text` what the compiler wrote): its Program kept for its shape, and its template's recipe made from `tokens` when it has none. */
  add(lookup: Lookup, source: string, at: FormulaAt, compiled: { text: string; program: Program }, tokens: Written[] | null): void {
    scan(source, this.runs);
    let template = lookup.template;
    if (template === undefined) {
      if (!tokens || source.startsWith("=")) return;
      const made = recipeOf(source, this.runs, tokens);
      const n = this.runs.count;
      template = {
        sample: source,
        starts: this.runs.starts.slice(0, n),
        ends: this.runs.ends.slice(0, n),
        legacy: lookup.legacy,
        recipe: made && made.text(source) === compiled.text ? made : NONE,
      };
      if (this.count >= MAX_RECIPES) this.clear();
      const kept = this.byHash.get(lookup.hash);
      this.byHash.set(lookup.hash, kept === undefined ? template : Array.isArray(kept) ? [...kept, template] : [kept, template]);
      this.count++;
    }
    if (template.recipe !== NONE) template.recipe.add(this.runs, at, compiled.program);
  }
}
