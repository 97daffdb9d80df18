// Documents: their records and content, and what the store reads of them besides the one item
// lifecycle (items.ts): the text cut in the store, and the .docx, of the current or any version.
import type { documentStore } from "../document-reads.ts";
import type { ItemChange, ItemRecord, ItemVersion, NewItem } from "./items.ts";

/** What made a version: new markdown, an uploaded .docx, a rename, or a restored older version. */
export type VersionSource = "markdown" | "docx" | "rename" | "restore";

export type DocumentRecord = ItemRecord<VersionSource> & { characters: number };
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
export type DocumentChange = ItemChange<DocumentContent, DocumentRecord>;

/** Which text of a version to read: the extracted text, or the markdown (null when never stored). */
export type TextFormat = "text" | "markdown";

/** Documents in the store: the one lifecycle, and the text and the .docx of the current or any version (../document-reads.ts). */
export type DocumentItems = ReturnType<typeof documentStore>;

/** Case folding used for name search, identical in every store. */
export const foldName = (name: string): string => name.normalize("NFC").toLowerCase();
