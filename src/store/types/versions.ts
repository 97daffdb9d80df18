// Earlier versions of documents (the current version lives on the document).
import type { DocumentContent, DocumentRecord, TextFormat, TextRead, VersionSource } from "./documents.ts";

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

export interface VersionQuery {
  ownerId: string;
  id: string;
  /** Only versions strictly older (smaller) than this. */
  beforeVersion?: number;
  limit: number;
}

export interface VersionStore {
  /** Newest first, the current version included; null when the document is not live. */
  listVersions(query: VersionQuery): Promise<VersionRecord[] | null>;
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
  /**
   * Retention: drops versions replaced before `replacedBefore`, except each document's `keepMin`
   * newest versions (the current one counts). Returns how many went.
   */
  pruneVersions(replacedBefore: string, keepMin: number): Promise<number>;
}
