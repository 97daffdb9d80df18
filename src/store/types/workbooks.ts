// Workbooks (native spreadsheets): stored like documents (a record per workbook, earlier versions,
// the trash), but their content is content-addressed blobs: a manifest root, the pages it lists,
// the tiles they list, each stored once per owner and shared by every version that refers to it,
// with the references between them so that what nothing refers to is collected by a query. What a
// blob holds is the spreadsheet service's business; the store keeps bytes and references.
import type { Worksheet } from "../../contract/spreadsheets.ts";
import type { workbookItems } from "../contents.ts";
import type { ItemChange, ItemRecord, ItemVersion, NewItem } from "./items.ts";

/** One sheet as the record describes it: the contract's `sheets` entries. */
export type SheetSummary = Worksheet;

/** What a workbook's record and each of its versions say of its content (its source: "values", "xlsx", "write"…). */
interface WorkbookFacts {
  /** Non-empty cells. */
  cells: number;
  sheets: SheetSummary[];
  /** The hash of the version's manifest root blob. */
  manifestHash: string;
}
export type WorkbookRecord = ItemRecord & WorkbookFacts;
export type WorkbookVersionRecord = ItemVersion & WorkbookFacts;

/**
 * A workbook version's content as blobs: its manifest (a root blob), and the blobs and references
 * the version needs, as the spreadsheet engine saves them (src/spreadsheets/pool: root → pages →
 * tiles). Blobs are keyed by blobHash (content.ts: sha-256, base64url, as src/spreadsheets
 * computes it); the store checks every hash it stores.
 */
export interface WorkbookContent extends WorkbookFacts {
  /** Blobs by hash (a root, pages, tiles); those the owner already has are skipped and not counted again. */
  blobs: readonly (readonly [hash: string, bytes: Uint8Array])[];
  /**
   * Which blob refers to which (root → page, page → tile), for collecting what nothing refers to:
   * every blob stored here must be the manifest or the child of one of these, and every hash named
   * (the manifest's too) must be among `blobs` or already stored.
   */
  refs: readonly (readonly [parent: string, child: string])[];
  sizeBytes: number;
}

export interface NewWorkbook extends WorkbookContent, NewItem {
  source: string;
}

/** A change to a live workbook: new content (a manifest), a new name, or both. */
export type WorkbookChange = ItemChange<WorkbookContent, WorkbookRecord>;

/** Workbooks in the store: the one lifecycle, and the blobs only they have (../contents.ts). */
export type WorkbookItems = ReturnType<typeof workbookItems<unknown>>;
