// Workbook blobs on SQLite (types/workbooks.ts): roots, pages and tiles stored once per owner and
// hash, charged against the quota when new, with the references between them; collected, from a
// root down, once nothing refers to them. `put` runs inside the caller's transaction; `stage` writes a large content's blobs beforehand in short
// transactions of their own, so that no one transaction holds the event loop for long (issue 37 F6).
import { randomUUID } from "node:crypto";
import { setImmediate as turn } from "node:timers/promises";
import { inSlices, SLICE_MS } from "../../core/slices.ts";
import { checkBlobs, checkingBlobs, parentsFirst, type CheckedBlobs } from "../blob-graph.ts";
import { addUsage, chargeUsage, lockUsage } from "../contents.ts";
import { checkQuota, type QuotaSettings } from "../quota.ts";
import { bytesOf, toBuffer } from "../rows.ts";
import type { WorkbookContent } from "../types.ts";
import type { Db } from "./connection.ts";
import type { SqliteExecutor } from "./executor.ts";

/** A content's blobs written ahead of the write that names them: its blob_stages row, and the blobs it inserted. */
interface Staged {
  id: string;
  ownerId: string;
  root: string;
  inserted: string[];
}

export interface Blobs {
  /**
   * Stores the blobs the owner lacks (charging the quota) and the references between them, in the
   * caller's transaction. For a content `stage` wrote, it only makes sure every blob is still there.
   */
  put(ownerId: string, content: WorkbookContent): void;
  /**
   * Checks a large content and writes its blobs and references (charging the quota) in
   * transactions of a few milliseconds, the event loop turning between them; undefined for a small
   * content (`put` writes it). What it wrote is the caller's to name (`put` ends the stage), then to
   * release: the function it returns collects, if the stage did not end, what nothing names or refers
   * to (the write that was to name it failed or wrote nothing).
   */
  stage(ownerId: string, content: WorkbookContent): Promise<(() => void) | undefined>;
  /** Collects what stages a crash interrupted left unnamed (at open: no stage of this connection is under way). */
  collectStages(): void;
  /** Collects, from the given manifest roots down, every blob nothing refers to any more (no workbook, version or reference). */
  collect(ownerId: string, manifestHashes: Iterable<string>): void;
  get(ownerId: string, hashes: readonly string[]): Map<string, Uint8Array>;
}

/** A content with more blobs or bytes than this is staged: below, one transaction writes it quickly. */
const STAGE_BLOBS = 64;
const SLICE_BYTES = 256 * 1024;

type Ordered = ReturnType<typeof parentsFirst>;

function blobStatements(db: Db) {
  return {
    exists: db.prepare(`SELECT 1 FROM blobs WHERE owner_id = ? AND hash = ?`),
    insert: db.prepare(`INSERT INTO blobs (owner_id, hash, size, bytes) VALUES (?, ?, ?, ?)`),
    ref: db.prepare(`INSERT OR IGNORE INTO blob_refs (owner_id, parent_hash, child_hash) VALUES (?, ?, ?)`),
    get: db.prepare(`SELECT bytes FROM blobs WHERE owner_id = ? AND hash = ?`),
    dead: db.prepare(
      `SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM workbooks WHERE owner_id = @ownerId AND manifest_hash = @hash)
         AND NOT EXISTS (SELECT 1 FROM workbook_versions WHERE owner_id = @ownerId AND manifest_hash = @hash)
         AND NOT EXISTS (SELECT 1 FROM blob_refs WHERE owner_id = @ownerId AND child_hash = @hash)`,
    ),
    childrenOf: db.prepare(`DELETE FROM blob_refs WHERE owner_id = @ownerId AND parent_hash = @hash RETURNING child_hash`),
    delete: db.prepare(`DELETE FROM blobs WHERE owner_id = @ownerId AND hash = @hash RETURNING size`),
    stageBegin: db.prepare(`INSERT INTO blob_stages (id, owner_id, root_hash) VALUES (?, ?, ?)`),
    stageEnd: db.prepare(`DELETE FROM blob_stages WHERE id = ?`),
    stageOn: db.prepare(`SELECT 1 FROM blob_stages WHERE id = ?`),
    stagesLeft: db.prepare(`SELECT id, owner_id, root_hash FROM blob_stages`),
  };
}

/** Collects, from the given hashes down, every blob nothing refers to any more, releasing its bytes. */
function collector(stmt: ReturnType<typeof blobStatements>, sql: SqliteExecutor) {
  return (ownerId: string, manifestHashes: Iterable<string>): void => {
    // Level by level from the roots: a blob goes once nothing refers to it, then its children are looked at.
    let candidates = new Set(manifestHashes);
    let freed = 0;
    while (candidates.size > 0) {
      const next = new Set<string>();
      for (const hash of candidates) {
        if (!stmt.dead.get({ ownerId, hash })) continue;
        for (const row of stmt.childrenOf.all({ ownerId, hash }) as { child_hash: string }[]) next.add(row.child_hash);
        freed += (stmt.delete.get({ ownerId, hash }) as { size: number } | undefined)?.size ?? 0;
      }
      candidates = next;
    }
    sql.now(addUsage(ownerId, -freed));
  };
}

