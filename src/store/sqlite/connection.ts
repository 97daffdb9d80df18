// The embedded store's connection: one SQLite file under DATA_DIR, private to the gateway's user,
// WAL mode, migrated on open. better-sqlite3 is synchronous, so a transaction can never interleave
// with another request.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { contentHash } from "../content.ts";
import { migrate } from "./migrations.ts";

export type Db = Database.Database;

export function sqliteFile(dataDir: string): string {
  return join(resolve(dataDir), "gateway.sqlite");
}

/**
 * The store holds every document and the API key hashes: only the gateway's user may read it
 * (docs/security.md). DATA_DIR is created 0700 (an existing one is left as its owner set it), the
 * database file 0600 before SQLite opens it; SQLite gives the -wal and -shm files the database
 * file's mode. Files left 0644 by an older version are narrowed.
 */
function createPrivately(dataDir: string): string {
  mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 });
  const file = sqliteFile(dataDir);
  closeSync(openSync(file, "a", 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
  return file;
}

/** Opens (creating if need be) and migrates DATA_DIR's database. */
export function openDatabase(dataDir: string): Db {
  const db = new Database(createPrivately(dataDir));
  db.pragma("journal_mode = WAL");
  // NORMAL is durable against a process crash in WAL mode; only power loss could drop the last commit.
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  registerFunctions(db);
  migrate(db);
  return db;
}

/**
 * SQL functions the migrations use, in JavaScript so that they compute exactly what new writes do
 * (content.ts): the content hash, and a string's length in UTF-16 units (SQLite's length() counts
 * code points; the API counts what JavaScript's String#length does).
 */
function registerFunctions(db: Db): void {
  db.function("content_hash", { deterministic: true }, (docx: unknown, text: unknown, markdown: unknown) =>
    contentHash({ docx: docx as Buffer, text: text as string, markdown: markdown as string | null }),
  );
  db.function("utf16_length", { deterministic: true }, (text: unknown) => (typeof text === "string" ? text.length : null));
}
