// A spreadsheet's pages (docs/app.md "Spreadsheets"): the grid of one range of one sheet, the
// cells the grid's script reads and writes (sheets.write with If-Match; the answer carries the
// range recalculated), an earlier version. Download, history, sharing and the trash are the
// kinds' routes (./kinds.ts).
import { Hono, type Context } from "hono";
import { GatewayError } from "../../core/errors.ts";
import { expectedVersionOf } from "../../rest/preconditions.ts";
import { quoteSheet, rangeText, rectOf, type CellRect } from "../a1.ts";
import { gridCellsOf, type GridCell } from "../cells.ts";
import type { AppDeps, AppEnv } from "../env.ts";
import { csrfOf, run } from "../operations.ts";
import { spreadsheetPage, spreadsheetVersionPage } from "../pages/spreadsheet.ts";
import { pageResponse } from "../render.ts";
import { wantsJson } from "../session.ts";
import { itemViewOf, kindRoutes, positive, recordOf } from "./kinds.ts";

/** One page of the grid: 100 rows, at most 26 columns (the range read is never more than 2,600 cells). */
export const PAGE_ROWS = 100;
const PAGE_COLUMNS = 26;
const MIN_COLUMNS = 8;
const MIN_ROWS = 20;

type Sheets = Awaited<ReturnType<typeof recordOf>> & { sheets?: { name: string; usedRange: string | null }[] };

/** The sheet asked for (default the first) and the range to show: asked for, else the top of the used range. */
export function viewOf(record: Sheets, sheetAsked: string | undefined, rangeAsked: string | undefined) {
  const sheets = record.sheets ?? [];
  const sheet = sheets.find((s) => s.name === sheetAsked) ?? sheets[0];
  if (!sheet) throw new GatewayError("NOT_FOUND", "This spreadsheet has no sheet");
  const usedRect = sheet.usedRange ? rectOf(sheet.usedRange) : undefined;
  const used = { rows: usedRect?.lastRow ?? 0, columns: usedRect?.lastColumn ?? 0 };
  const asked = rangeAsked ? rectOf(rangeAsked) : undefined;
  const rect: CellRect = asked
    ? {
        column: asked.column,
        row: asked.row,
        lastColumn: Math.min(asked.lastColumn, asked.column + PAGE_COLUMNS - 1),
        lastRow: Math.min(asked.lastRow, asked.row + PAGE_ROWS - 1),
      }
    : {
        column: 1,
        row: 1,
        lastColumn: Math.min(PAGE_COLUMNS, Math.max(MIN_COLUMNS, used.columns)),
        lastRow: Math.min(PAGE_ROWS, Math.max(MIN_ROWS, used.rows)),
      };
  return { sheets, sheet: sheet.name, rect, used, range: `${quoteSheet(sheet.name)}!${rangeText(rect)}` };
}

/**
 * The cells of `rect` as the grid shows them, placed from its top-left even when the read was
 * clipped: two reads of the range, its values and formulas (render both) and the text each cell
 * shows (render formatted), run together.
 */
async function valuesOf(c: Context<AppEnv>, deps: AppDeps, id: string, range: string, rect: CellRect): Promise<GridCell[][]> {
  const maxCells = (rect.lastRow - rect.row + 1) * (rect.lastColumn - rect.column + 1);
  const [read, shown] = await Promise.all([
    run(c, deps, "sheets.read", { id, range, render: "both", maxCells }),
    run(c, deps, "sheets.read", { id, range, render: "formatted", maxCells }),
  ]);
  if (!("values" in read) || !("values" in shown)) return [];
  const got = rectOf(read.range);
  if (!got) return [];
  const grid: GridCell[][] = [];
  gridCellsOf(read.values, shown.values).forEach((line, r) => {
    const row = (grid[got.row - rect.row + r] ??= []);
    line.forEach((cell, k) => (row[got.column - rect.column + k] = cell));
  });
  return grid;
}

/** POST …/cells: one cell written as a person types it (a leading = makes a formula), with the version the page had. */
async function writeCell(c: Context<AppEnv>, deps: AppDeps) {
  const id = c.req.param("id")!;
  const json = wantsJson(c);
  const input = (json ? await c.req.json() : await c.req.parseBody()) as Record<string, unknown>;
  const sheet = typeof input["sheet"] === "string" ? input["sheet"] : "";
  const cell = typeof input["cell"] === "string" ? input["cell"].trim().toUpperCase() : "";
  const text = typeof input["text"] === "string" ? input["text"] : "";
  if (!sheet || !/^[A-Z]{1,3}[1-9]\d{0,6}$/.test(cell)) throw new GatewayError("BAD_USER_INPUT", "cell: expected a cell address like B2");
  const version = expectedVersionOf(c) ?? (typeof input["version"] === "string" ? positive(input["version"], "version") : undefined);
  const result = await run(c, deps, "sheets.write", {
    id,
    range: `${quoteSheet(sheet)}!${cell}`,
    values: [[text === "" ? null : text]],
    input: "parse",
    ...(version ? { expectedVersion: version } : {}),
  });
  const view = typeof input["view"] === "string" ? input["view"] : "";
  if (!json)
    return c.redirect(
      `${deps.paths.spreadsheet(id)}?sheet=${encodeURIComponent(sheet)}&range=${encodeURIComponent(view.slice(view.lastIndexOf("!") + 1))}`,
      303,
    );
  const rect = rectOf(view);
  return c.json({
    version: result.spreadsheet.version,
    recalculatedCells: result.recalculatedCells,
    warnings: result.warnings,
    values: rect ? await valuesOf(c, deps, id, view, rect) : [],
  });
}

export function spreadsheetRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { paths } = deps;
  app.get("/:id", async (c) => {
    const id = c.req.param("id");
    const record = await recordOf(c, deps, "spreadsheet", id);
    const view = viewOf(record, c.req.query("sheet"), c.req.query("range"));
    const values = await valuesOf(c, deps, id, view.range, view.rect);
    const body = spreadsheetPage({
      ...itemViewOf(c, deps, id, record),
      ...view,
      values,
    });
    return pageResponse(c, deps, record.name, body, { script: "sheet" });
  });
  // The grid's script: the current values of the range it shows, and the version they are of.
  app.get("/:id/cells", async (c) => {
    const id = c.req.param("id");
    const record = await recordOf(c, deps, "spreadsheet", id);
    const range = c.req.query("range") ?? "";
    const rect = rectOf(range);
    if (!rect) throw new GatewayError("BAD_USER_INPUT", "range: expected a range like Sheet1!A1:H100");
    return c.json({ version: record.version, values: await valuesOf(c, deps, id, range, rect) });
  });
  app.post("/:id/cells", (c) => writeCell(c, deps));
  app.get("/:id/history/:version", async (c) => {
    const id = c.req.param("id");
    const version = positive(c.req.param("version"), "version");
    const [record, then] = await Promise.all([recordOf(c, deps, "spreadsheet", id), run(c, deps, "sheets.readVersion", { id, version })]);
    const body = spreadsheetVersionPage({
      paths,
      csrf: csrfOf(c, deps),
      id,
      name: then.name,
      version,
      current: record.version,
      createdAt: then.versionInfo.createdAt,
      cells: then.cells,
      sheets: then.sheets,
    });
    return pageResponse(c, deps, `${then.name}, version ${version}`, body);
  });
  app.route("/", kindRoutes(deps, "spreadsheet"));
  return app;
}
