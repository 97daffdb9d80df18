// A stored workbook of constants as the writers take it, read from its input tiles one band of
// rows at a time instead of through a model: a 1M-cell download's worker otherwise loads the whole
// workbook (~80 MB of heap and buffers) to hand its rows to the .xlsx writer, the largest step of
// bench:sheets:gateway's peak RSS. Formulas (their values and spills live in value tiles), defined
// names and tables need the model, so a workbook with any of them is left to it.
import { FormatTable } from "../cells/formats.ts";
import { TILE_COLS, TILE_ROWS } from "../cells/grid.ts";
import type { Cell, SheetData, SheetRow, WorkbookData } from "../cells/types.ts";
import type { Manifest, ManifestSheet } from "./manifest.ts";
import { decodeInputTile } from "./tile-codec.ts";

/** A formula in an input tile of a workbook that has no value tiles: its value must be computed, by the model. */
export class NotConstants extends Error {}

/**
 * The workbook as Workbook.toData({ xlsx: true }) gives it (same rows, cells and formats), or null
 * when it has formulas, names or tables. Rows are decoded lazily; a formula met while reading
 * them (one stored without its value) throws NotConstants.
 */
export function constantsData(manifest: Manifest, tile: (hash: string) => Uint8Array): WorkbookData | null {
  if ((manifest.names?.length ?? 0) > 0 || (manifest.tables?.length ?? 0) > 0) return null;
  if (manifest.sheets.some((sheet) => Object.keys(sheet.values).length > 0)) return null;
  // The model's rule for a format code ("General" and "" are no format), from its own table.
  const formats = new FormatTable();
  const sheets: SheetData[] = manifest.sheets.map((sheet) => ({ name: sheet.name, rows: () => sheetRows(sheet, tile, formats) }));
  return { sheets };
}

/** The sheet's rows in order, a band of tiles (TILE_ROWS rows) decoded at a time. */
function* sheetRows(sheet: ManifestSheet, tile: (hash: string) => Uint8Array, formats: FormatTable): Generator<SheetRow> {
  const bands = new Map<number, [number, string][]>();
  for (const [name, hash] of Object.entries(sheet.input)) {
    const [band, across] = name.split(".").map(Number) as [number, number];
    let list = bands.get(band);
    if (!list) bands.set(band, (list = []));
    list.push([across, hash]);
  }
  for (const band of [...bands.keys()].sort((a, b) => a - b)) {
    const rows: Cell[][] = [];
    for (const [across, hash] of (bands.get(band) as [number, string][]).sort((a, b) => a[0] - b[0])) {
      for (const cell of decodeInputTile(tile(hash))) {
        if (cell.formula !== undefined) throw new NotConstants(`a formula at ${sheet.name}!${band}.${across} has no stored value`);
        // A blank with only a format is not loaded into a model, so not written either.
        if (cell.value === null) continue;
        const numFmt = formats.code(formats.id(cell.numFmt));
        const within = Math.floor(cell.slot / TILE_COLS);
        (rows[within] ??= [])[across * TILE_COLS + (cell.slot % TILE_COLS)] = {
          value: cell.value,
          formula: undefined,
          numFmt: numFmt === "" ? undefined : numFmt,
        };
      }
    }
    for (let within = 0; within < TILE_ROWS; within++) {
      const cells = rows[within];
      if (cells) yield [band * TILE_ROWS + within, cells];
    }
  }
}
