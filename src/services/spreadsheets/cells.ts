// Reading and changing cells: a range read straight from the tiles that cover it (no workbook is
// loaded, nothing on the event loop grows with the workbook), and writes, appends and edits run by
// the spreadsheets pool against the workbook's model, then stored as the next version.
import { createHash } from "node:crypto";
import { markAnsweredVersion, type RequestContext } from "../../core/context.ts";
import { chargeCellText, returnCells, takeCells } from "../../core/read-budget.ts";
import { GatewayError, toGatewayError } from "../../core/errors.ts";
import { cursorCodec } from "../../core/paging.ts";
import { inSlices } from "../../core/slices.ts";
import type { CellRange, CellRangeText, WriteResult } from "../../contract/spreadsheets.ts";
import { csvLines } from "../../spreadsheets/io/csv-write.ts";
import { isSheetsError } from "../../spreadsheets/cells/errors.ts";
import { markdownTableInSlices } from "../../spreadsheets/io/markdown.ts";
import type { Change } from "../../spreadsheets/pool/index.ts";
import type { ReadResult } from "../../spreadsheets/workbook/read.ts";
import { readTilesInSlices, tilesForRead } from "../../spreadsheets/tiles/tile-read.ts";
import type { CellValue } from "../../spreadsheets/cells/types.ts";
import type { JsonCellValue, RenderMode } from "../../spreadsheets/workbook/values.ts";
import type { WorkbookRecord } from "../../store/types.ts";
import { baseOf, inContractWords, jobOwner, knownId, precheck, sheetsOwner, spreadsheetNotFound, type SheetsDeps } from "./access.ts";
import { storeChange } from "./changes.ts";
import { allBlobs } from "./stored.ts";

/**
 * A range read that goes on: the cells already given (row by row), and a digest of the spreadsheet and the range
 * as the caller wrote it, so that a cursor sent with another range (or spreadsheet) is refused
 * rather than read as an offset into it. The caller sends the range again with the cursor.
 */
interface RangePosition {
  offset: number;
  of: string;
}
// r3: the offset counts cells (a page may end inside a row); r2's counted rows and is not read.
const rangeCursorCodec = cursorCodec<RangePosition>(
  "r3.",
  (position) => `${position.offset}.${position.of}`,
  (text) => {
    const match = /^(\d{1,11})\.([\w-]{11})$/.exec(text);
    return match ? { offset: Number(match[1]), of: match[2]! } : undefined;
  },
);
const rangeDigest = (id: string, range: string) => createHash("sha256").update(`${id}\n${range}`).digest("base64url").slice(0, 11);
const rangeCursors = {
  encode: (id: string, range: string, offset: number): string => rangeCursorCodec.encode({ offset, of: rangeDigest(id, range) }),
  /** The cells already given; BAD_USER_INPUT for a cursor of another range or spreadsheet. */
  decode(cursor: string, id: string, range: string): number {
    const position = rangeCursorCodec.decode(cursor);
    if (position.of !== rangeDigest(id, range)) {
      throw new GatewayError(
        "BAD_USER_INPUT",
        `cursor: it continues a read of another range or spreadsheet, not ${range}; send it with the same id and range as the read that gave it`,
        { details: { field: "cursor", range } },
      );
    }
    return position.offset;
  },
};

export interface ReadInput {
  id: string;
  range: string;
  render: RenderMode;
  format: "json" | "csv" | "markdown";
  maxCells: number;
  cursor?: string | undefined;
}

async function readRange(
  deps: SheetsDeps,
  ctx: RequestContext,
  ownerId: string,
  record: WorkbookRecord,
  input: ReadInput,
  offset: number,
): Promise<ReadResult> {
  const options = { render: input.render, maxCells: input.maxCells, offset };
  try {
    const manifest = await deps.manifests.get(deps.store, ownerId, record.manifestHash);
    const hashes = tilesForRead(manifest, input.range, options);
    const tiles = hashes.length > 0 ? await deps.store.workbooks.getBlobs(ownerId, hashes) : new Map<string, Uint8Array>();
    // In slices: a 100,000-cell read takes 100–300 ms of decoding and rendering (issue 37 F5).
    return await readTilesInSlices(manifest, input.range, (hash) => tiles.get(hash) ?? new Uint8Array(), options);
  } catch (error) {
    // Formulas without stored values (a workbook saved before they were computed): the model computes them.
    if (!isSheetsError(error) || error.code !== "VALUES_MISSING") throw inContractWords(error);
  }
  const output = await deps.pool.run(
    { kind: "read", base: baseOf(record), range: input.range, render: input.render, maxCells: input.maxCells, offset },
    (base) => allBlobs(deps.store, ownerId, base),
    jobOwner(ctx, ownerId),
  );
  if (output.kind !== "read") throw new GatewayError("INTERNAL", "A spreadsheet read answered something else");
  return { range: output.range, values: output.values, truncated: output.truncated, nextOffset: output.nextOffset };
}

