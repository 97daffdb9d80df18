// What a formula computes with: scalars (number, text, boolean, an error, null for an empty cell),
// references to a rectangle of cells (RangeValue: not yet read, so functions can tell a reference
// from a value, as Excel's SUM does) and arrays (from {1,2;3,4} or an operation on a range).
import type { CellError, ErrorValue } from "../types.ts";
import { ERROR_VALUES } from "../types.ts";

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
  CALC: errorOf("#CALC!"),
} as const;
/** Index of each error in ERROR_VALUES, the compact code the grid and tiles store. */
export const errorCode = (error: FormulaError): number => ERROR_VALUES.indexOf(error.error);
export const errorFromCode = (code: number): FormulaError => errorOf(ERROR_VALUES[code] ?? "#VALUE!");

export type Scalar = number | string | boolean | FormulaError | null;

/** A reference to cells of one sheet (sid: the model's sheet id), as written: not clipped to the used range. */
export class RangeValue {
  constructor(
    readonly sid: number,
    readonly top: number,
    readonly left: number,
    readonly bottom: number,
    readonly right: number,
  ) {}
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

export const isError = (v: unknown): v is FormulaError => v instanceof FormulaError;
export const isRange = (v: unknown): v is RangeValue => v instanceof RangeValue;
export const isArray = (v: unknown): v is ArrayValue => Array.isArray(v);

/** Thrown when a formula reads a formula cell not yet computed: the recalculation computes that first. */
export class NeedCell {
  constructor(readonly cell: unknown) {}
}
