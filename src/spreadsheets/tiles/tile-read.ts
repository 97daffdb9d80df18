// Reading a range straight from stored tiles: only the tiles the page covers are fetched and
// decoded, never the workbook. The service asks tilesForRead() which hashes to fetch, then readTiles().
import { finish, inSlices } from "../../core/slices.ts";
import { clipRange, formatRange, parseRange, type Box } from "../cells/a1.ts";
import { SheetsError } from "../cells/errors.ts";
import type { Scalar } from "../formula/values.ts";
import { slotOf, TILE_COLS, TILE_ROWS, TILE_SIZE } from "../cells/grid.ts";
import { tileName, type Manifest, type ManifestSheet } from "./manifest.ts";
import { checkPaging, pageOf, type Page, type ReadOptions, type ReadResult } from "../workbook/read.ts";
import { decodeInputTile, decodeValueTile, type InputCell } from "./tile-codec.ts";
import { renderCell, type JsonCellValue } from "../workbook/values.ts";

function sheetOf(manifest: Manifest, name: string | null): ManifestSheet {
  const sheet = name === null ? manifest.sheets[0] : manifest.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!sheet) {
    const names = manifest.sheets.map((s) => `"${s.name}"`).join(", ");
    throw new SheetsError("UNKNOWN_SHEET", `There is no sheet "${name}"; the sheets are ${names}.`, { subject: String(name) });
  }
  return sheet;
}

interface Plan {
  sheet: ManifestSheet;
  /** The range's cells, clipped (its first cell when it covers nothing). */
  box: Box;
  page: Page | null;
}

function plan(manifest: Manifest, range: string, options: ReadOptions): Plan {
  const parsed = parseRange(range);
  const sheet = sheetOf(manifest, parsed.sheet);
  const maxCells = options.maxCells ?? 10_000;
  const offset = options.offset ?? 0;
  checkPaging(maxCells, offset);
  const box = clipRange(parsed, sheet.used);
  const page = box ? pageOf(box, maxCells, offset) : null;
  return { sheet, box: box ?? { top: parsed.top, left: parsed.left, bottom: parsed.top, right: parsed.left }, page };
}

/** The tile names a page covers. */
function tilesOf(page: Box): string[] {
  const names: string[] = [];
  for (let tr = Math.floor(page.top / TILE_ROWS); tr <= Math.floor(page.bottom / TILE_ROWS); tr++)
    for (let tc = Math.floor(page.left / TILE_COLS); tc <= Math.floor(page.right / TILE_COLS); tc++) names.push(tileName(tr, tc));
  return names;
}

/** The hashes of the tiles a read needs (input and value tiles), for one fetch from the store. */
export function tilesForRead(manifest: Manifest, range: string, options: ReadOptions = {}): string[] {
  const { sheet, page } = plan(manifest, range, options);
  if (!page) return [];
  return tilesOf(page).flatMap((name) => [sheet.input[name], sheet.values[name]].filter((h): h is string => h !== undefined));
}

/** A decoded tile, addressed by slot. */
class TileView {
  private readonly at = new Int16Array(TILE_SIZE).fill(-1);
  private readonly values = new Map<number, Scalar>();
  constructor(
    private readonly cells: InputCell[],
    values: { slot: number; value: Scalar }[] | null,
    where: string,
  ) {
    cells.forEach((cell, i) => (this.at[cell.slot] = i));
    if (values) for (const { slot, value } of values) this.values.set(slot, value);
    else if (cells.some((c) => c.formula !== undefined))
      throw new SheetsError("VALUES_MISSING", `Tile ${where} has formulas without stored values; load the workbook to compute them.`);
  }

  cell(slot: number, render: NonNullable<ReadOptions["render"]>): JsonCellValue {
    const i = this.at[slot] as number;
    // Not an input cell: one an array fills, when the value tile has it.
    if (i < 0) return this.values.has(slot) ? renderCell(this.values.get(slot) ?? null, undefined, undefined, render) : null;
    const cell = this.cells[i] as InputCell;
    const value = cell.formula === undefined ? cell.value : (this.values.get(slot) ?? null);
    return renderCell(value, cell.numFmt, cell.formula, render);
  }
}

/** Reads a range from the tiles (`tile` gives a tile's bytes by hash), as Workbook.read would. */
export function readTiles(manifest: Manifest, range: string, tile: (hash: string) => Uint8Array, options: ReadOptions = {}): ReadResult {
  return finish(readingTiles(manifest, range, tile, options));
}

/** readTiles, a few milliseconds at a time: the event loop turns between the rows of a large read. */
export function readTilesInSlices(
  manifest: Manifest,
  range: string,
  tile: (hash: string) => Uint8Array,
  options: ReadOptions = {},
): Promise<ReadResult> {
  return inSlices(readingTiles(manifest, range, tile, options));
}

/** The read, pausing (yield) after each row. */
function* readingTiles(
  manifest: Manifest,
  range: string,
  tile: (hash: string) => Uint8Array,
  options: ReadOptions,
): Generator<void, ReadResult> {
  const { sheet, box, page } = plan(manifest, range, options);
  if (!page) return { range: formatRange(sheet.name, box), values: [], truncated: false, nextOffset: null };
  const render = options.render ?? "value";
  const views = new Map<string, TileView | null>();
  const view = (name: string): TileView | null => {
    let v = views.get(name);
    if (v !== undefined) return v;
    const input = sheet.input[name];
    const values = sheet.values[name];
    v =
      input === undefined && values === undefined
        ? null
        : new TileView(
            input === undefined ? [] : decodeInputTile(tile(input)),
            values === undefined ? null : decodeValueTile(tile(values)),
            `${sheet.name}!${name}`,
          );
    views.set(name, v);
    return v;
  };
  const rows: JsonCellValue[][] = [];
  for (let r = page.top; r <= page.bottom; r++) {
    const row: JsonCellValue[] = [];
    for (let c = page.left; c <= page.right; c++)
      row.push(view(tileName(Math.floor(r / TILE_ROWS), Math.floor(c / TILE_COLS)))?.cell(slotOf(r, c), render) ?? null);
    rows.push(row);
    yield;
  }
  return { range: formatRange(sheet.name, page), values: rows, truncated: page.truncated, nextOffset: page.next };
}
