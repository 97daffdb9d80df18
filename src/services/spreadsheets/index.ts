// Spreadsheets operations (docs/api.md "Spreadsheets"): the one implementation the operation
// table's rows run, on input the runner has validated with the row's schema (each method's input
// type is that schema's output). The list, the trash, share links and the version list are the one
// service lifecycle (../lifecycle.ts); records (a share link's reads too), cells, names and
// versions' content are in their own files, composed here.
import { serviceLifecycle, withDeps } from "../lifecycle.ts";
import { spreadsheetItems, toSpreadsheet, toVersion, type SheetsDeps } from "./access.ts";
import { appendRows, editSpreadsheet, evaluateFormula, readCells, writeRange } from "./cells.ts";
import { defineName, deleteName, listNames } from "./names.ts";
import { downloadVersion, readVersion, versionContent } from "./versions.ts";
import {
  createSpreadsheet,
  createSpreadsheetFromJson,
  downloadShared,
  downloadSpreadsheet,
  getSpreadsheet,
  importSpreadsheet,
  readShared,
} from "./workbooks.ts";

export { ManifestCache, RenderedCache } from "./stored.ts";
export { WarningsCache } from "./warnings.ts";

export type SpreadsheetsService = ReturnType<typeof createSpreadsheetsService>;

export function createSpreadsheetsService(deps: SheetsDeps) {
  return {
    ...serviceLifecycle(spreadsheetItems, deps, {
      record: (record) => toSpreadsheet(record, deps.publicUrl),
      version: toVersion,
      key: "spreadsheets",
      versionContent: (...args) => versionContent(deps, ...args),
    }),
    ...withDeps(deps, { create: createSpreadsheet, createFromJson: createSpreadsheetFromJson, import: importSpreadsheet }),
    ...withDeps(deps, { get: getSpreadsheet, read: readCells, evaluate: evaluateFormula, download: downloadSpreadsheet }),
    ...withDeps(deps, { write: writeRange, append: appendRows, edit: editSpreadsheet }),
    ...withDeps(deps, { readShared, downloadShared }),
    ...withDeps(deps, { names: listNames, defineName, deleteName }),
    ...withDeps(deps, { readVersion, downloadVersion }),
  };
}
