// Workbooks as the spreadsheet service will hand them to the store: a manifest that lists its
// tiles' hashes, the tiles, and the record's summary. The bytes are made up; the store never
// looks inside them.
import { randomBytes } from "node:crypto";
import { blobHash } from "../../../src/store/content.ts";
import type { NewWorkbook, SheetSummary, WorkbookContent } from "../../../src/store/types.ts";
import { nextUlid } from "./backends.ts";

export const newWorkbookId = (): string => `wb_${nextUlid()}`;

export const tile = (size = 200): Uint8Array => new Uint8Array(randomBytes(size));

export const sheets = (name = "Sheet1"): SheetSummary[] => [
  { name, index: 0, rows: 3, columns: 2, usedRange: "A1:B3", header: ["Item", "Amount"] },
];

/** Content made of these tiles: a manifest naming their hashes (plus a nonce, so two contents differ). */
export function workbookContent(tiles: Uint8Array[], extra: Partial<WorkbookContent> = {}): WorkbookContent {
  const hashes = tiles.map(blobHash);
  const manifest = new TextEncoder().encode(JSON.stringify({ tiles: hashes, nonce: randomBytes(4).toString("hex") }));
  return { manifest, tiles: hashes, blobs: tiles, sizeBytes: 1000, cells: 6, sheets: sheets(), ...extra };
}

export function newWorkbook(ownerId: string, overrides: Partial<NewWorkbook> = {}): NewWorkbook {
  return {
    id: newWorkbookId(),
    ownerId,
    name: "Budget",
    createdAt: "2026-11-22T08:00:00.000Z",
    createdBy: ownerId,
    source: "values",
    ...workbookContent([tile(), tile()]),
    ...overrides,
  };
}

/** The bytes a set of blobs counts against the quota. */
export const blobBytes = (blobs: Uint8Array[]): number =>
  [...new Map(blobs.map((b) => [blobHash(b), b.byteLength])).values()].reduce((a, b) => a + b, 0);
