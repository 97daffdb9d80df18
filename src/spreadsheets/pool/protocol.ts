// Messages between the spreadsheets pool (main thread) and its workers. A worker keeps the models
// of the workbooks it worked on (by id and version), so a write to a workbook it has does not load
// it again; when it lacks one, it asks for the stored blobs and the pool sends the job again with them.
import type { ErrorCode } from "../../core/errors.ts";
import type { EditOperation } from "../workbook/edits.ts";
import type { DefinedName } from "../workbook/names.ts";
import type { SheetDescription } from "../workbook/read.ts";
import type { InputMode, JsonCellInput, JsonCellValue, RenderMode } from "../workbook/values.ts";
import type { WriteResult } from "../workbook/workbook.ts";
import type { WorkbookWarning } from "../report/types.ts";

/** A sheet of a new workbook, as callers send it: values, CSV or a GFM table. */
export interface NewSheetSource {
  name: string;
  values?: JsonCellInput[][];
  csv?: string;
  markdown?: string;
}

/** A stored version a job works on. `blobs` (root, pages, tiles by hash) come only when the worker asked for them. */
export interface Base {
  workbookId: string;
  version: number;
  rootHash: string;
  blobs?: [hash: string, bytes: Uint8Array][];
}

export type Change =
  | { kind: "write"; range: string; values: JsonCellInput[][]; input: InputMode }
  | { kind: "append"; sheet?: string; values?: JsonCellInput[][]; records?: Record<string, JsonCellInput>[]; input: InputMode }
  | { kind: "edit"; operations: EditOperation[] }
  /** A defined name set (created or replaced) or deleted; `sheet` null: the workbook's scope. */
  | { kind: "defineName"; name: DefinedName }
  | { kind: "deleteName"; name: string; sheet: string | null };

export type Job =
  | { kind: "create"; sheets: NewSheetSource[]; input: InputMode }
  /** A file's bytes, or the path of the temp file a spooled upload is in (read by the worker). */
  | { kind: "import"; bytes?: Uint8Array; path?: string; format: "xlsx" | "csv"; sheetName: string; input: InputMode; moveBytes?: boolean }
  | { kind: "change"; base: Base; change: Change; token: number }
  | { kind: "evaluate"; base: Base; formula: string; sheet?: string }
  | { kind: "read"; base: Base; range: string; render: RenderMode; maxCells: number; offset: number }
  | { kind: "names"; base: Base }
  | { kind: "render"; base: Base; format: "xlsx" | "csv"; sheet?: string; title: string }
  /** An .xlsx not stored (a drive file drive_read reads): its first sheet as CSV text, nothing kept. */
  | { kind: "csv"; bytes: Uint8Array }
  /** A create's JSON body as its bytes (with the request's `fixed` input): parsed, validated and built here (./body-parser.ts). */
  | { kind: "createJson"; bytes: Uint8Array; fixed: Record<string, unknown>; moveBytes?: boolean };

/** A version saved by a job: what the store keeps (root, pages, tiles) and what the record says. */
export interface Saved {
  rootHash: string;
  /** Root, pages and the tiles the job encoded, by hash: the store keeps those it lacks. */
  blobs: [hash: string, bytes: Uint8Array][];
  /** Pages → tiles and root → pages, for the store's garbage collection. */
  refs: [parent: string, child: string][];
  sizeBytes: number;
  cells: number;
  sheets: SheetDescription[];
  result: WriteResult;
  /** The workbook's warnings as saved with this version (report/summary.ts). */
  warnings: WorkbookWarning[];
}

export type JobOutput =
  | { kind: "saved"; saved: Saved }
  | { kind: "value"; value: JsonCellValue }
  | { kind: "read"; range: string; values: JsonCellValue[][]; truncated: boolean; nextOffset: number | null }
  | { kind: "names"; names: DefinedName[] }
  | { kind: "bytes"; bytes: Uint8Array }
  /** A createJson job's validated input (without its sheets), and the workbook it built unless the input names a drive file. */
  | { kind: "created"; input: CreateInput; fingerprint: string; saved?: Saved };

/** A create's input as the create needs it once its sheets are built. */
export interface CreateInput {
  name: string;
  input?: InputMode | undefined;
  driveFileId?: string | undefined;
  idempotencyKey?: string | undefined;
}

export type ToWorker =
  /** A job as JSON text, its bytes and blobs beside it (./wire.ts). */
  | { type: "job"; id: number; json: string; bytes?: Uint8Array; blobs?: [hash: string, bytes: Uint8Array][] }
  /** The store kept version `version` of a change: the worker keeps its model for that version. */
  | { type: "commit"; token: number; version: number }
  /** The store refused the change (a concurrent write won): the worker drops its model. */
  | { type: "forget"; token: number };

export type FromWorker =
  | { type: "ready" }
  | { type: "done"; id: number; output: JobOutput }
  /** The worker does not have this version: send the job again with its blobs. */
  | { type: "need"; id: number }
  | { type: "failed"; id: number; message: string; code?: ErrorCode; details?: unknown };

/** What a worker is started with. */
export interface SheetsWorkerData {
  /** Non-empty cells a workbook may have (SHEETS_MAX_CELLS). */
  maxCells: number;
  /** Cells of models a worker keeps between jobs. */
  cacheCells: number;
  /** The worker thread's nice value (Linux, per thread; SHEETS_WORKER_NICE); 0 leaves it. */
  niceness?: number;
  /** A job's budget (a write's or an evaluate's): steps, milliseconds, and cells of one array (SHEETS_MAX_STEPS, SHEETS_WRITE_BUDGET_MS, SHEETS_MAX_ARRAY_CELLS). */
  budget: { maxSteps: number; maxMs: number; maxArrayCells?: number };
  /** URL of the module that parses and validates a create's JSON body (./body-parser.ts): the service layer's, which owns the schema. */
  bodyParser?: string;
}
