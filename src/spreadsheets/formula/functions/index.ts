// Every function the engine computes, by canonical name (upper case, without _xlfn.).
import { AMORTIZATION } from "./amortization.ts";
import { ARITH } from "./arith.ts";
import { BONDS } from "./bonds.ts";
import { COUPONS } from "./coupons.ts";
import { SECURITIES } from "./securities.ts";
import { SHEET_INFO } from "./sheet-info.ts";
import { CALENDAR } from "./calendar.ts";
import { CHARACTERS } from "./characters.ts";
import { CONDITIONAL_EXTREMES } from "./conditional-extremes.ts";
import { DATABASE } from "./database.ts";
import { DEPRECIATION } from "./depreciation.ts";
import { FLOWS } from "./flows.ts";
import { INFORMATION } from "./information.ts";
import { LOANS } from "./loans.ts";
import { TEXT_SPLIT } from "./text-split.ts";
import { TEXT_VALUES } from "./text-values.ts";
import { WORKDAYS } from "./workdays.ts";
import { COMPLEX } from "./complex.ts";
import { CONTINUOUS } from "./continuous.ts";
import { CONVERT } from "./convert.ts";
import { DATES } from "./dates.ts";
import { DESCRIBE } from "./describe.ts";
import { DISCRETE } from "./discrete.ts";
import { DYNAMIC } from "./dynamic.ts";
import { ENGINEERING } from "./engineering.ts";
import { FINANCE } from "./finance.ts";
import { INFERENCE } from "./inference.ts";
import { INFO } from "./info.ts";
import { LAMBDAS } from "./lambda.ts";
import { LOGIC } from "./logic.ts";
import { LOOKUP } from "./lookup.ts";
import { MATH } from "./math.ts";
import { MATRIX } from "./matrix.ts";
import { NUMERALS } from "./numerals.ts";
import { RANDOM } from "./random.ts";
import { RANKING } from "./ranking.ts";
import { REFERENCE } from "./reference.ts";
import { REGRESSION } from "./regression.ts";
import type { FnTable } from "./spec.ts";
import { STATS } from "./stats.ts";
import { SUBTOTALS } from "./subtotal.ts";
import { TEXT } from "./text.ts";
import { TRIG } from "./trig.ts";

// LET, LAMBDA and ISOMITTED: compiled as syntax, so not in FUNCTIONS; the function table counts them.
export { SYNTAX_FUNCTIONS } from "./lambda.ts";

/** The Math & Trig, Statistical and Engineering functions added in Excel 2010 and later. */
const MATH_STATS_ENGINEERING_FUTURE = `BITAND BITLSHIFT BITOR BITRSHIFT BITXOR ERF.PRECISE ERFC.PRECISE IMCOSH IMCOT IMCSC IMCSCH IMSEC
  IMSECH IMSINH IMTAN ACOT ACOTH AGGREGATE ARABIC BASE CEILING.MATH CEILING.PRECISE COMBINA COT COTH CSC CSCH DECIMAL FLOOR.MATH
  FLOOR.PRECISE ISO.CEILING MUNIT RANDARRAY SEC SECH BETA.DIST BETA.INV BINOM.DIST BINOM.DIST.RANGE BINOM.INV CHISQ.DIST
  CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT CHISQ.TEST CONFIDENCE.NORM CONFIDENCE.T COVARIANCE.P COVARIANCE.S EXPON.DIST F.DIST
  F.DIST.RT F.INV F.INV.RT F.TEST FORECAST.LINEAR GAMMA GAMMA.DIST GAMMA.INV GAMMALN.PRECISE GAUSS HYPGEOM.DIST LOGNORM.DIST
  LOGNORM.INV MODE.MULT MODE.SNGL NEGBINOM.DIST NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV PERCENTILE.EXC PERCENTILE.INC
  PERCENTRANK.EXC PERCENTRANK.INC PERMUTATIONA PHI POISSON.DIST QUARTILE.EXC QUARTILE.INC RANK.AVG RANK.EQ SKEW.P STDEV.P T.DIST
  T.DIST.2T T.DIST.RT T.INV T.INV.2T T.TEST VAR.P WEIBULL.DIST Z.TEST`.split(/\s+/);

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
  ...REFERENCE,
  ...DYNAMIC,
  ...LAMBDAS,
  ...LOANS,
  ...DEPRECIATION,
  ...FLOWS,
  ...CHARACTERS,
  ...TEXT_VALUES,
  ...WORKDAYS,
  ...CALENDAR,
  ...INFORMATION,
  ...CONDITIONAL_EXTREMES,
  ...DATABASE,
  ...COUPONS,
  ...BONDS,
  ...SECURITIES,
  ...SHEET_INFO,
  ...TEXT_SPLIT,
  ...AMORTIZATION,
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
  ...MATH_STATS_ENGINEERING_FUTURE,
  ..."NETWORKDAYS.INTL WORKDAY.INTL ISOWEEKNUM PDURATION RRI NUMBERVALUE UNICHAR UNICODE MAXIFS MINIFS".split(" "),
  ..."TEXTBEFORE TEXTAFTER VALUETOTEXT ARRAYTOTEXT ISFORMULA FORMULATEXT SHEET SHEETS TEXTSPLIT ENCODEURL".split(" "),
  ..."LET LAMBDA MAP REDUCE SCAN BYROW BYCOL MAKEARRAY ISOMITTED SINGLE ANCHORARRAY".split(" "),
]);

/** In FUNCTIONS but not in Excel's list of functions: how .xlsx writes the "@" and "#" operators (shown as @x and A1#). */
export const OPERATOR_FUNCTIONS: ReadonlySet<string> = new Set(["SINGLE", "ANCHORARRAY"]);

/** Of FUTURE_FUNCTIONS, those .xlsx stores as "_xlfn._xlws." (worksheet-only functions). */
export const WORKSHEET_FUNCTIONS = new Set(["FILTER", "SORT"]);
