// The embedded store's WAL checkpoints in a worker thread (src/store/sqlite/checkpointer.ts): the
// WAL's pages reach the database file without a commit on the event loop doing it, the main
// connection's own automatic checkpoint is raised to a backstop, and close() stops the worker.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { BACKSTOP_PAGES, startCheckpointer } from "../../src/store/sqlite/checkpointer.ts";
import { openDatabase } from "../../src/store/sqlite/connection.ts";
import { openSqliteStore, sqliteFile } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Three documents of ~1 MB each (incompressible bytes), each its own transaction: ~750 WAL pages, under SQLite's default 1,000. */
async function writeThreeMegabytes(store: Store): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await store.createDocument({
      id: `doc_${i}`,
      ownerId: "ann",
      createdBy: "ann",
      name: `big ${i}`,
      createdAt: new Date().toISOString(),
      docx: randomBytes(1_000_000),
      text: `text ${i}`,
      markdown: `# ${i}`,
    });
  }
}

const databaseBytes = (dir: string) => statSync(sqliteFile(dir)).size;

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (condition()) return true;
  }
  return condition();
}

it("a worker copies the WAL into the database file; without it the pages wait in the WAL", async () => {
  const background = mkdtempSync(join(tmpdir(), "wg-ckpt-"));
  const plain = mkdtempSync(join(tmpdir(), "wg-ckpt-"));
  dirs.push(background, plain);
  const stores = [openSqliteStore(background, { backgroundCheckpoints: true }), openSqliteStore(plain)];
  try {
    for (const store of stores) await writeThreeMegabytes(store);
    expect(await waitFor(() => databaseBytes(background) > 3_000_000, 3_000)).toBe(true);
    // The control: below SQLite's own threshold, nothing has copied the pages yet.
    expect(databaseBytes(plain)).toBeLessThan(1_000_000);
  } finally {
    for (const store of stores) await store.close();
  }
});

it("raises the main connection's automatic checkpoint to the backstop; close() stops the worker, twice is fine", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wg-ckpt-"));
  dirs.push(dir);
  const db = openDatabase(dir);
  expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000); // SQLite's default
  const checkpointer = startCheckpointer(db, sqliteFile(dir));
  expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(BACKSTOP_PAGES);
  await checkpointer.close();
  await checkpointer.close();
  db.close();

  const store = openSqliteStore(dir, { backgroundCheckpoints: true });
  await writeThreeMegabytes(store);
  await store.close();
  await store.close();
  const reopened = openSqliteStore(dir);
  expect(await reopened.getDocument("ann", "doc_2")).toMatchObject({ name: "big 2" });
  await reopened.close();
});
