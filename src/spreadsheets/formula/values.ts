// What a formula computes with: scalars (number, text, boolean, an error, null for an empty cell),
// references to a rectangle of cells (RangeValue: not yet read, so functions can tell a reference
// from a value, as Excel's SUM does) and arrays (from {1,2;3,4} or an operation on a range).
import type { CellError, ErrorValue } from "../cells/types.ts";
import type { EvalContext } from "./context.ts";
import { ERROR_VALUES } from "../cells/types.ts";

/** An error value. One frozen instance per error, so `===` compares them. */
export class FormulaError implements CellError {
  constructor(readonly error: ErrorValue) {
    Object.freeze(this);
  }
  toJSON(): CellError {
    return { error: this.error };
  }
}

const ERRORS = new Map(ERROR_VALUES.map((code) => [code, new FormulaError(code)]));
export const errorOf = (code: ErrorValue): FormulaError => ERRORS.get(code) as FormulaError;
export const ERR = {
  NULL: errorOf("#NULL!"),
  DIV0: errorOf("#DIV/0!"),
  VALUE: errorOf("#VALUE!"),
  REF: errorOf("#REF!"),
  NAME: errorOf("#NAME?"),
  NUM: errorOf("#NUM!"),
  NA: errorOf("#N/A"),
  SPILL: errorOf("#SPILL!"),
  CALC: errorOf("#CALC!"),
} as const;
/** Index of each error in ERROR_VALUES, the compact code the grid and tiles store. */
export const errorCode = (error: FormulaError): number => ERROR_VALUES.indexOf(error.error);
export const errorFromCode = (code: number): FormulaError => errorOf(ERROR_VALUES[code] ?? "#VALUE!");

export type Scalar = number | string | boolean | FormulaError | null;

/**
 * A reference to cells of one sheet (sid: the model's sheet id), as written: not clipped to the used
 * range. A reference of several areas (a 3-D reference Sheet1:Sheet3!A1, a union (A1,C1:C3)) is the
 * first area with all of them in `areas`: only functions that take such references see one (the
 * compiler gives the others #VALUE!, and spreads the areas into separate arguments for SUM and kin).
 */
export class RangeValue {
  constructor(
    readonly sid: number,
    readonly top: number,
    readonly left: number,
    readonly bottom: number,
    readonly right: number,
    readonly areas: readonly RangeValue[] | null = null,
  ) {}
  /** A reference of several areas (at least one). */
  static of(areas: readonly RangeValue[]): RangeValue {
    const first = areas[0] as RangeValue;
    return areas.length === 1 ? first : new RangeValue(first.sid, first.top, first.left, first.bottom, first.right, areas);
  }
  get rows(): number {
    return this.bottom - this.top + 1;
  }
  get columns(): number {
    return this.right - this.left + 1;
  }
  get single(): boolean {
    return this.top === this.bottom && this.left === this.right;
  }
}

export type ArrayValue = Scalar[][];
export type Value = Scalar | RangeValue | ArrayValue;

/**
 * A LAMBDA's value: its parameters, its compiled body, and the LET/LAMBDA variables it closes over.
 * It only reaches the functions that call it (MAP, REDUCE …); anywhere else it is #CALC!, as in Excel.
 */
export class LambdaValue {
  constructor(
    readonly params: number,
    readonly body: (ctx: EvalContext) => Value,
    readonly frame: Frame | null,
  ) {}
}

/** LET and LAMBDA variables in scope while a formula runs: one frame per LET or call, linked outwards. */
export interface Frame {
  values: unknown[];
  parent: Frame | null;
}

/** A LAMBDA argument left out (`=F(1,)`): ISOMITTED tells it apart; elsewhere it reads as an empty value. */
export const OMITTED: unique symbol = Symbol("omitted");

export const isError = (v: unknown): v is FormulaError => v instanceof FormulaError;
export const isLambda = (v: unknown): v is LambdaValue => v instanceof LambdaValue;
export const isRange = (v: unknown): v is RangeValue => v instanceof RangeValue;
export const isArray = (v: unknown): v is ArrayValue => Array.isArray(v);

/** Thrown when a formula reads a formula cell not yet computed: the recalculation computes that first. */
export class NeedCell {
  constructor(readonly cell: unknown) {}
}
