// A workbook version as the store keeps it: the sheets in order, each with its used range and the
// hashes of its input tiles and value tiles by tile key ("row.col" in tile units).
import { createHash } from "node:crypto";
import { z } from "zod";
import { SheetsError } from "../cells/errors.ts";
import { TILE_COLS, TILE_ROWS } from "../cells/grid.ts";

const box = z.object({
  top: z.number().int().min(0),
  left: z.number().int().min(0),
  bottom: z.number().int().min(0),
  right: z.number().int().min(0),
});
const tileMap = z.record(z.string().regex(/^\d+\.\d+$/), z.string().min(1));

/** A defined name: its scope by sheet name (null: the workbook). */
export const definedNameSchema = z.object({
  name: z.string().min(1).max(255),
  sheet: z.string().nullable(),
  formula: z.string().max(8192),
  hidden: z.boolean().optional(),
  comment: z.string().optional(),
});

/** A table (ListObject) on the sheet it names. */
export const tableSchema = z.object({
  name: z.string().min(1).max(255),
  sheet: z.string(),
  box,
  header: z.number().int().min(0).max(1),
  totals: z.number().int().min(0).max(1),
  columns: z.array(z.string()),
  style: z
    .object({ name: z.string(), firstColumn: z.boolean(), lastColumn: z.boolean(), rowStripes: z.boolean(), columnStripes: z.boolean() })
    .nullable(),
  autoFilter: z.boolean(),
  totalsRow: z.array(z.object({ fn: z.string().optional(), label: z.string().optional() }).nullable()),
});

export const manifestSchema = z.object({
  format: z.literal(1),
  tileRows: z.literal(TILE_ROWS),
  tileCols: z.literal(TILE_COLS),
  sheets: z
    .array(
      z.object({
        name: z.string().min(1).max(31),
        used: box.nullable(),
        cells: z.number().int().min(0),
        input: tileMap,
        values: tileMap,
      }),
    )
    .min(1),
  /** Defined names and tables (absent in versions stored before they were kept). */
  names: z.array(definedNameSchema).optional(),
  tables: z.array(tableSchema).optional(),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestSheet = Manifest["sheets"][number];

/** "3.0": the tile key of tile row 3, tile column 0. */
export const tileName = (tileRow: number, tileCol: number): string => `${tileRow}.${tileCol}`;

/** The content address of a tile: SHA-256, base64url. */
export const tileHash = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("base64url");

const sorted = (map: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The manifest as bytes (JSON with tile keys in order: the same manifest always gives the same bytes). */
export function encodeManifest(manifest: Manifest): Uint8Array {
  const canonical: Manifest = {
    ...manifest,
    sheets: manifest.sheets.map((s) => ({ ...s, input: sorted(s.input), values: sorted(s.values) })),
  };
  return new TextEncoder().encode(JSON.stringify(canonical));
}

export function decodeManifest(bytes: Uint8Array): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SheetsError("BAD_TILE", "A stored workbook manifest is not JSON.");
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new SheetsError("BAD_TILE", `A stored workbook manifest is malformed: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
  return parsed.data;
}
