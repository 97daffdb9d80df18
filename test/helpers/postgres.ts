// A PostgreSQL schema of a test file's own on the machine's shared server: created before the
// file's tests, dropped after them, and a DATABASE_URL whose connections all use it (the store
// reads `options=-c search_path=…`). Parallel files and runs never see each other's tables.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

export const testDatabaseUrl = process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

/** `url` with every connection's search_path set to `schema`. */
export function withSearchPath(url: string, schema: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Registers the file's beforeAll/afterAll hooks for a fresh schema named `<prefix>_<pid>_<random>`. */
export function usePostgresSchema(prefix: string): { schema: string; databaseUrl: string } {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  beforeAll(() => admin(`CREATE SCHEMA ${schema}`));
  afterAll(() => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  return { schema, databaseUrl: withSearchPath(testDatabaseUrl, schema) };
}
