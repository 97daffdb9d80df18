// Content addressing, shared by both databases: a document version's content (its .docx, text and
// markdown) is stored once per owner and distinct content, under a hash of all three; versions and
// the live document refer to it by that hash. The hash is defined so that SQL can compute it too
// (the migration that moved existing rows, sqlite/migrations.ts and postgres/migrations.ts):
//
//   sha256( sha256(docx) ‖ sha256(utf8(text)) ‖ (markdown null ? 0x00 : 0x01 ‖ sha256(utf8(markdown))) ), hex
//
// Never change it: content stored under the old definition would no longer be found as a duplicate.
import { createHash } from "node:crypto";
import type { DocumentContent } from "./types.ts";

const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

export function contentHash(content: DocumentContent): string {
  const hash = createHash("sha256").update(sha256(content.docx)).update(sha256(content.text));
  if (content.markdown === null) hash.update(Buffer.of(0));
  else hash.update(Buffer.of(1)).update(sha256(content.markdown));
  return hash.digest("hex");
}

/**
 * The hash of a workbook blob (a manifest root, a page, a tile): sha-256 of its bytes, base64url,
 * exactly as src/spreadsheets/tiles/stored-manifest.ts computes the hashes its manifests name.
 */
export const blobHash = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("base64url");

/** What one stored content counts against its owner's quota: its .docx, text and markdown, in bytes (UTF-8). */
export const contentBytes = (content: DocumentContent): number =>
  content.docx.byteLength + Buffer.byteLength(content.text) + (content.markdown === null ? 0 : Buffer.byteLength(content.markdown));

/** A content row as both stores write it: the hash, the bytes it counts, and the lengths a cut read reports (UTF-16 units). */
export function contentRow(content: DocumentContent) {
  return {
    hash: contentHash(content),
    sizeBytes: contentBytes(content),
    textChars: content.text.length,
    markdownChars: content.markdown === null ? null : content.markdown.length,
  };
}

/** The largest maxChars a cut read passes to SQL (PostgreSQL's integer): "all of it". */
export const ALL_CHARS = 2_147_483_647;

/**
 * A text the database cut to at most `maxChars` code points (SQL's substr), cut again to at most
 * `maxChars` UTF-16 units, as the API counts, without splitting a surrogate pair (backing off one).
 */
export function fitUtf16(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const code = text.charCodeAt(maxChars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars);
}

/** A cut read's text and total as the store answers them (both null: no markdown stored). */
export function textRead(text: string | null, total: number | null, maxChars: number): { text: string | null; totalChars: number | null } {
  return text === null ? { text: null, totalChars: null } : { text: fitUtf16(text, maxChars), totalChars: total };
}
