// What a spreadsheets worker does: build a model (from values, CSV, a markdown table, an .xlsx),
// load one from its stored blobs, change it, and save it as blobs (tiles, pages, root); evaluate
// and read against it; write it out as .xlsx or CSV.
import { readCsv, readCsvBlocks } from "../io/csv-read.ts";
import { SheetsError } from "../cells/errors.ts";
import { sheetCsv } from "../io/csv-write.ts";
import { parseMarkdownTable } from "../io/markdown.ts";
import { Workbook, type WriteResult } from "../workbook/workbook.ts";
import { decodeReport, encodeReport, restoreReport } from "../report/codec.ts";
import { reviewImport } from "../report/import.ts";
import { summarize } from "../report/summary.ts";
import { blobHash, childrenOfPage, decodeRoot, loadManifest, pagesOf, storeManifest } from "../tiles/stored-manifest.ts";
import { loadTiles, saveTiles } from "../tiles/tiles.ts";
import { constantsData, NotConstants } from "../tiles/tile-rows.ts";
import type { Cell, SheetData } from "../cells/types.ts";
import { renderValue, type InputMode, type JsonCellInput } from "../workbook/values.ts";
import { readXlsx } from "../io/xlsx/read.ts";
import { writeXlsx } from "../io/xlsx/write.ts";
import type { Held } from "./models.ts";
import type { Base, Change, JobOutput, NewSheetSource, Saved, SheetsWorkerData } from "./protocol.ts";

type Options = Pick<SheetsWorkerData, "maxCells" | "budget">;

/** A sheet's rows as the 2-D array of cells a write takes (holes are empty cells). */
function valuesOf(sheet: SheetData): JsonCellInput[][] {
  const values: JsonCellInput[][] = [];
  for (const [row, cells] of sheet.rows()) {
    while (values.length < row) values.push([]);
    values.push(cells.map((cell) => (cell ? (cell.value as JsonCellInput) : null)));
  }
  return values;
}

function sourceValues(source: NewSheetSource, options: Options): JsonCellInput[][] | undefined {
  if (source.csv !== undefined) {
    const [sheet] = readCsv(source.csv, { maxCells: options.maxCells, sheetName: source.name }).sheets;
    return sheet ? valuesOf(sheet) : [];
  }
  if (source.markdown !== undefined) return parseMarkdownTable(source.markdown).rows;
  return source.values;
}

/** Saves a model: the tiles it changed since its last save, its pages and root, and what the record says. */
export function save(model: Held, result: WriteResult): Saved {
  const saved = saveTiles(model.workbook);
  for (const [hash, bytes] of saved.tiles) model.sizes.set(hash, bytes.byteLength);
  const warnings = summarize(model.workbook.book);
  const report = encodeReport(model.workbook.book, warnings);
  const reportHash = report ? blobHash(report) : undefined;
  const stored = storeManifest(saved.manifest, (hash) => model.sizes.get(hash) ?? 0, reportHash);
  const blobs: Saved["blobs"] = [[stored.rootHash, stored.root]];
  const refs: Saved["refs"] = [];
  if (report && reportHash) {
    refs.push([stored.rootHash, reportHash]);
    // The store has the report of the version this one was changed from: not sent again.
    if (model.report !== reportHash) blobs.push([reportHash, report]);
    model.report = reportHash;
  }
  const referred = new Set<string>();
  for (const [hash, bytes] of stored.pages) {
    refs.push([stored.rootHash, hash]);
    if (model.pages.has(hash)) continue;
    blobs.push([hash, bytes]);
    for (const tile of childrenOfPage(bytes)) {
      refs.push([hash, tile]);
      referred.add(tile);
    }
    model.pages.add(hash);
  }
  // A changed tile whose page the store already has (an edit that brought back an earlier
  // version's cells, e.g. columns inserted then deleted) is stored under that page: giving it
  // again, with no new page referring to it, would be a blob nothing refers to, which the store refuses.
  for (const tile of saved.tiles) if (referred.has(tile[0])) blobs.push(tile);
  return {
    rootHash: stored.rootHash,
    blobs,
    refs,
    sizeBytes: stored.bytes,
    cells: model.workbook.cells,
    sheets: model.workbook.describe(),
    result,
    warnings,
  };
}

const fresh = (workbook: Workbook): Held => ({ workbookId: "", version: 0, workbook, sizes: new Map(), pages: new Set() });

export function createWorkbook(sources: NewSheetSource[], input: InputMode, options: Options): { model: Held; saved: Saved } {
  const sheets = sources.map((source) => {
    const values = sourceValues(source, options);
    return { name: source.name, ...(values ? { values } : {}) };
  });
  const { workbook, result } = Workbook.create(sheets, input, { maxCells: options.maxCells, budget: options.budget });
  const model = fresh(workbook);
  return { model, saved: save(model, result) };
}

/** ES2024's ArrayBuffer (Node has it; the project's lib is ES2023). */
type Transferable = ArrayBuffer & { readonly detached: boolean; transfer(length: number): ArrayBuffer };

/**
 * Frees a job's bytes at once, whoever still refers to them (the job message, the caller's frame):
 * a transfer to a new empty buffer detaches this one and releases its memory. The buffer is the
 * job's own: moved or copied to this worker, or read from the upload's temp file.
 */
function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer as Transferable;
  // Only a buffer the bytes are all of: a small Buffer is a slice of Node's shared pool.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
  if (buffer instanceof ArrayBuffer && whole && !buffer.detached) buffer.transfer(0);
}

