// Excel's bound on text inside a formula: no text value may pass 32,767 characters; a function or an
// operator that would make a longer one gives #VALUE! (REPT, SUBSTITUTE, CONCAT, TEXTJOIN, `&` …).
// The check is made before the text is built wherever its length is known in advance, so no
// formula ever asks V8 for a string it cannot make (a RangeError, once a 500). The characters a
// formula makes are charged to its budget as steps: making text is work, and text held in arrays
// is memory.
import { MAX_CELL_TEXT } from "../cells/types.ts";
import type { EvalContext } from "./context.ts";
import { ERR, type FormulaError } from "./values.ts";

/** The longest text a formula may make: 32,767 characters, as a cell holds. */
export const MAX_TEXT = MAX_CELL_TEXT;

/** Text from a function or an operator: #VALUE! past MAX_TEXT, its characters charged to the budget. */
export function textOut(text: string, ctx: EvalContext): string | FormulaError {
  if (text.length > MAX_TEXT) return ERR.VALUE;
  if (text.length > 0) ctx.step(text.length);
  return text;
}

/** `a & b`, refused (#VALUE!) before the concatenation when it would pass MAX_TEXT. */
export const concatText = (a: string, b: string): string | FormulaError => (a.length + b.length > MAX_TEXT ? ERR.VALUE : a + b);

/**
 * Joins texts with a separator as they come, stopping (#VALUE!) the moment the result would pass
 * MAX_TEXT: a join over a million cells never builds more than 32,767 characters.
 */
export class TextJoin {
  private parts: string[] = [];
  private length = 0;
  over = false;

  constructor(private readonly separator = "") {}

  add(text: string): void {
    if (this.over) return;
    this.length += text.length + (this.parts.length > 0 ? this.separator.length : 0);
    if (this.length > MAX_TEXT) {
      this.over = true;
      this.parts = [];
    } else this.parts.push(text);
  }

  result(): string | FormulaError {
    return this.over ? ERR.VALUE : this.parts.join(this.separator);
  }
}
