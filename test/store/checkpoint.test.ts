// The embedded store checkpoints its WAL in a worker thread, not inside a commit nor on the main
// thread (src/store/sqlite/checkpoint.ts): a commit leaves its pages in the WAL, and the worker
// copies them into the database file soon after, even while the main thread is busy.
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore, sqliteFile } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { CHECKPOINT_INTERVAL_MS } from "../../src/store/sqlite/checkpoint.ts";

const MB = 1024 * 1024;
const sizeOf = (file: string) => statSync(file).size;

describe("SQLite WAL checkpoints", () => {
  let dir: string;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const create = (target: Store, n: number, megabytes: number) =>
    target.documents.create({
      id: `doc_${n}`,
      ownerId: "key_owner",
      createdBy: "key_owner",
      name: `big ${n}`,
      createdAt: new Date().toISOString(),
      // Random bytes do not compress: the pages are as many as the bytes.
      docx: randomBytes(megabytes * MB),
      text: "text",
      markdown: `# ${n}`,
    });

  it("a commit past SQLite's 1,000-page default leaves its pages in the WAL; the timer copies them into the database", async () => {
    dir = await mkdtemp(join(tmpdir(), "wg-checkpoint-"));
    store = openSqliteStore(dir);
    const file = sqliteFile(dir);
    const before = sizeOf(file);
    // 6 MB is 1,500 pages of 4 KiB: SQLite's own automatic checkpoint would run inside this commit.
    await create(store, 1, 6);
    expect(sizeOf(file) - before).toBeLessThan(MB);
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(6 * MB);
    const deadline = Date.now() + 20 * CHECKPOINT_INTERVAL_MS;
    while (sizeOf(file) - before < 6 * MB && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sizeOf(file) - before).toBeGreaterThanOrEqual(6 * MB);
    // The document reads back whole after the checkpoint.
    expect((await store.documents.readContent("key_owner", "doc_1"))?.docx.byteLength).toBe(6 * MB);
  });

  it("a 12 MB commit (past any automatic checkpoint) is copied into the database while the main thread is blocked", async () => {
    dir = await mkdtemp(join(tmpdir(), "wg-checkpoint-"));
    store = openSqliteStore(dir);
    const file = sqliteFile(dir);
    const before = sizeOf(file);
    await create(store, 3, 12);
    expect(sizeOf(file) - before).toBeLessThan(MB);
    // The main thread never yields here: only a checkpoint on another thread can grow the file.
    const deadline = Date.now() + 100 * CHECKPOINT_INTERVAL_MS;
    while (sizeOf(file) - before < 12 * MB && Date.now() < deadline);
    expect(sizeOf(file) - before).toBeGreaterThanOrEqual(12 * MB);
    expect((await store.documents.readContent("key_owner", "doc_3"))?.docx.byteLength).toBe(12 * MB);
  });

  it("a store closed right after a commit keeps it, its timer stopped: reopened, the document reads back whole", async () => {
    dir = await mkdtemp(join(tmpdir(), "wg-checkpoint-"));
    const closed = openSqliteStore(dir);
    await create(closed, 2, 1);
    await closed.close();
    await new Promise((resolve) => setTimeout(resolve, 2 * CHECKPOINT_INTERVAL_MS));
    store = openSqliteStore(dir);
    expect((await store.documents.readContent("key_owner", "doc_2"))?.docx.byteLength).toBe(MB);
  });
});