export function blobsOf(db: Db, sql: SqliteExecutor, quota: QuotaSettings): Blobs {
  const stmt = blobStatements(db);
  // Usage as both databases keep it (../contents.ts), as steps run at once in the caller's transaction.
  const charge = (ownerId: string, bytes: number) => sql.now(chargeUsage(quota, ownerId, bytes));
  const stored = (ownerId: string, hash: string) => stmt.exists.get(ownerId, hash) !== undefined;
  const write = (ownerId: string, { given, named, refs }: CheckedBlobs) => {
    const fresh = [...given].filter(([hash]) => !stored(ownerId, hash));
    charge(
      ownerId,
      fresh.reduce((sum, [, bytes]) => sum + bytes.byteLength, 0),
    );
    for (const [hash, bytes] of fresh) stmt.insert.run(ownerId, hash, bytes.byteLength, toBuffer(bytes));
    for (const hash of named) if (!stored(ownerId, hash)) throw new Error(`Workbook blob ${hash} is neither given nor stored`);
    for (const [parent, child] of refs) stmt.ref.run(ownerId, parent, child);
  };
  // Contents a stage wrote, with their checked blobs: their hashes are not computed twice.
  const staged = new WeakMap<WorkbookContent, { stage: Staged; checked: CheckedBlobs }>();

  /** One stage transaction: blobs from `from` on, with the references from each, until a slice's time or bytes are spent. */
  const writeSlice = db.transaction((stage: Staged, order: Ordered, from: number): number => {
    const { ownerId, inserted } = stage;
    if (from === 0) stmt.stageBegin.run(stage.id, ownerId, stage.root);
    const until = performance.now() + SLICE_MS;
    let at = from;
    let added = 0;
    const fresh: string[] = [];
    while (at < order.length && (at === from || (performance.now() < until && added < SLICE_BYTES))) {
      const [hash, bytes, children] = order[at++]!;
      if (!stored(ownerId, hash)) {
        stmt.insert.run(ownerId, hash, bytes.byteLength, toBuffer(bytes));
        fresh.push(hash);
        added += bytes.byteLength;
      }
      for (const child of children) stmt.ref.run(ownerId, hash, child);
    }
    charge(ownerId, added); // a throw rolls this slice back; unstage collects the slices before
    inserted.push(...fresh);
    return at;
  });
  /** The stage's last transaction: references from blobs not given (already stored), and what must already be stored. */
  const finishStage = db.transaction((ownerId: string, { given, named, refs }: CheckedBlobs) => {
    for (const [parent, child] of refs) if (!given.has(parent)) stmt.ref.run(ownerId, parent, child);
    for (const hash of named) if (!stored(ownerId, hash)) throw new Error(`Workbook blob ${hash} is neither given nor stored`);
  });
  const collect = collector(stmt, sql);
  const unstage = db.transaction((stage: Staged) => {
    collect(stage.ownerId, stage.inserted);
    stmt.stageEnd.run(stage.id);
  });
  // The root of each: everything a stage wrote hangs from it (parents first), or was collected already.
  const collectStages = db.transaction(() => {
    for (const row of stmt.stagesLeft.all() as { id: string; owner_id: string; root_hash: string }[]) {
      collect(row.owner_id, [row.root_hash]);
      stmt.stageEnd.run(row.id);
    }
  });

  return {
    put(ownerId, content) {
      const ahead = staged.get(content);
      const checked = ahead?.stage.ownerId === ownerId ? ahead.checked : undefined;
      // Named in this transaction: the stage is over (a rollback keeps its row for unstage or the next open).
      if (checked) stmt.stageEnd.run(ahead!.stage.id);
      // A collection between the stage and now may have taken what the stage wrote (its root was
      // not yet named): then it is written again, here, from the hashes already checked.
      if (checked && [...checked.given.keys(), ...checked.named].every((hash) => stored(ownerId, hash))) return;
      write(ownerId, checked ?? checkBlobs(content));
    },
    async stage(ownerId, content) {
      const bytes = content.blobs.reduce((sum, [, b]) => sum + b.byteLength, 0);
      if (content.blobs.length <= STAGE_BLOBS && bytes <= SLICE_BYTES) return undefined;
      const checked = await inSlices(checkingBlobs(content));
      // Parents first: every blob but the root is referred to once stored, so collections meanwhile leave it be.
      const order = parentsFirst(content.manifestHash, checked);
      // The whole content against the quota first, so that a refusal names what the write needs,
      // as `put` would; each slice is still charged (another write of the owner's may come between).
      checkQuota(
        quota,
        sql.now(lockUsage(ownerId)),
        order.reduce((sum, [hash, b]) => (stored(ownerId, hash) ? sum : sum + b.byteLength), 0),
      );
      const stage: Staged = { id: randomUUID(), ownerId, root: content.manifestHash, inserted: [] };
      try {
        for (let at = 0; at < order.length;) {
          at = writeSlice.immediate(stage, order, at);
          await turn();
        }
        finishStage.immediate(ownerId, checked);
      } catch (error) {
        unstage.immediate(stage);
        throw error;
      }
      staged.set(content, { stage, checked });
      return () => {
        // A write that named the stage ended it (`put`): then there is nothing to release.
        if (stmt.stageOn.get(stage.id)) unstage.immediate(stage);
      };
    },
    collectStages: () => collectStages.immediate(),
    collect,
    get(ownerId, hashes) {
      const found = new Map<string, Uint8Array>();
      for (const hash of new Set(hashes)) {
        const row = stmt.get.get(ownerId, hash) as { bytes: Buffer } | undefined;
        if (row) found.set(hash, bytesOf(row.bytes));
      }
      return found;
    },
  };
}
