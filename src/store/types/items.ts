// The one lifecycle of every kind of stored item (a document, a workbook, whatever comes next):
// records, lists, idempotent create, changes, trash, restore, purge, versions and their pruning.
// The store holds one per kind (`store.documents`, `store.workbooks`); a kind adds only its content
// reads (documents.ts, workbooks.ts). R is its record, V a version's record, N a new item, X a change.
import type { itemLifecycle } from "../lifecycle.ts";
import type { IdempotencyClaim } from "./idempotency.ts";

/** What every kind's record has (S: what made a version); the lifecycle reads and writes only these. */
export interface ItemRecord<S extends string = string> {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  /** When the current version was made. */
  updatedAt: string;
  /** 1 on create, +1 on every change (content, rename, restore of a version). */
  version: number;
  /** Who made the current version (a user id). */
  updatedBy: string;
  source: S;
  /** Set while the item is in the trash. */
  deletedAt: string | null;
  sizeBytes: number;
}

/** One version in an item's history (the current one included): made when and by whom. */
export type ItemVersion<S extends string = string> = Pick<ItemRecord<S>, "version" | "name" | "source" | "sizeBytes"> & {
  createdAt: string;
  createdBy: string;
};

/** What every new item has besides its content; `createdBy`: the user id (the author of version 1), never the owner key. */
export type NewItem = Pick<ItemRecord, "id" | "ownerId" | "name" | "createdAt"> & { createdBy: string };

/** A change to a live item: new content, a new name, or both. */
export interface ItemChange<C, R extends ItemRecord> {
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
  source: R["source"];
  /**
   * An idempotent change (sheets.append): the key is claimed in the change's transaction with the
   * answer built from the new record; a key already used answers "replayed" and changes nothing.
   */
  idempotency?: { claim: IdempotencyClaim; response: (record: R) => unknown } | undefined;
}

/** A conditional write's outcome: done, no such live item, a stale expectedVersion, or a replayed idempotency key. */
export type Outcome<R> =
  | { ok: true; record: R }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "conflict"; current: number }
  /** The key was used within its window: nothing was written; `response` is the first answer. */
  | { ok: false; reason: "replayed"; response: unknown; fingerprint: string };

export interface ListQuery {
  ownerId: string;
  /** Lower-cased substring of the name. */
  nameContains?: string;
  /** Only ids strictly older (smaller) than this. */
  beforeId?: string;
  limit: number;
}

export interface VersionQuery {
  ownerId: string;
  id: string;
  /** Only versions strictly older (smaller) than this. */
  beforeVersion?: number;
  limit: number;
}

/** One kind's lifecycle in the store, each method described where it is written once (../lifecycle.ts). */
export type ItemStore<R extends ItemRecord, V, N extends NewItem, X extends ItemChange<unknown, R>> = ReturnType<
  typeof itemLifecycle<R, V, unknown, N, unknown, X>
>;