/** A workbook from an uploaded file. It takes the bytes: a CSV's are detached once decoded. */
export function importWorkbook(
  bytes: Uint8Array,
  format: "xlsx" | "csv",
  sheetName: string,
  input: InputMode,
  options: Options,
): { model: Held; saved: Saved } {
  if (format === "csv") {
    const blocks = readCsvBlocks(bytes, { maxCells: options.maxCells });
    // The file is text now (rows are parsed from that): its bytes are given back before the model
    // is built rather than after the job (an 8 MB upload, 8 MB lower at the job's peak).
    release(bytes);
    const { workbook, result } = Workbook.fromBlocks(sheetName, blocks, input, { maxCells: options.maxCells, budget: options.budget });
    const model = fresh(workbook);
    return { model, saved: save(model, result) };
  }
  const data = readXlsx(bytes, { limits: { cells: options.maxCells } });
  const { workbook, result } = Workbook.fromData(data, { maxCells: options.maxCells, budget: options.budget });
  reviewImport(workbook.book, data);
  const model = fresh(workbook);
  return { model, saved: save(model, result) };
}

/** The blobs the pool sent with the job, by hash. */
function blobsOf(base: Base): (hash: string) => Uint8Array {
  const blobs = new Map(base.blobs ?? []);
  return (hash: string): Uint8Array => {
    const bytes = blobs.get(hash);
    if (!bytes) throw new Error(`workbook ${base.workbookId} v${base.version}: blob ${hash} was not sent`);
    return bytes;
  };
}

/** A stored version as a model, from the blobs the pool sent with the job. */
export function loadWorkbook(base: Base, options: Options): Held {
  const get = blobsOf(base);
  const root = decodeRoot(get(base.rootHash));
  const { manifest, sizes } = loadManifest(root, get);
  const { workbook } = loadTiles(manifest, get, { maxCells: options.maxCells, budget: options.budget });
  if (root.report !== undefined) restoreReport(workbook.book, decodeReport(get(root.report)));
  return { workbookId: base.workbookId, version: base.version, workbook, sizes, pages: new Set(pagesOf(root)), report: root.report };
}

function changed(workbook: Workbook, change: Change, budget: Options["budget"]): WriteResult {
  switch (change.kind) {
    case "write":
      return workbook.write(change.range, change.values, { input: change.input, budget });
    case "append":
      return workbook.append({
        ...(change.sheet === undefined ? {} : { sheet: change.sheet }),
        ...(change.values === undefined ? {} : { values: change.values }),
        ...(change.records === undefined ? {} : { records: change.records }),
        input: change.input,
        budget,
      });
    case "edit":
      return workbook.edit(change.operations, { budget });
    case "defineName":
      return workbook.defineName(change.name, { budget });
    case "deleteName":
      return workbook.deleteName({ name: change.name, sheet: change.sheet }, { budget });
  }
}

/** Applies a write, an append, an edit or a name change; the model is changed in place (dropped by the caller on an error). */
export function applyChange(model: Held, change: Change, options: Options): Saved {
  return save(model, changed(model.workbook, change, options.budget));
}

/** What a cell reads as in CSV: render=value (dates as ISO text, errors as their text). */
const showValue = (cell: Cell): Cell["value"] =>
  typeof cell.value === "object" && cell.value !== null ? cell.value : (renderValue(cell.value, cell.numFmt) as Cell["value"]);

/**
 * An .xlsx's first sheet as CSV text (no byte-order mark: text for a reader, not a file for
 * Excel), read by the import reader under the same limits; an empty workbook is "".
 */
export function firstSheetCsv(bytes: Uint8Array, options: Options): string {
  const [first] = readXlsx(bytes, { limits: { cells: options.maxCells } }).sheets;
  let text = "";
  if (first) for (const line of sheetCsv(first, showValue)) text += line;
  return text;
}

/**
 * A stored version of constants as .xlsx, written from its tiles band by band without a model
 * (../tiles/tile-rows.ts); null when it needs one (formulas, names, tables), which is then loaded.
 * The bytes are the model's: the zip is made whole before it is answered, so a formula found
 * part-way leaves nothing behind.
 */
export async function renderStoredXlsx(base: Base, title: string): Promise<{ output: JobOutput; cells: number } | null> {
  const get = blobsOf(base);
  const { manifest } = loadManifest(decodeRoot(get(base.rootHash)), get);
  const data = constantsData(manifest, get);
  if (!data) return null;
  try {
    const bytes = await writeXlsx(data, { title });
    return { output: { kind: "bytes", bytes }, cells: manifest.sheets.reduce((sum, sheet) => sum + sheet.cells, 0) };
  } catch (error) {
    if (error instanceof NotConstants) return null;
    throw error;
  }
}

export async function render(model: Held, format: "xlsx" | "csv", sheet: string | undefined, title: string): Promise<JobOutput> {
  if (format === "xlsx") return { kind: "bytes", bytes: await writeXlsx(model.workbook.toData({ xlsx: true }), { title }) };
  const data = model.workbook.toData();
  const chosen = sheet === undefined ? data.sheets[0] : data.sheets.find((s) => s.name.toLowerCase() === sheet.toLowerCase());
  if (!chosen)
    throw new SheetsError("UNKNOWN_SHEET", `No sheet is named ${sheet}; the sheets are ${data.sheets.map((s) => s.name).join(", ")}.`, {
      subject: sheet,
    });
  // A BOM first: Excel reads a CSV as UTF-8 only with one.
  let text = "\uFEFF";
  for (const line of sheetCsv(chosen, showValue)) text += line;
  return { kind: "bytes", bytes: new TextEncoder().encode(text) };
}
