// Workbooks as the spreadsheet engine hands them to the store (src/spreadsheets/pool: a manifest
// root that lists pages, pages that list tiles, and the references between them). The bytes are
// made up; the store never looks inside them.
import { randomBytes } from "node:crypto";
import { blobHash } from "../../../src/store/content.ts";
import type { NewWorkbook, SheetSummary, WorkbookContent } from "../../../src/store/types.ts";
import { nextUlid } from "./backends.ts";

export const newWorkbookId = (): string => `wb_${nextUlid()}`;

export const tile = (size = 200): Uint8Array => new Uint8Array(randomBytes(size));

export const sheets = (name = "Sheet1"): SheetSummary[] => [
  { name, index: 0, rows: 3, columns: 2, usedRange: "A1:B3", header: ["Item", "Amount"] },
];

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A page listing these tiles: the same tiles make the same page (shared by versions, like the engine's). */
export const page = (tiles: Uint8Array[]): Uint8Array => json({ tiles: tiles.map(blobHash) });

/**
 * Content whose root lists one page per entry of `pages`, each listing its tiles, with every blob
 * given and every reference (root → page, page → tile). The root carries a nonce, so two contents
 * of the same pages still differ.
 */
export function workbookContent(pages: Uint8Array[][], extra: Partial<WorkbookContent> = {}): WorkbookContent {
  const pageBlobs = pages.map(page);
  const root = json({ pages: pageBlobs.map(blobHash), nonce: randomBytes(4).toString("hex") });
  const rootHash = blobHash(root);
  return {
    manifestHash: rootHash,
    blobs: [root, ...pageBlobs, ...pages.flat()].map((bytes) => [blobHash(bytes), bytes] as const),
    refs: [
      ...pageBlobs.map((p) => [rootHash, blobHash(p)] as const),
      ...pages.flatMap((tiles, i) => tiles.map((t) => [blobHash(pageBlobs[i]!), blobHash(t)] as const)),
    ],
    sizeBytes: 1000,
    cells: 6,
    sheets: sheets(),
    ...extra,
  };
}

/** The root blob of a content. */
export const rootOf = (content: WorkbookContent): Uint8Array => content.blobs.find(([hash]) => hash === content.manifestHash)![1];

export function newWorkbook(ownerId: string, overrides: Partial<NewWorkbook> = {}): NewWorkbook {
  return {
    id: newWorkbookId(),
    ownerId,
    name: "Budget",
    createdAt: "2026-11-22T08:00:00.000Z",
    createdBy: ownerId,
    source: "values",
    ...workbookContent([[tile(), tile()]]),
    ...overrides,
  };
}

/** The bytes a set of blobs counts against the quota (each distinct blob once). */
export const blobBytes = (blobs: Uint8Array[]): number =>
  [...new Map(blobs.map((b) => [blobHash(b), b.byteLength])).values()].reduce((a, b) => a + b, 0);
