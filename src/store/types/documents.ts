// Documents: their records and content, and what the store reads of them besides the one item
// lifecycle (items.ts): the text cut in the store, and the .docx, of the current or any version.
import type { ItemChange, ItemStore } from "./items.ts";

/** What made a version: new markdown, an uploaded .docx, a rename, or a restored older version. */
export type VersionSource = "markdown" | "docx" | "rename" | "restore";

export interface DocumentRecord {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  /** When the current version was made. */
  updatedAt: string;
  sizeBytes: number;
  characters: number;
  /** 1 on create, +1 on every change (content, rename, restore of a version). */
  version: number;
  /** Who made the current version (a user id). */
  updatedBy: string;
  source: VersionSource;
  /** Set while the document is in the trash. */
  deletedAt: string | null;
}

/** One version in a document's history (the current one included). */
export interface VersionRecord {
  version: number;
  name: string;
  createdAt: string;
  createdBy: string;
  sizeBytes: number;
  characters: number;
  source: VersionSource;
}

/** A version's content: the .docx, its text, and the markdown it came from (null: derive it from the .docx). */
export interface DocumentContent {
  docx: Uint8Array;
  text: string;
  markdown: string | null;
}

export interface NewDocument extends DocumentContent {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  /** Who creates it: the user id (the author of version 1), never the owner key. */
  createdBy: string;
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

/** A new document's record, as both stores write it. */
export function newRecord(doc: NewDocument): DocumentRecord {
  return {
    id: doc.id,
    ownerId: doc.ownerId,
    name: doc.name,
    createdAt: doc.createdAt,
    updatedAt: doc.createdAt,
    sizeBytes: doc.docx.byteLength,
    characters: doc.text.length,
    version: 1,
    updatedBy: doc.createdBy,
    source: doc.source ?? "markdown",
    deletedAt: null,
  };
}
