// Shared formulas (ECMA-376 Part 1, §18.3.1.40): the group's anchor cell holds the formula, the
// other cells of the group only its id; each of them means the anchor's formula with its relative
// references moved by the cell's offset from the anchor, as Excel fills a formula down or across.
// The anchor's formula is translated to relative R1C1 once (@borgar/fx's tokenizer, so strings,
// sheet names, defined names and structured references are left alone), then back to A1 at each
// cell. A reference moved off the sheet becomes #REF!, as in Excel.
import { stringifyTokens, tokenize, translateTokensToA1, translateTokensToR1C1, type Token } from "@borgar/fx/xlsx";
import { cellAddress } from "../../cells/cells.ts";
import type { FormulaEntry } from "./cell-store.ts";

const relative = new WeakMap<FormulaEntry, Token[]>();

/** The entry's formula as it reads at (row, column). */
export function shiftFormula(entry: FormulaEntry, row: number, column: number): string {
  let tokens = relative.get(entry);
  if (!tokens) {
    tokens = translateTokensToR1C1(tokenize(entry.text, { mergeRefs: true }), cellAddress(entry.row, entry.column));
    relative.set(entry, tokens);
  }
  return stringifyTokens(translateTokensToA1(tokens, cellAddress(row, column), { wrapEdges: false }));
}
