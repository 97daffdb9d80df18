// What every kind of stored item (a document, a workbook) shares in the store's interface: a change
// to a live item. Each kind's change adds its content and its sources (documents.ts, workbooks.ts).
import type { IdempotencyClaim } from "./idempotency.ts";

/** A change to a live item: new content, a new name, or both. */
export interface ItemChange<C, R> {
  ownerId: string;
  id: string;
  /** Who changes it, and when. */
  actorId: string;
  at: string;
  /** When set, the change applies only if this is still the current version. */
  expectedVersion?: number | undefined;
  name?: string | undefined;
  /** New content: the next version. Without it, the content stays (a rename). */
  content?: C | undefined;
  source: string;
  /**
   * An idempotent change (sheets.append): the key is claimed in the change's transaction with the
   * answer built from the new record; a key already used answers "replayed" and changes nothing.
   */
  idempotency?: { claim: IdempotencyClaim; response: (record: R) => unknown } | undefined;
}
