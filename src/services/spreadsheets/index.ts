// Spreadsheets operations (docs/api.md "Spreadsheets"): the one implementation the operation
// table's rows run. Records, cells, versions and share links are in their own files, composed here.
import type { RequestContext } from "../../core/context.ts";
import type { DocumentShare } from "../../contract/documents.ts";
import type { StoredDownload } from "../../contract/files.ts";
import type {
  CellRange,
  CellRangeText,
  Spreadsheet,
  SpreadsheetList,
  SpreadsheetVersionList,
  SpreadsheetWithWarnings,
  WriteResult,
} from "../../contract/spreadsheets.ts";
import type { EditOperation } from "../../spreadsheets/edits.ts";
import type { InputMode, JsonCellInput, JsonCellValue, RenderMode } from "../../spreadsheets/values.ts";
import type { WorkbookRecord } from "../../store/types.ts";
import type { SheetsDeps } from "./access.ts";
import { changeCells, evaluateFormula, readCells, type ReadInput } from "./cells.ts";
import {
  downloadSharedSpreadsheet,
  listShares,
  readSharedSpreadsheet,
  revokeShare,
  shareSpreadsheet,
  type SharedSpreadsheet,
} from "./shares.ts";
import { defineName, deleteName, listNames } from "./names.ts";
import { downloadVersion, listVersions, readVersion, restoreVersion } from "./versions.ts";
import {
  createSpreadsheet,
  deleteSpreadsheet,
  downloadSpreadsheet,
  getSpreadsheet,
  importSpreadsheet,
  listSpreadsheets,
  purgeSpreadsheet,
  renameSpreadsheet,
  restoreSpreadsheet,
} from "./workbooks.ts";

export type { SheetsDeps } from "./access.ts";
export { ManifestCache, RenderedCache } from "./stored.ts";
export { WarningsCache } from "./warnings.ts";
export type { SharedSpreadsheet } from "./shares.ts";

type Ctx = RequestContext;
type Expected = { expectedVersion?: number | undefined };

export interface SpreadsheetsService {
  list(ctx: Ctx, input: { query?: string | undefined; limit: number; cursor?: string | undefined }): Promise<SpreadsheetList>;
  trash(ctx: Ctx, input: { query?: string | undefined; limit: number; cursor?: string | undefined }): Promise<SpreadsheetList>;
  /** The record with the spreadsheet's warnings (describe). */
  get(ctx: Ctx, input: { id: string }): Promise<SpreadsheetWithWarnings>;
  /** null when missing or someone else's (GraphQL `spreadsheet`). */
  find(ctx: Ctx, input: { id: string }): Promise<SpreadsheetWithWarnings | null>;
  create: typeof createSpreadsheet extends (deps: SheetsDeps, ...rest: infer A) => infer R ? (...args: A) => R : never;
  import: typeof importSpreadsheet extends (deps: SheetsDeps, ...rest: infer A) => infer R ? (...args: A) => R : never;
  read(ctx: Ctx, input: ReadInput): Promise<CellRange | CellRangeText>;
  write(
    ctx: Ctx,
    input: { id: string; range: string; values: JsonCellInput[][]; input?: InputMode | undefined } & Expected,
  ): Promise<WriteResult>;
  append(
    ctx: Ctx,
    input: {
      id: string;
      sheet?: string | undefined;
      values?: JsonCellInput[][] | undefined;
      records?: Record<string, JsonCellInput>[] | undefined;
      input?: InputMode | undefined;
      idempotencyKey?: string | undefined;
    } & Expected,
  ): Promise<WriteResult>;
  edit(ctx: Ctx, input: { id: string; operations: EditOperation[] } & Expected): Promise<WriteResult>;
  evaluate(ctx: Ctx, input: { id: string; formula: string; sheet?: string | undefined }): Promise<{ value: JsonCellValue }>;
  names: typeof listNames extends (deps: SheetsDeps, ...rest: infer A) => infer R ? (...args: A) => R : never;
  defineName: typeof defineName extends (deps: SheetsDeps, ...rest: infer A) => infer R ? (...args: A) => R : never;
  deleteName: typeof deleteName extends (deps: SheetsDeps, ...rest: infer A) => infer R ? (...args: A) => R : never;
  download(ctx: Ctx, input: { id: string; format: "xlsx" | "csv"; sheet?: string | undefined }): Promise<StoredDownload>;
  rename(ctx: Ctx, input: { id: string; name: string } & Expected): Promise<Spreadsheet>;
  delete(ctx: Ctx, input: { id: string } & Expected): Promise<void>;
  restore(ctx: Ctx, input: { id: string }): Promise<Spreadsheet>;
  purge(ctx: Ctx, input: { id: string }): Promise<void>;
  versions(ctx: Ctx, input: { id: string; limit: number; cursor?: string | undefined }): Promise<SpreadsheetVersionList>;
  readVersion: typeof readVersion extends (deps: SheetsDeps, ...rest: infer A) => infer R ? (...args: A) => R : never;
  downloadVersion(ctx: Ctx, input: { id: string; version: number }): Promise<StoredDownload>;
  restoreVersion(ctx: Ctx, input: { id: string; version: number } & Expected): Promise<Spreadsheet>;
  share(ctx: Ctx, input: { id: string; expiresInSeconds: number }): Promise<DocumentShare & { url: string }>;
  shares(ctx: Ctx, input: { id: string }): Promise<{ shares: DocumentShare[] }>;
  revokeShare(ctx: Ctx, input: { id: string; shareId: string }): Promise<void>;
  /** What a share link reads (../shared.ts found the spreadsheet). */
  readShared(
    ctx: Ctx,
    record: WorkbookRecord,
    input: { range?: string | undefined; maxCells: number; render?: RenderMode },
  ): Promise<SharedSpreadsheet>;
  downloadShared(record: WorkbookRecord): Promise<StoredDownload>;
}

