// IronCalc (@ironcalc/wasm, MIT/Apache-2.0) driven from Node. Its npm package is the engine without
// the .xlsx reader, so a workbook is handed to it cell by cell: sheets by name, the workbook's defined
// names (from xl/workbook.xml), every constant (text with a leading apostrophe, so that it stays
// text) and every formula, as our reader (readXlsx) reads them; then one full evaluation. Table
// (ListObject) definitions cannot be given through its API, so structured references fail there.
// Values are read back through a scientific number format on each formula cell (its General format
// shows nine decimals), which keeps 15 significant digits.
import { Worker } from "node:worker_threads";
import { strFromU8, unzipSync } from "fflate";
import { readXlsx } from "../../src/spreadsheets/io/xlsx/read.ts";
import type { WorkbookData } from "../../src/spreadsheets/cells/types.ts";
import { decodeXml } from "../../test/spreadsheets/excel-corpus/cells.ts";
import { cellKey, type EngineResult, type Got } from "../../test/spreadsheets/excel-corpus/score.ts";
import { cellAddress } from "../../src/spreadsheets/cells/cells.ts";

export interface IronModel {
  pauseEvaluation(): void;
  resumeEvaluation(): void;
  evaluate(): void;
  newSheet(): void;
  renameSheet(sheet: number, name: string): void;
  newDefinedName(name: string, scope: number | null | undefined, formula: string): void;
  setUserInput(sheet: number, row: number, column: number, input: string): void;
  updateRangeStyle(area: { sheet: number; row: number; column: number; width: number; height: number }, path: string, value: string): void;
  getCellType(sheet: number, row: number, column: number): number;
  getFormattedCellValue(sheet: number, row: number, column: number): string;
  free(): void;
}
export type IronModelClass = new (name: string, locale: string, tz: string, lang: string) => IronModel;

const PRECISE = "0.00000000000000E+00";

/** The workbook's defined names: name, the sheet index it is local to (or null), and its formula. */
function definedNames(bytes: Uint8Array): [string, number | null, string][] {
  const xml = strFromU8(unzipSync(bytes, { filter: (f) => f.name === "xl/workbook.xml" })["xl/workbook.xml"] ?? new Uint8Array());
  return [...xml.matchAll(/<definedName\b([^>]*)>([\s\S]*?)<\/definedName>/g)].flatMap(([, attributes, text]) => {
    const name = /\bname="([^"]*)"/.exec(attributes!)?.[1];
    const local = /\blocalSheetId="(\d+)"/.exec(attributes!)?.[1];
    if (!name || name.startsWith("_xlnm.")) return [];
    return [[decodeXml(name), local === undefined ? null : Number(local), decodeXml(text!)] as [string, number | null, string]];
  });
}

const input = (value: unknown): string | undefined =>
  value === null || value === undefined
    ? undefined
    : typeof value === "string"
      ? `'${value}`
      : typeof value === "boolean"
        ? value
          ? "TRUE"
          : "FALSE"
        : typeof value === "number"
          ? String(value)
          : (value as { error: string }).error;

/** Loads WorkbookData into a fresh IronCalc model (evaluation paused); returns the formula cells' positions. */
export function loadIronCalc(
  Model: IronModelClass,
  data: WorkbookData,
  names: [string, number | null, string][] = [],
): { model: IronModel; formulas: [number, number, number, string][] } {
  const model = new Model("workbook", "en", "UTC", "en");
  model.pauseEvaluation();
  data.sheets.forEach((sheet, i) => {
    if (i > 0) model.newSheet();
    model.renameSheet(i, sheet.name);
  });
  for (const [name, scope, formula] of names) {
    try {
      model.newDefinedName(name, scope, formula);
    } catch {
      // A name IronCalc refuses stays undefined there: its formulas show #NAME?.
    }
  }
  const formulas: [number, number, number, string][] = [];
  data.sheets.forEach((sheet, s) => {
    for (const [row, cells] of sheet.rows()) {
      cells.forEach((cell, column) => {
        if (!cell) return;
        const text = cell.formula !== undefined ? `=${cell.formula}` : input(cell.value);
        if (text === undefined) return;
        try {
          model.setUserInput(s, row + 1, column + 1, text);
        } catch {
          return;
        }
        if (cell.formula !== undefined) formulas.push([s, row + 1, column + 1, `${sheet.name}!${cellAddress(row, column)}`]);
      });
    }
  });
  return { model, formulas };
}

/** What IronCalc shows in a cell, as a value. */
export function ironValue(model: IronModel, sheet: number, row: number, column: number): Got {
  const shown = model.getFormattedCellValue(sheet, row, column);
  switch (model.getCellType(sheet, row, column)) {
    case 1: {
      const n = Number(shown);
      return Number.isFinite(n) ? n : shown;
    }
    case 2:
      return shown;
    case 4:
      return shown === "TRUE";
    case 16:
      return { error: shown };
    default:
      return null;
  }
}

/** One corpus workbook through IronCalc: every formula cell's value after a full evaluation. */
export function ironCalcWorkbook(Model: IronModelClass, bytes: Uint8Array): EngineResult {
  const values = new Map<string, Got>();
  let data: WorkbookData;
  try {
    data = readXlsx(bytes);
  } catch (failure) {
    return { values, failed: `our reader, which feeds IronCalc, refused it: ${String(failure)}` };
  }
  const { model, formulas } = loadIronCalc(Model, data, definedNames(bytes));
  try {
    for (const [s, row, column] of formulas) model.updateRangeStyle({ sheet: s, row, column, width: 1, height: 1 }, "num_fmt", PRECISE);
    model.resumeEvaluation();
    model.evaluate();
    for (const [s, row, column, at] of formulas) {
      const [sheet, address] = [at.slice(0, at.lastIndexOf("!")), at.slice(at.lastIndexOf("!") + 1)];
      values.set(cellKey(sheet, address), ironValue(model, s, row, column));
    }
    return { values };
  } catch (failure) {
    return { values, failed: `IronCalc: ${String(failure)}` };
  } finally {
    model.free();
  }
}

/** ironCalcWorkbook in a worker thread, given up after a time (then every cell counts as not computed). */
export class IronCalcWorker {
  private worker: Worker | undefined;

  constructor(private readonly peers: string) {}

  run(file: string, seconds: number): Promise<EngineResult> {
    const worker = (this.worker ??= new Worker(new URL("./ironcalc-worker.ts", import.meta.url), { workerData: { peers: this.peers } }));
    return new Promise((resolve) => {
      const done = (result: EngineResult, restart: boolean) => {
        clearTimeout(timer);
        worker.removeAllListeners("message").removeAllListeners("error");
        if (restart) {
          void worker.terminate();
          this.worker = undefined;
        }
        resolve(result);
      };
      const timer = setTimeout(() => done({ values: new Map(), failed: `IronCalc took more than ${seconds} s` }, true), seconds * 1000);
      worker.once("message", (message: { values: [string, Got][]; failed?: string }) =>
        done({ values: new Map(message.values), ...(message.failed ? { failed: message.failed } : {}) }, false),
      );
      worker.once("error", (error: Error) => done({ values: new Map(), failed: `IronCalc worker: ${error.message}` }, true));
      worker.postMessage(file);
    });
  }

  close(): Promise<number> | undefined {
    return this.worker?.terminate();
  }
}
