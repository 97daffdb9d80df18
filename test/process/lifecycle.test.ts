// The gateway as a real process (`npm start`'s entry): crash safety under SIGKILL, graceful
// shutdown on SIGTERM, configuration errors naming the variable.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { root, startGatewayProcess } from "../helpers/process.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function freshDataDir(): Promise<{ dataDir: string; key: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-proc-"));
  dirs.push(dataDir);
  const store = openSqliteStore(dataDir);
  const { key } = await createApiKey(store, { userId: "crash" });
  await store.close();
  return { dataDir, key };
}

describe("crash safety", () => {
  it("after SIGKILL mid-stream, every listed document reads and downloads whole", async () => {
    const { dataDir, key } = await freshDataDir();
    const { child, url, stop } = await startGatewayProcess({ DATA_DIR: dataDir });
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const markdown = (i: number) =>
      `# Document ${i}\n\n${"Some **bold** text and a [link](https://example.com). ".repeat(200)}\n\n| a | b |\n|---|---|\n| ${i} | x |`;
    // Kill on events, not after a fixed window (which a slow, shared machine can spend on start-up
    // alone): once KILL_AFTER creates are acknowledged (committed rows), and at that moment, since
    // every writer sends its next create as soon as its last one is answered, the other writers'
    // creates are in flight: some rendering, some mid-transaction.
    const KILL_AFTER = 12;
    const WRITERS = 6;
    let acknowledged = 0;
    let stopWriters = false;
    let inFlight = 0;
    let enough!: () => void;
    const reached = new Promise<void>((resolve) => (enough = resolve));
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; !stopWriters; i++) {
        let status: number;
        try {
          inFlight++;
          const response = await fetch(`${url}/api/v1/documents`, {
            method: "POST",
            headers,
            body: JSON.stringify({ name: `w${w}-${i}`, markdown: markdown(i) }),
          });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          return; // the process is gone
        } finally {
          inFlight--;
        }
        if (status !== 201) throw new Error(`create answered ${status} before the kill`);
        if (++acknowledged >= KILL_AFTER) enough();
      }
    });
    // A gateway that dies first, or a create that fails, ends the wait instead of the test timeout.
    let killed = false;
    const early = new Promise<void>((_, reject) => {
      child.once("exit", (code) => !killed && reject(new Error(`gateway exited (${code}) before the kill`)));
      void Promise.all(writers).catch(reject);
    });
    await Promise.race([reached, early]);
    expect(inFlight).toBeGreaterThan(0);
    killed = true;
    child.kill("SIGKILL");
    stopWriters = true;
    await stop();
    await Promise.all(writers);
    expect(acknowledged).toBeGreaterThan(0);

    const tg = await startTestGateway({ DATA_DIR: dataDir });
    try {
      const auth = { authorization: `Bearer ${key}` };
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = (await (
          await fetch(`${tg.url}/api/v1/documents?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth })
        ).json()) as {
          documents: { id: string; sizeBytes: number; characters: number }[];
          nextCursor: string | null;
        };
        for (const doc of page.documents) {
          ids.push(doc.id);
          const text = (await (await fetch(`${tg.url}/api/v1/documents/${doc.id}?maxChars=1000000`, { headers: auth })).json()) as {
            text: string;
            totalChars: number;
          };
          expect(text.totalChars).toBe(doc.characters);
          expect(text.text).toMatch(/^Document \d+/);
          const bytes = new Uint8Array(
            await (await fetch(`${tg.url}/api/v1/documents/${doc.id}/content`, { headers: auth })).arrayBuffer(),
          );
          expect(bytes.byteLength).toBe(doc.sizeBytes);
          const zip = await JSZip.loadAsync(bytes);
          expect(await zip.file("word/document.xml")!.async("string")).toContain("Document");
        }
        cursor = page.nextCursor;
      } while (cursor);
      // Every acknowledged create survived (at most the in-flight ones are missing).
      expect(ids.length).toBeGreaterThanOrEqual(acknowledged);
    } finally {
      await tg.close();
    }
  });
});

describe("graceful shutdown", () => {
  it("SIGTERM lets an in-flight create finish, then exits 0", async () => {
    const { dataDir, key } = await freshDataDir();
    // One render worker and no queue, so that "the create is in flight" is an event to wait for,
    // not a guess of 50 ms: once it renders, a probe create is refused with 503 (queue full).
    const { child, url } = await startGatewayProcess({ DATA_DIR: dataDir, RENDER_WORKERS: "1", RENDER_QUEUE: "0" });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const create = (name: string, markdown: string) =>
      fetch(`${url}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name, markdown }),
      });
    const pending = create("in flight", "# x\n\n".repeat(20_000));
    let settled = false;
    void pending.finally(() => (settled = true));
    for (;;) {
      const probe = await create("probe", "p");
      await probe.arrayBuffer();
      if (probe.status === 503) break;
      expect(probe.status).toBe(201); // it reached the worker first; probe again
      if (settled) throw new Error("the create finished before it was seen in flight; make it larger");
    }
    child.kill("SIGTERM");
    const response = await pending;
    expect(response.status).toBe(201);
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it("a bad configuration value stops the process naming the variable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "70000", DATABASE_URL: "mysql://nope" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/PORT/);
    expect(stderr).toMatch(/DATABASE_URL/);
  });

  it.each([
    [
      "a DATA_DIR that cannot hold the store",
      { DATA_DIR: "/dev/null/store" },
      /DATA_DIR \(\/dev\/null\/store\): the store could not be opened: ENOTDIR/,
    ],
    [
      "an unreachable DATABASE_URL",
      { DATABASE_URL: "postgres://postgres@127.0.0.1:1/test" },
      /DATABASE_URL: the store could not be opened: .*ECONNREFUSED/,
    ],
    ["a HOST this machine does not have", { HOST: "192.0.2.1", PORT: "0" }, /HOST\/PORT: cannot listen on 192\.0\.2\.1:0: .*EADDRNOTAVAIL/],
  ])("%s stops the process with one line naming the variable", async (_label, env, message) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace for a configuration problem
  });
});
