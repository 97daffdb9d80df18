// Document contents on SQLite, stored once per owner and hash (content.ts): put by creates and
// changes, collected when nothing refers to them any more. Both run inside the caller's
// transaction.
import { contentRow } from "../content.ts";
import { toBuffer } from "../rows.ts";
import type { DocumentContent } from "../types.ts";
import type { Db } from "./connection.ts";
import type { Usage } from "./usage.ts";

export interface Contents {
  /** Stores the content unless the owner already has it (charging the quota); returns its hash and lengths. */
  put(ownerId: string, content: DocumentContent): ReturnType<typeof contentRow>;
  /** Deletes those of `hashes` that no document or version of the owner refers to, releasing their bytes. */
  collect(ownerId: string, hashes: Iterable<string>): void;
}

export function contentsOf(db: Db, usage: Usage): Contents {
  const exists = db.prepare(`SELECT 1 FROM contents WHERE owner_id = ? AND hash = ?`);
  const insert = db.prepare(
    `INSERT INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
     VALUES (@ownerId, @hash, @sizeBytes, @textChars, @markdownChars, @docx, @text, @markdown)`,
  );
  const collect = db.prepare(
    `DELETE FROM contents WHERE owner_id = @ownerId AND hash = @hash
       AND NOT EXISTS (SELECT 1 FROM documents WHERE owner_id = @ownerId AND content_hash = @hash)
       AND NOT EXISTS (SELECT 1 FROM document_versions WHERE owner_id = @ownerId AND content_hash = @hash)
     RETURNING size_bytes`,
  );
  return {
    put(ownerId, content) {
      const row = contentRow(content);
      if (exists.get(ownerId, row.hash)) return row;
      usage.charge(ownerId, row.sizeBytes);
      insert.run({ ownerId, ...row, docx: toBuffer(content.docx), text: content.text, markdown: content.markdown });
      return row;
    },
    collect(ownerId, hashes) {
      let freed = 0;
      for (const hash of new Set(hashes)) {
        freed += (collect.get({ ownerId, hash }) as { size_bytes: number } | undefined)?.size_bytes ?? 0;
      }
      usage.release(ownerId, freed);
    },
  };
}
