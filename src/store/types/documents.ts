// Documents: their records and content, and what the store reads of them besides the one item
// lifecycle (items.ts): the text cut in the store, and the .docx, of the current or any version.
import type { ItemChange, ItemRecord, ItemStore, ItemVersion, NewItem } from "./items.ts";

/** What made a version: new markdown, an uploaded .docx, a rename, or a restored older version. */
export type VersionSource = "markdown" | "docx" | "rename" | "restore";

export type DocumentRecord = ItemRecord<VersionSource> & { characters: number };
/** One version in a document's history (the current one included). */
export type VersionRecord = ItemVersion<VersionSource> & { characters: number };

/** A version's content: the .docx, its text, and the markdown it came from (null: derive it from the .docx). */
export interface DocumentContent {
  docx: Uint8Array;
  text: string;
  markdown: string | null;
}

export interface NewDocument extends DocumentContent, NewItem {
  /** "markdown" (default) or "docx" (an import). */
  source?: "markdown" | "docx";
}

/** A change to a live document: new content (a .docx, its text and markdown), a new name, or both. */
export interface DocumentChange extends ItemChange<DocumentContent, DocumentRecord> {
  source: VersionSource;
}

/** Which text of a version to read: the extracted text, or the markdown (null when never stored). */
export type TextFormat = "text" | "markdown";

/**
 * A text read, cut in the store: at most `maxChars` UTF-16 units (never half a surrogate pair),
 * and the whole text's length in UTF-16 units, as stored. Both null: no markdown was stored for
 * this version (derive it from the .docx).
 */
export interface TextRead {
  document: DocumentRecord;
  text: string | null;
  totalChars: number | null;
}

/** What only documents read, on top of the lifecycle: the text and the .docx of the current or any version. */
export interface DocumentReads {
  /** The text or markdown, cut in the store to `maxChars` (default: all of it); never more is read into memory. */
  readText(ownerId: string, id: string, format?: TextFormat, maxChars?: number): Promise<TextRead | null>;
  readContent(ownerId: string, id: string): Promise<{ document: DocumentRecord; docx: Uint8Array } | null>;
  /** Version n's text or markdown, cut in the store to `maxChars` (default: all of it), as readText. */
  readVersionText(
    ownerId: string,
    id: string,
    version: number,
    format?: TextFormat,
    maxChars?: number,
  ): Promise<(TextRead & { version: VersionRecord }) | null>;
  readVersionContent(
    ownerId: string,
    id: string,
    version: number,
  ): Promise<{ document: DocumentRecord; version: VersionRecord; docx: Uint8Array } | null>;
  /** The whole content of a version (to restore it). */
  readVersionData(ownerId: string, id: string, version: number): Promise<DocumentContent | null>;
}

/** Documents in the store: the one lifecycle, and their reads. */
export type DocumentItems = ItemStore<DocumentRecord, VersionRecord, NewDocument, DocumentChange> & DocumentReads;

/** Case folding used for name search, identical in every store. */
export const foldName = (name: string): string => name.normalize("NFC").toLowerCase();
