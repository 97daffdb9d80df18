// Two gateway processes sharing one PostgreSQL schema, over HTTP (what compose.yaml runs): a
// document created on A reads and downloads whole on B; one Idempotency-Key over A then B makes
// one document; a key revoked through the CLI is refused by both on their next request; SIGKILL of
// A during creates leaves only whole documents, as B reads them.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { startGatewayProcess, type GatewayProcess } from "../helpers/process.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../bin/workspace-gateway.js", import.meta.url));
const { databaseUrl } = usePostgresSchema("gw_repl");

let a: GatewayProcess;
let b: GatewayProcess;
beforeAll(async () => {
  // Started together on an empty schema: both migrate, once (the advisory lock).
  [a, b] = await Promise.all([startGatewayProcess({ DATABASE_URL: databaseUrl }), startGatewayProcess({ DATABASE_URL: databaseUrl })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function newKey(user: string): Promise<{ key: string; id: string }> {
  const store = await openPostgresStore(databaseUrl, { poolMax: 1 });
  try {
    const { key, record } = await createApiKey(store, { userId: user });
    return { key, id: record.id };
  } finally {
    await store.close();
  }
}

const create = (url: string, key: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("two replicas on one PostgreSQL, over HTTP", () => {
  it("a document created on A reads and downloads whole on B", async () => {
    const { key } = await newKey("cross");
    const auth = { authorization: `Bearer ${key}` };
    const response = await create(a.url, key, {
      name: "from A",
      markdown: "# Made on A\n\nRead **on B**.\n\n| x | y |\n|---|---|\n| 1 | 2 |",
    });
    expect(response.status).toBe(201);
    const doc = (await response.json()) as { id: string; sizeBytes: number; characters: number };
    const text = (await (await fetch(`${b.url}/api/v1/documents/${doc.id}`, { headers: auth })).json()) as {
      text: string;
      totalChars: number;
    };
    expect(text.text).toMatch(/^Made on A/);
    expect(text.totalChars).toBe(doc.characters);
    const onB = new Uint8Array(await (await fetch(`${b.url}/api/v1/documents/${doc.id}/content`, { headers: auth })).arrayBuffer());
    const onA = new Uint8Array(await (await fetch(`${a.url}/api/v1/documents/${doc.id}/content`, { headers: auth })).arrayBuffer());
    expect(onB.byteLength).toBe(doc.sizeBytes);
    expect(Buffer.from(onB).equals(Buffer.from(onA))).toBe(true);
  });

  it("one Idempotency-Key over A then B makes one document", async () => {
    const { key } = await newKey("idem");
    const body = { name: "once", markdown: "# Once" };
    const first = await create(a.url, key, body, { "idempotency-key": "cross-replica-1" });
    const second = await create(b.url, key, body, { "idempotency-key": "cross-replica-1" });
    expect(first.status).toBe(201);
    expect([200, 201]).toContain(second.status);
    const one = (await first.json()) as { id: string };
    expect(((await second.json()) as { id: string }).id).toBe(one.id);
    const list = (await (await fetch(`${b.url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      documents: { id: string }[];
    };
    expect(list.documents.map((d) => d.id)).toEqual([one.id]);
  });

  it("a key revoked through the CLI is refused by both replicas on their next request", async () => {
    const { key, id } = await newKey("revoked");
    const list = (url: string) => fetch(`${url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect([await list(a.url), await list(b.url)]).toEqual([200, 200]);
    await run(process.execPath, [bin, "keys", "revoke", id], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" } });
    expect([await list(a.url), await list(b.url)]).toEqual([401, 401]);
  });

  it("SIGKILL of A during creates: every document listed on B reads and downloads whole", async () => {
    const { key } = await newKey("killed");
    const markdown = (i: number) => `# Document ${i}\n\n${"Some **bold** text. ".repeat(300)}`;
    let acknowledged = 0;
    let stop = false;
    let enough!: () => void;
    const reached = new Promise<void>((resolve) => (enough = resolve));
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        try {
          const response = await create(a.url, key, { name: `w${w}-${i}`, markdown: markdown(i) });
          await response.arrayBuffer();
          if (response.status !== 201) throw new Error(`create answered ${response.status}`);
        } catch {
          return; // A is gone
        }
        if (++acknowledged >= 8) enough();
      }
    });
    await reached;
    a.child.kill("SIGKILL");
    stop = true;
    await Promise.all(writers);
    await a.stop();
    const auth = { authorization: `Bearer ${key}` };
    const page = (await (await fetch(`${b.url}/api/v1/documents?limit=100`, { headers: auth })).json()) as {
      documents: { id: string; sizeBytes: number; characters: number }[];
    };
    expect(page.documents.length).toBeGreaterThanOrEqual(acknowledged);
    for (const doc of page.documents) {
      const text = (await (await fetch(`${b.url}/api/v1/documents/${doc.id}?maxChars=1000000`, { headers: auth })).json()) as {
        totalChars: number;
        text: string;
      };
      expect(text.totalChars).toBe(doc.characters);
      expect(text.text).toMatch(/^Document \d+/);
      const bytes = await (await fetch(`${b.url}/api/v1/documents/${doc.id}/content`, { headers: auth })).arrayBuffer();
      expect(bytes.byteLength).toBe(doc.sizeBytes);
    }
  });
});
