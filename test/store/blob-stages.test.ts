// SQLite writes a large workbook's blobs ahead of the transaction that names it
// (src/store/sqlite/blobs.ts `stage`). A crash between the two leaves blobs nothing names, charged
// to their owner: the stage's blob_stages row says so, and the next open collects them, leaving
// what other workbooks share and the stages that did end alone.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unlimited } from "../../src/store/quota.ts";
import { openSqliteStore, sqliteFile } from "../../src/store/sqlite.ts";
import { openDatabase } from "../../src/store/sqlite/connection.ts";
import { sqliteContext } from "../../src/store/sqlite/context.ts";
import { newWorkbook, tile, workbookContent } from "./contract/workbook-helpers.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "blob-stages-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const count = (text: string, ...params: unknown[]): number => {
  const db = new Database(sqliteFile(dir), { readonly: true });
  try {
    return Number((db.prepare(text).get(...params) as { n: number }).n);
  } finally {
    db.close();
  }
};

describe("blobs staged by a write that never named them", () => {
  it("are collected at the next open, with their usage; shared blobs and named workbooks stay", async () => {
    const owner = "usr_stage";
    const shared = Array.from({ length: 100 }, () => tile(1_000));
    const store = openSqliteStore(dir);
    const named = newWorkbook(owner, workbookContent([shared]));
    await store.workbooks.create(named);
    const usage = await store.storageUsage(owner);
    await store.close();

    // A stage, then a crash: the connection goes away before the write that would name its root.
    const db = openDatabase(dir);
    const { blobs } = sqliteContext(db, unlimited);
    const orphan = workbookContent([shared, Array.from({ length: 100 }, () => tile(1_000))]);
    expect(await blobs.stage(owner, orphan)).toBeDefined();
    db.close();
    expect(count(`SELECT count(*) AS n FROM blob_stages`)).toBe(1);
    expect(count(`SELECT count(*) AS n FROM blobs WHERE owner_id = ?`, owner)).toBe(named.blobs.length + 102);

    const reopened = openSqliteStore(dir);
    try {
      expect(await reopened.storageUsage(owner)).toBe(usage);
      const found = await reopened.workbooks.getBlobs(
        owner,
        named.blobs.map(([hash]) => hash),
      );
      expect(found.size).toBe(named.blobs.length);
      // A large create that ended names its stage away: nothing for the next open to collect.
      await reopened.workbooks.create(newWorkbook(owner, workbookContent([Array.from({ length: 100 }, () => tile(1_000))])));
    } finally {
      await reopened.close();
    }
    expect(count(`SELECT count(*) AS n FROM blob_stages`)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM blobs WHERE owner_id = ?`, owner)).toBe(named.blobs.length + 102);
  });
});