export function createSpreadsheetsService(deps: SheetsDeps): SpreadsheetsService {
  return {
    list: (ctx, input) => listSpreadsheets(deps, ctx, input),
    trash: (ctx, input) => listSpreadsheets(deps, ctx, input, true),
    get: async (ctx, input) => (await getSpreadsheet(deps, ctx, input)) as SpreadsheetWithWarnings,
    find: (ctx, input) => getSpreadsheet(deps, ctx, input, true),
    create: (ctx, input) => createSpreadsheet(deps, ctx, input),
    import: (ctx, input) => importSpreadsheet(deps, ctx, input),
    read: (ctx, input) => readCells(deps, ctx, input),
    write: (ctx, { id, range, values, input, expectedVersion }) =>
      changeCells(deps, ctx, { id, expectedVersion }, { kind: "write", range, values, input: input ?? "parse" }, "write"),
    append: (ctx, { id, sheet, values, records, input, expectedVersion, idempotencyKey }) =>
      changeCells(
        deps,
        ctx,
        { id, expectedVersion, idempotencyKey },
        {
          kind: "append",
          ...(sheet === undefined ? {} : { sheet }),
          ...(values === undefined ? {} : { values }),
          ...(records === undefined ? {} : { records }),
          input: input ?? "parse",
        },
        "append",
      ),
    edit: (ctx, { id, operations, expectedVersion }) =>
      changeCells(deps, ctx, { id, expectedVersion }, { kind: "edit", operations }, "edit"),
    evaluate: (ctx, input) => evaluateFormula(deps, ctx, input),
    names: (ctx, input) => listNames(deps, ctx, input),
    defineName: (ctx, input) => defineName(deps, ctx, input),
    deleteName: (ctx, input) => deleteName(deps, ctx, input),
    download: (ctx, input) => downloadSpreadsheet(deps, ctx, input),
    rename: (ctx, input) => renameSpreadsheet(deps, ctx, input),
    delete: (ctx, input) => deleteSpreadsheet(deps, ctx, input),
    restore: (ctx, input) => restoreSpreadsheet(deps, ctx, input),
    purge: (ctx, input) => purgeSpreadsheet(deps, ctx, input),
    versions: (ctx, input) => listVersions(deps, ctx, input),
    readVersion: (ctx, input) => readVersion(deps, ctx, input),
    downloadVersion: (ctx, input) => downloadVersion(deps, ctx, input),
    restoreVersion: (ctx, input) => restoreVersion(deps, ctx, input),
    share: (ctx, input) => shareSpreadsheet(deps, ctx, input),
    shares: (ctx, input) => listShares(deps, ctx, input),
    revokeShare: (ctx, input) => revokeShare(deps, ctx, input),
    readShared: (ctx, record, input) => readSharedSpreadsheet(deps, ctx, record, input),
    downloadShared: (record) => downloadSharedSpreadsheet(deps, record),
  };
}