/** Lines joined, pausing (yield) after each. */
function* joining(lines: Iterable<string>): Generator<void, string> {
  let text = "";
  for (const line of lines) {
    text += line;
    yield;
  }
  return text;
}

/**
 * Values as CSV or a GFM table (render=value's JSON cells; {value, formula} shows the formula),
 * written a few milliseconds at a time: 100,000 cells take ~50–150 ms that /healthz must not wait for.
 */
async function asText(values: CellRange["values"], format: "csv" | "markdown"): Promise<string> {
  const plain = values.map((row) =>
    row.map((cell) => (cell !== null && typeof cell === "object" && "formula" in cell ? cell.formula : cell) as CellValue),
  );
  return format === "csv" ? inSlices(joining(csvLines(plain))) : (await markdownTableInSlices(plain)).markdown;
}

/** Cells of a read's rows, and the characters of its text cells (what the request's budgets count). */
function sizeOf(values: CellRange["values"]): { cells: number; chars: number } {
  let cells = 0;
  let chars = 0;
  for (const row of values) {
    cells += row.length;
    for (const cell of row) {
      if (typeof cell === "string") chars += cell.length;
      else if (cell !== null && typeof cell === "object" && "formula" in cell) chars += String(cell.formula).length + 16;
    }
  }
  return { cells, chars };
}

/**
 * A range of a workbook's current version (the owner is the record's: share links read one too),
 * within the request's budgets (src/core/read-budget.ts): it reads at most the cells left of the
 * request's cell budget (cut short, with its cursor, when fewer than maxCells are left), and its
 * text counts against the request's text budget.
 */
export async function readRecordRange(deps: SheetsDeps, ctx: RequestContext, record: WorkbookRecord, input: ReadInput): Promise<CellRange> {
  const offset = input.cursor === undefined ? 0 : rangeCursors.decode(input.cursor, record.id, input.range);
  const allowed = takeCells(ctx, input.maxCells);
  let read: ReadResult;
  try {
    read = await readRange(deps, ctx, record.ownerId, record, { ...input, maxCells: allowed }, offset);
  } catch (error) {
    returnCells(ctx, allowed);
    throw error;
  }
  const size = sizeOf(read.values);
  returnCells(ctx, allowed - size.cells);
  chargeCellText(ctx, size.chars);
  const nextCursor = read.nextOffset === null ? null : rangeCursors.encode(record.id, input.range, read.nextOffset);
  return { range: read.range, values: read.values, truncated: read.truncated, nextCursor };
}

export async function readCells(deps: SheetsDeps, ctx: RequestContext, input: ReadInput): Promise<CellRange | CellRangeText> {
  const ownerId = sheetsOwner(ctx, "read");
  const record = await deps.store.workbooks.get(ownerId, knownId(input.id));
  if (!record) throw spreadsheetNotFound();
  const read = await readRecordRange(deps, ctx, record, input);
  markAnsweredVersion(ctx, record.version);
  if (input.format === "json") return read;
  // A cut markdown table says so on its last line, wherever it is shown; CSV has no room for a note
  // (REST says it in headers, every surface in `truncated` and `nextCursor`).
  const note =
    input.format === "markdown" && read.truncated
      ? `\n_Truncated after ${sizeOf(read.values).cells} cells: more remain; read again with cursor ${read.nextCursor}_\n`
      : "";
  return {
    range: read.range,
    format: input.format,
    text: (await asText(read.values, input.format)) + note,
    truncated: read.truncated,
    nextCursor: read.nextCursor,
  };
}

export async function changeCells(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; expectedVersion?: number | undefined; idempotencyKey?: string | undefined },
  change: Change,
  source: "write" | "append" | "edit",
): Promise<WriteResult> {
  const ownerId = sheetsOwner(ctx, "write");
  return storeChange(deps, ctx, ownerId, knownId(input.id), input, change, source).catch((error: unknown) => {
    throw toGatewayError(inContractWords(error));
  });
}

export async function evaluateFormula(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; formula: string; sheet?: string | undefined },
): Promise<{ value: JsonCellValue }> {
  const ownerId = sheetsOwner(ctx, "read");
  const record = precheck(await deps.store.workbooks.get(ownerId, knownId(input.id)), undefined);
  const formula = input.formula.startsWith("=") ? input.formula.slice(1) : input.formula;
  const output = await deps.pool.run(
    { kind: "evaluate", base: baseOf(record), formula, ...(input.sheet === undefined ? {} : { sheet: input.sheet }) },
    (base) => allBlobs(deps.store, ownerId, base),
    jobOwner(ctx, ownerId),
  );
  if (output.kind !== "value") throw new GatewayError("INTERNAL", "A spreadsheet evaluation answered something else");
  markAnsweredVersion(ctx, record.version);
  return { value: output.value };
}
