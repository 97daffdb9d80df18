// Workbooks (native spreadsheets): stored like documents (a record per workbook, earlier versions,
// the trash), but their content is content-addressed blobs: a manifest root, the pages it lists,
// the tiles they list, each stored once per owner and shared by every version that refers to it,
// with the references between them so that what nothing refers to is collected by a query. The
// current version's computed values may also be kept as value tiles, overwritten in place. What a
// blob holds is the spreadsheet service's business; the store keeps bytes and references.
import type { ItemChange, ItemRecord, ItemStore, ItemVersion, NewItem } from "./items.ts";

/** One sheet as the record describes it (the contract's `sheets` entries). */
export interface SheetSummary {
  name: string;
  index: number;
  rows: number;
  columns: number;
  /** "A1:D20" without the sheet name; null when the sheet is empty. */
  usedRange: string | null;
  /** The first row when it looks like a header row, else null. */
  header: unknown[] | null;
}

/** What a workbook's record and each of its versions say of its content (its source: "values", "xlsx", "write"…). */
interface WorkbookFacts {
  /** Non-empty cells. */
  cells: number;
  sheets: SheetSummary[];
  /** The hash of the version's manifest root blob. */
  manifestHash: string;
}
export type WorkbookRecord = ItemRecord & WorkbookFacts;
/** One version in a workbook's history (the current one included). */
export type WorkbookVersionRecord = ItemVersion & WorkbookFacts;

/**
 * A workbook version's content as blobs: its manifest (a root blob), and the blobs and references
 * the version needs, as the spreadsheet engine saves them (src/spreadsheets/pool: root → pages →
 * tiles). Blobs are keyed by blobHash (content.ts: sha-256, base64url, as src/spreadsheets
 * computes it); the store checks every hash it stores.
 */
export interface WorkbookContent extends WorkbookFacts {
  /** The manifest root's hash: among `blobs`, or already stored for the owner. */
  manifestHash: string;
  /** Blobs by hash (a root, pages, tiles); those the owner already has are skipped and not counted again. */
  blobs: readonly (readonly [hash: string, bytes: Uint8Array])[];
  /**
   * Which blob refers to which (root → page, page → tile), for collecting what nothing refers to:
   * every blob stored here must be the manifest or the child of one of these, and every hash named
   * must be among `blobs` or already stored.
   */
  refs: readonly (readonly [parent: string, child: string])[];
  sizeBytes: number;
}

/** A computed-values tile of the current version, by the service's own key (e.g. "Sheet1:0:0"). */
export interface ValueTile {
  key: string;
  bytes: Uint8Array;
}

/** Changes to the current version's value tiles, applied in the write's transaction: clear, then delete, then put. */
export interface ValueTilesChange {
  /** Drop every value tile first (a new workbook content from scratch, a restore). */
  clear?: boolean;
  delete?: readonly string[];
  put?: readonly ValueTile[];
}

export interface NewWorkbook extends WorkbookContent, NewItem {
  source: string;
  values?: readonly ValueTile[];
}

/** A change to a live workbook: new content (a manifest, with value tiles), a new name, or both. */
export interface WorkbookChange extends ItemChange<WorkbookContent, WorkbookRecord> {
  values?: ValueTilesChange | undefined;
}

/** Workbooks in the store: the one lifecycle, and the blobs and value tiles only they have. */
export type WorkbookItems = ItemStore<WorkbookRecord, WorkbookVersionRecord, NewWorkbook, WorkbookChange> & {
  /** The owner's blobs by hash (those not stored are missing from the map). */
  getBlobs(ownerId: string, hashes: readonly string[]): Promise<Map<string, Uint8Array>>;
  /** The current version's value tiles of a live workbook, by key (those not stored are missing). */
  getValueTiles(ownerId: string, workbookId: string, keys: readonly string[]): Promise<Map<string, { version: number; bytes: Uint8Array }>>;
};
