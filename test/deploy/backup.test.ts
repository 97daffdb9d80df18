// The restore drill of docs/deploy.md#backups, run for real on every `npm test`: back up while the
// gateway is writing, lose the original, restore, start a gateway on the restored copy, and read
// every document back whole (text and .docx) — on SQLite (`VACUUM INTO`, online) and on PostgreSQL
// (`pg_dump -Fc`, then `pg_restore` after the schema is dropped).
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { root } from "../helpers/process.ts";

// The gateways here run in this process: the backups run in child processes, so the gateway keeps
// serving the writer while they do.
const run = promisify(execFile);

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

const markdown = (i: number) => `# Drill ${i}\n\n${"Backed up **and** restored. ".repeat(50 + i)}\n\n- one\n- two`;

/** Creates documents one after another while `during` runs; returns the ids acknowledged before it began, and all. */
async function writeWhile(tg: TestGateway, key: string, during: () => Promise<void>): Promise<{ before: string[]; all: string[] }> {
  const all: string[] = [];
  let before: string[] = [];
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const response = await fetch(`${tg.url}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `drill ${i}`, markdown: markdown(i) }),
      });
      expect(response.status).toBe(201);
      all.push(((await response.json()) as { id: string }).id);
    }
  })();
  // Some documents first, then the backup while the writer keeps going.
  while (all.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
  before = [...all];
  await during();
  stop = true;
  await writer;
  return { before, all };
}

/** Every listed document reads and downloads whole; returns the listed ids. */
async function readAllWhole(tg: TestGateway, key: string): Promise<string[]> {
  const auth = { authorization: `Bearer ${key}` };
  const page = (await (await fetch(`${tg.url}/api/v1/documents?limit=100`, { headers: auth })).json()) as {
    documents: { id: string; sizeBytes: number; characters: number }[];
  };
  for (const doc of page.documents) {
    const text = (await (await fetch(`${tg.url}/api/v1/documents/${doc.id}?maxChars=1000000`, { headers: auth })).json()) as {
      text: string;
      totalChars: number;
    };
    expect(text.totalChars).toBe(doc.characters);
    expect(text.text).toMatch(/^Drill \d+/);
    const bytes = new Uint8Array(await (await fetch(`${tg.url}/api/v1/documents/${doc.id}/content`, { headers: auth })).arrayBuffer());
    expect(bytes.byteLength).toBe(doc.sizeBytes);
    expect(await (await JSZip.loadAsync(bytes)).file("word/document.xml")!.async("string")).toContain("Drill");
  }
  return page.documents.map((doc) => doc.id);
}

describe("restore drill", () => {
  it("SQLite: VACUUM INTO while the gateway writes → restore into a new DATA_DIR → every document whole, the API key works", async () => {
    const original = await startTestGateway({ DATA_DIR: await tempDir("wg-bk-live-") });
    const backups = await tempDir("wg-bk-files-");
    const backup = join(backups, "gateway.sqlite");
    let key = "";
    let written: { before: string[]; all: string[] };
    try {
      key = await original.key({ user: "drill" });
      written = await writeWhile(original, key, async () => {
        // What an operator runs: sqlite3 "$DATA_DIR/gateway.sqlite" "VACUUM INTO '/backups/gateway.sqlite'"
        // (or `.backup`). A second connection, a consistent snapshot, the gateway keeps writing.
        const script = `const db = new (require("better-sqlite3"))(process.argv[1], { readonly: true }); db.prepare("VACUUM INTO ?").run(process.argv[2]); db.close();`;
        await run(process.execPath, ["-e", script, join(original.dataDir, "gateway.sqlite"), backup], { cwd: root });
      });
    } finally {
      await original.close(); // also deletes the original DATA_DIR: it is lost
    }
    expect((await stat(backup)).size).toBeGreaterThan(0);
    const restoredDir = await tempDir("wg-bk-restored-");
    execFileSync("cp", [backup, join(restoredDir, "gateway.sqlite")]);
    const restored = await startTestGateway({ DATA_DIR: restoredDir });
    try {
      const ids = await readAllWhole(restored, key);
      // Everything acknowledged before the backup began is in it; nothing after the last write is.
      for (const id of written!.before) expect(ids).toContain(id);
      for (const id of ids) expect(written!.all).toContain(id);
    } finally {
      await restored.close();
    }
  });

  const pgDump = requireProgram("pg_dump", {
    install: "apt-get install postgresql-client",
    purpose: "the PostgreSQL restore drill (test/deploy/backup.test.ts)",
  });
  const pgRestore =
    pgDump && requireProgram("pg_restore", { install: "apt-get install postgresql-client", purpose: "the PostgreSQL restore drill" });

  it.skipIf(!pgRestore)("PostgreSQL: pg_dump -Fc while the gateway writes → DROP SCHEMA → pg_restore → every document whole", async () => {
    const baseUrl = process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
    const schema = `gw_drill_${process.pid}_${randomBytes(4).toString("hex")}`;
    const databaseUrl = `${baseUrl}${baseUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    const dump = join(await tempDir("wg-bk-pg-"), "gateway.dump");
    try {
      await admin.query(`CREATE SCHEMA ${schema}`);
      const original = await startTestGateway({ DATABASE_URL: databaseUrl });
      let key = "";
      let written: { before: string[]; all: string[] };
      try {
        key = await original.key({ user: "drill" });
        // What an operator runs: pg_dump -Fc -f gateway.dump "$DATABASE_URL" (one consistent snapshot).
        written = await writeWhile(original, key, async () => {
          await run(pgDump!, ["-Fc", "-n", schema, "-f", dump, "-d", baseUrl]);
        });
      } finally {
        await original.close();
      }
      await admin.query(`DROP SCHEMA ${schema} CASCADE`); // the database is lost
      execFileSync(pgRestore!, ["-d", baseUrl, "--no-owner", dump]);
      const restored = await startTestGateway({ DATABASE_URL: databaseUrl });
      try {
        const ids = await readAllWhole(restored, key);
        for (const id of written!.before) expect(ids).toContain(id);
        for (const id of ids) expect(written!.all).toContain(id);
        // The migrations table came back too: the restored schema is not migrated twice.
        const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.schema_migrations`);
        expect(Number(rows[0]!.n)).toBeGreaterThan(0);
      } finally {
        await restored.close();
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
