// What a formula uses, read from its tokens (@borgar/fx, as the engine tokenizes): its functions in
// the order they are written (the outermost first), their categories, the workbook features it
// relies on, and the cell ranges it reads (so that a wrong value can be traced to a wrong precedent).
import { parseA1Ref, tokenize } from "@borgar/fx";
import { canonicalFunction, EXCEL_FUNCTIONS, VOLATILE, type Category } from "./categories.ts";

export const FEATURES = [
  "defined names",
  "structured table refs",
  "3-D refs",
  "external links",
  "implicit intersection (@)",
  "array (CSE) formulas",
  "data tables",
  "volatile",
] as const;
export type Feature = (typeof FEATURES)[number];

/** The category of a cell whose formula calls no function (operators and references only). */
export const NO_FUNCTION = "No function (operators, references)";
/** The category of a function Excel does not have (an add-in's, or a misspelling). */
export const NOT_EXCEL = "Not an Excel function";
export type CellCategory = Category | typeof NO_FUNCTION | typeof NOT_EXCEL;

export interface RangeRead {
  /** Sheet name as written (undefined: the formula's own sheet). */
  sheet: string | undefined;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface FormulaAnalysis {
  /** Canonical names, each once, in order of first appearance. */
  functions: string[];
  categories: CellCategory[];
  features: Feature[];
  reads: RangeRead[];
  /** Set when the formula cannot be tokenized. */
  unreadable?: string;
}

const LAST_ROW = 1_048_575;
const LAST_COLUMN = 16_383;

function readOf(token: string): RangeRead | "3-D refs" | "external links" | undefined {
  const ref = parseA1Ref(token);
  if (!ref || !("range" in ref) || !ref.range) return undefined;
  const context = ref.context ?? [];
  if (context.length > 1) return "external links";
  if (context[0]?.includes(":")) return "3-D refs";
  const { top, left, bottom, right } = ref.range;
  return { sheet: context[0], top: top ?? 0, left: left ?? 0, bottom: bottom ?? LAST_ROW, right: right ?? LAST_COLUMN };
}

/** `kind` is the <f> element's t attribute (array, dataTable, shared, normal). */
export function analyseFormula(formula: string, kind = "normal"): FormulaAnalysis {
  const functions: string[] = [];
  const features = new Set<Feature>();
  const reads: RangeRead[] = [];
  if (kind === "array") features.add("array (CSE) formulas");
  if (kind === "dataTable") features.add("data tables");
  let tokens: ReturnType<typeof tokenize>;
  try {
    tokens = tokenize(`=${formula}`, { mergeRefs: true, allowTernary: true });
  } catch (failure) {
    return { functions, categories: [NO_FUNCTION], features: [...features], reads, unreadable: String(failure) };
  }
  for (const token of tokens) {
    const value = String(token.value);
    if (token.type === "func") {
      const name = canonicalFunction(value);
      if (!functions.includes(name)) functions.push(name);
      if (VOLATILE.has(name)) features.add("volatile");
    } else if (token.type === "range_named") features.add("defined names");
    else if (token.type === "structured") features.add("structured table refs");
    else if (token.type === "operator" && value === "@") features.add("implicit intersection (@)");
    else if (token.type === "range" || token.type === "range_beam" || token.type === "range_ternary") {
      const read = readOf(value);
      if (typeof read === "string") features.add(read);
      else if (read) reads.push(read);
    }
  }
  const categories = [...new Set(functions.map((f): CellCategory => EXCEL_FUNCTIONS.get(f) ?? NOT_EXCEL))];
  return { functions, categories: categories.length ? categories : [NO_FUNCTION], features: [...features], reads };
}
