// Every function the engine computes, by canonical name (upper case, without _xlfn.).
import { DATES } from "./dates.ts";
import { DYNAMIC } from "./dynamic.ts";
import { FINANCE } from "./finance.ts";
import { INFO } from "./info.ts";
import { LAMBDAS } from "./lambda.ts";
import { LOGIC } from "./logic.ts";
import { LOOKUP } from "./lookup.ts";
import { MATH } from "./math.ts";
import { REFERENCE } from "./reference.ts";
import type { FnTable } from "./spec.ts";
import { STATS } from "./stats.ts";
import { TEXT } from "./text.ts";

export const FUNCTIONS: FnTable = Object.freeze({
  ...MATH,
  ...STATS,
  ...LOGIC,
  ...LOOKUP,
  ...TEXT,
  ...DATES,
  ...FINANCE,
  ...INFO,
  ...REFERENCE,
  ...DYNAMIC,
  ...LAMBDAS,
});

/** Functions newer than Excel 2007 that .xlsx stores with the "_xlfn." prefix (Excel shows #NAME? without it). */
export const FUTURE_FUNCTIONS = new Set([
  "XLOOKUP",
  "IFS",
  "SWITCH",
  "XOR",
  "CONCAT",
  "TEXTJOIN",
  "STDEV.S",
  "VAR.S",
  "IFNA",
  "DAYS",
  ..."XMATCH FILTER SORT SORTBY UNIQUE SEQUENCE TAKE DROP CHOOSEROWS CHOOSECOLS VSTACK HSTACK TOCOL TOROW WRAPROWS WRAPCOLS EXPAND".split(
    " ",
  ),
  ..."LET LAMBDA MAP REDUCE SCAN BYROW BYCOL MAKEARRAY ISOMITTED SINGLE ANCHORARRAY".split(" "),
]);

/** Of FUTURE_FUNCTIONS, those .xlsx stores as "_xlfn._xlws." (worksheet-only functions). */
export const WORKSHEET_FUNCTIONS = new Set(["FILTER", "SORT"]);
