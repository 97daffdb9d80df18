// The one interface of every kind of stored item (a document, a workbook, whatever comes next):
// records, lists, idempotent create, changes, trash, restore, purge, versions and their pruning.
// The store holds one per kind (`store.documents`, `store.workbooks`); a kind adds only its content
// reads (documents.ts, workbooks.ts). R is its record, V a version's record, N a new item, X a change.
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

/** Every read sees live items only (not in the trash), except where a method says otherwise. */
export interface ItemStore<R, V, N, X> {
  /**
   * Version 1, its content and its idempotency record (with the record it answers) in one
   * transaction; with a fresh record for the claim's key, creates nothing and answers that first record.
   */
  create(input: N, idempotency?: IdempotencyClaim): Promise<{ record: R; replayed: boolean; fingerprint: string }>;
  /** `includeDeleted`: also an item in the trash (an idempotent replay of its create). */
  get(ownerId: string, id: string, options?: { includeDeleted?: boolean }): Promise<R | null>;
  getMany(ownerId: string, ids: readonly string[]): Promise<R[]>;
  /** Newest first (by id), `nameContains` a folded substring, `beforeId` the cursor. */
  list(query: ListQuery): Promise<R[]>;
  /** Items in the trash, as list. */
  listTrash(query: ListQuery): Promise<R[]>;
  /** New content and/or name as the next version; the current one is kept as a version, atomically. */
  change(change: X): Promise<Outcome<R>>;
  /** Moves a live item to the trash and deletes its share links (restoring it does not bring them back), atomically. */
  trash(input: { ownerId: string; id: string; at: string; expectedVersion?: number | undefined }): Promise<Outcome<R>>;
  /** Back from the trash; null when it is not there. */
  restore(ownerId: string, id: string): Promise<R | null>;
  /** Deletes an item in the trash for good, with its versions, shares, idempotency records and the content nothing else refers to. */
  purge(ownerId: string, id: string): Promise<boolean>;
  /** Retention: purges items trashed before the instant; returns how many. */
  purgeTrash(deletedBefore: string): Promise<number>;
  /** Newest first, the current version included; null when the item is not live. */
  listVersions(query: VersionQuery): Promise<V[] | null>;
  /** Version n of a live item. */
  getVersion(ownerId: string, id: string, n: number): Promise<{ record: R; version: V } | null>;
  /**
   * Retention: drops versions replaced before `replacedBefore`, except each item's `keepMin` newest
   * (the current one counts), and the content only they referred to. Returns how many went.
   */
  pruneVersions(replacedBefore: string, keepMin: number): Promise<number>;
}
