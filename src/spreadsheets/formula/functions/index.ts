// Every function the engine computes, by canonical name (upper case, without _xlfn.).
import { ARITH } from "./arith.ts";
import { COMPLEX } from "./complex.ts";
import { CONTINUOUS } from "./continuous.ts";
import { CONVERT } from "./convert.ts";
import { DATES } from "./dates.ts";
import { DESCRIBE } from "./describe.ts";
import { DISCRETE } from "./discrete.ts";
import { ENGINEERING } from "./engineering.ts";
import { FINANCE } from "./finance.ts";
import { INFERENCE } from "./inference.ts";
import { INFO } from "./info.ts";
import { LOGIC } from "./logic.ts";
import { LOOKUP } from "./lookup.ts";
import { MATH } from "./math.ts";
import { MATRIX } from "./matrix.ts";
import { NUMERALS } from "./numerals.ts";
import { RANDOM } from "./random.ts";
import { RANKING } from "./ranking.ts";
import { REGRESSION } from "./regression.ts";
import type { FnTable } from "./spec.ts";
import { STATS } from "./stats.ts";
import { SUBTOTALS } from "./subtotal.ts";
import { TEXT } from "./text.ts";
import { TRIG } from "./trig.ts";

export const FUNCTIONS: FnTable = Object.freeze({
  ...MATH,
  ...STATS,
  ...LOGIC,
  ...LOOKUP,
  ...TEXT,
  ...DATES,
  ...FINANCE,
  ...INFO,
  ...TRIG,
  ...ARITH,
  ...NUMERALS,
  ...RANDOM,
  ...DESCRIBE,
  ...RANKING,
  ...REGRESSION,
  ...CONTINUOUS,
  ...DISCRETE,
  ...INFERENCE,
  ...ENGINEERING,
  ...COMPLEX,
  ...CONVERT,
  ...SUBTOTALS,
  ...MATRIX,
});

/** Functions newer than Excel 2007 that .xlsx stores with the "_xlfn." prefix (Excel shows #NAME? without it). */
export const FUTURE_FUNCTIONS = new Set(["XLOOKUP", "IFS", "SWITCH", "XOR", "CONCAT", "TEXTJOIN", "STDEV.S", "VAR.S", "IFNA", "DAYS"]);
