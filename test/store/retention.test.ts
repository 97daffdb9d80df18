// Retention rules (src/services/retention.ts) against a real SQLite store: what goes, what stays,
// and that the schedule really runs them.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { monotonicFactory } from "ulid";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runRetention, scheduleRetention } from "../../src/services/retention.ts";
import { sqliteFile } from "../../src/store/sqlite.ts";
import { workbookContent } from "./contract/workbook-helpers.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";

const ulid = monotonicFactory();
const DAY = 24 * 60 * 60 * 1000;
const settings = { trashDays: 30, versionDays: 30, versionKeepMin: 3, intervalMs: 0 };
const iso = (ms: number) => new Date(ms).toISOString();
const content = (text: string) => ({ docx: randomBytes(32), text, markdown: text });

let dir: string;
let store: Store;
/** SQL behind the store's back. */
const sqlOf = async <T>(text: string): Promise<T[]> => {
  const db = new Database(sqliteFile(dir), { readonly: true });
  try {
    return db.prepare(text).all() as T[];
  } finally {
    db.close();
  }
};
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "retention-"));
  store = openSqliteStore(dir);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A document created `ageDays` ago and changed `changes` times, one day apart. */
async function documentWithHistory(owner: string, ageDays: number, changes: number, now: number): Promise<string> {
  const id = `doc_${ulid()}`;
  await store.documents.create({ id, ownerId: owner, createdBy: owner, name: "d", createdAt: iso(now - ageDays * DAY), ...content("v1") });
  for (let i = 0; i < changes; i++) {
    const at = iso(now - (ageDays - i - 1) * DAY);
    const result = await store.documents.change({
      ownerId: owner,
      id,
      actorId: owner,
      at,
      content: content(`v${i + 2}`),
      source: "markdown",
    });
    expect(result.ok).toBe(true);
  }
  return id;
}

describe("retention", () => {
  it("drops versions replaced before the cutoff except the newest VERSION_KEEP_MIN, and keeps recent ones", async () => {
    const now = Date.now();
    // 60 days of daily changes: versions 1..61, current 61.
    const old = await documentWithHistory("u1", 60, 60, now);
    const result = await runRetention(store, settings, now);
    const versions = (await store.documents.listVersions({ ownerId: "u1", id: old, limit: 100 }))!.map((v) => v.version);
    // Replaced within 30 days: versions replaced at day -29…0 stay (31..60), plus the current one.
    expect(versions[0]).toBe(61);
    expect(Math.min(...versions)).toBeGreaterThanOrEqual(30);
    expect(versions.length).toBeGreaterThanOrEqual(settings.versionKeepMin);
    expect(result.versions).toBe(61 - versions.length);

    // A document whose every version is old keeps its newest VERSION_KEEP_MIN (the current one counts).
    const quiet = await documentWithHistory("u1", 400, 5, now - 300 * DAY);
    await runRetention(store, settings, now);
    expect((await store.documents.listVersions({ ownerId: "u1", id: quiet, limit: 100 }))!.map((v) => v.version)).toEqual([6, 5, 4]);
  });

  it("purges the trash after TRASH_RETENTION_DAYS, with versions and shares, and keeps recent deletions", async () => {
    const now = Date.now();
    const gone = await documentWithHistory("u2", 50, 2, now);
    const kept = await documentWithHistory("u2", 50, 2, now);
    await store.insertShare({
      id: `shr_${ulid()}`,
      kind: "document",
      targetId: gone,
      ownerId: "u2",
      tokenHash: "a".repeat(64),
      createdAt: iso(now),
      expiresAt: iso(now + DAY),
    });
    expect((await store.documents.trash({ ownerId: "u2", id: gone, at: iso(now - 31 * DAY) })).ok).toBe(true);
    expect((await store.documents.trash({ ownerId: "u2", id: kept, at: iso(now - 29 * DAY) })).ok).toBe(true);
    const result = await runRetention(store, settings, now);
    expect(result.trash).toBe(1);
    expect((await store.documents.listTrash({ ownerId: "u2", limit: 10 })).map((d) => d.id)).toEqual([kept]);
    expect(await store.documents.restore("u2", gone)).toBeNull();
    expect(await store.findShare("a".repeat(64), iso(now))).toBeNull();
  });

  it("drops expired shares and idempotency records older than 24 h", async () => {
    const now = Date.now();
    const id = `doc_${ulid()}`;
    await store.documents.create(
      { id, ownerId: "u3", createdBy: "u3", name: "d", createdAt: iso(now - 2 * DAY), ...content("x") },
      { key: "k", fingerprint: "f", notBefore: iso(now - 3 * DAY) },
    );
    await store.insertShare({
      id: `shr_${ulid()}`,
      kind: "document",
      targetId: id,
      ownerId: "u3",
      tokenHash: "b".repeat(64),
      createdAt: iso(now - DAY),
      expiresAt: iso(now - 1000),
    });
    const result = await runRetention(store, settings, now);
    expect(result).toMatchObject({ idempotency: 1, shares: 1 });
    expect(await store.findIdempotent("u3", "k", iso(0))).toBeNull();
  });

  it("runs on its schedule and stops cleanly", async () => {
    const now = Date.now();
    const id = await documentWithHistory("u4", 40, 0, now);
    await store.documents.trash({ ownerId: "u4", id, at: iso(now - 40 * DAY) });
    const stop = scheduleRetention(store, { ...settings, intervalMs: 50 }, pino({ level: "silent" }));
    try {
      await expect.poll(async () => (await store.documents.listTrash({ ownerId: "u4", limit: 10 })).length, { timeout: 5_000 }).toBe(0);
    } finally {
      await stop();
    }
  });

  it("purges trashed workbooks and old workbook versions too, with the blobs only they referred to", async () => {
    const now = Date.now();
    const tile = new Uint8Array(randomBytes(100));
    const content = (tiles: Uint8Array[]) => workbookContent([tiles]);
    const gone = `wb_${ulid()}`;
    const kept = `wb_${ulid()}`;
    for (const id of [gone, kept]) {
      await store.workbooks.create({
        id,
        ownerId: "u5",
        name: "w",
        createdAt: iso(now - 60 * DAY),
        createdBy: "u5",
        source: "values",
        ...content([tile]),
      });
    }
    for (let i = 0; i < 5; i++) {
      const at = iso(now - (50 - i) * DAY);
      await store.workbooks.change({
        ownerId: "u5",
        id: kept,
        actorId: "u5",
        at,
        content: content([new Uint8Array(randomBytes(100))]),
        source: "write",
      });
    }
    await store.workbooks.trash({ ownerId: "u5", id: gone, at: iso(now - 31 * DAY) });
    const result = await runRetention(store, settings, now);
    expect(result).toMatchObject({ workbookTrash: 1, workbookVersions: 6 - settings.versionKeepMin });
    expect(await store.workbooks.get("u5", gone, { includeDeleted: true })).toBeNull();
    expect((await store.workbooks.listVersions({ ownerId: "u5", id: kept, limit: 10 }))?.map((v) => v.version)).toEqual([6, 5, 4]);
    // What is left counts: the kept versions' roots, pages and their one tile each (the first tile
    // went with versions 1..3 and the trash).
    const [left] = await sqlOf<{ n: number; bytes: number }>(`SELECT count(*) AS n, sum(size) AS bytes FROM blobs WHERE owner_id = 'u5'`);
    expect(left?.n).toBe(9);
    expect(await store.storageUsage("u5")).toBe(left?.bytes);
  });
});
