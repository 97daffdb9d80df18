// The large mixed workbook of issue 38's recalculation bench: 202,000 formula cells over lookup, text,
// math, date and criteria functions that our engine, LibreOffice Calc and IronCalc all have (no
// XLOOKUP: Calc 7.4 lacks it). Data (20,000 rows of ids, names, regions, amounts, dates, codes),
// Rates (a 1,000-row table to look up in), Calc (20,000 rows × 10 formulas, each row reading its
// Data row, some reading the row's earlier results) and Summary (1,000 rows of COUNTIFS and
// AVERAGEIF over whole 20,000-row columns). Written without cached values, so every reader computes.
import type { Cell, SheetData, WorkbookData } from "../src/spreadsheets/cells/types.ts";
import { writeXlsx } from "../src/spreadsheets/io/xlsx/write.ts";

export const DATA_ROWS = 20_000;
const RATES = 1_000;
const SUMMARY = 1_000;

/** Calc's ten formulas for sheet row `r` (1-based, 2…20,001), by column A…J. */
const CALC = (r: number): string[] => [
  `INDEX(Rates!$B$2:$B$${RATES + 1},MATCH(Data!F${r},Rates!$A$2:$A$${RATES + 1},0))`,
  `VLOOKUP(Data!D${r}*10,Rates!$C$2:$D$${RATES + 1},2,TRUE)`,
  `UPPER(LEFT(Data!B${r},4))&"-"&TEXT(Data!A${r},"00000")`,
  `LEN(SUBSTITUTE(Data!B${r}," ",""))+FIND("m",Data!B${r})`,
  `ROUND(Data!D${r}*A${r}+SQRT(Data!A${r}),2)`,
  `MOD(Data!A${r}*31,97)+INT(Data!D${r}/3)-ABS(E${r}-100)`,
  `YEAR(Data!E${r})*100+MONTH(EOMONTH(Data!E${r},1))`,
  `WEEKDAY(Data!E${r},2)+DAY(Data!E${r}+30)`,
  `COUNTIF(Data!$C$2:$C$1001,Data!C${r})`,
  `SUMIFS(Data!$D$2:$D$1001,Data!$C$2:$C$1001,Data!C${r},Data!$D$2:$D$1001,">"&F${r})`,
];

const SUMMARY_FORMULAS = (): string[] => [
  `COUNTIFS(Data!$C$2:$C$${DATA_ROWS + 1},"region "&MOD(ROW(),50),Data!$D$2:$D$${DATA_ROWS + 1},">"&ROW()/10)`,
  `AVERAGEIF(Calc!$I$2:$I$${DATA_ROWS + 1},">"&MOD(ROW(),30))`,
];

export const FORMULA_CELLS = DATA_ROWS * CALC(2).length + SUMMARY * SUMMARY_FORMULAS().length;

const text = (value: string): Cell => ({ value });
const number = (value: number, numFmt?: string): Cell => ({ value, ...(numFmt ? { numFmt } : {}) });
const formula = (f: string): Cell => ({ value: null, formula: f });

function sheet(name: string, header: string[], rows: number, row: (r: number) => Cell[]): SheetData {
  return {
    name,
    *rows() {
      yield [0, header.map(text)];
      for (let r = 2; r <= rows + 1; r++) yield [r - 1, row(r)];
    },
  };
}

export function recalcWorkbook(): WorkbookData {
  return {
    sheets: [
      sheet("Data", ["id", "name", "region", "amount", "date", "code"], DATA_ROWS, (r) => [
        number(r - 1),
        text(`item ${r - 1} name`),
        text(`region ${(r * 7) % 50}`),
        number(((r * 7919) % 10_000) / 100),
        number(44_927 + ((r * 37) % 1_500), "yyyy-mm-dd"),
        text(`C${(r * 13) % RATES}`),
      ]),
      sheet("Rates", ["code", "rate", "threshold", "label"], RATES, (r) => [
        text(`C${r - 2}`),
        number(1 + ((r * 17) % 100) / 1_000),
        number((r - 2) * 10),
        text(`band ${Math.floor((r - 2) / 10)}`),
      ]),
      sheet("Calc", ["lookup", "band", "key", "length", "value", "mix", "period", "day", "count", "sum"], DATA_ROWS, (r) =>
        CALC(r).map(formula),
      ),
      sheet("Summary", ["countifs", "averageif"], SUMMARY, () => SUMMARY_FORMULAS().map(formula)),
    ],
  };
}

export const recalcWorkbookXlsx = (): Promise<Uint8Array> => writeXlsx(recalcWorkbook(), { title: "recalc", modified: new Date(0) });
