// The spreadsheets pool: the engine in worker threads, models kept between jobs, blobs asked for
// when a worker lacks a version, and the .xlsx written off the event loop.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import type { GatewayError } from "../../src/core/errors.ts";
import { SheetsPool, type Base, type Saved } from "../../src/spreadsheets/pool/index.ts";
import { decodeRoot, pagesOf, childrenOfPage } from "../../src/spreadsheets/tiles/stored-manifest.ts";

let pool: SheetsPool;
const stored = new Map<string, Uint8Array>();
let fetches = 0;

function keep(saved: Saved): void {
  for (const [hash, bytes] of saved.blobs) stored.set(hash, bytes);
}
/** Every blob of a version, as the service's store would give them. */
async function blobs(base: Base): Promise<[string, Uint8Array][]> {
  fetches++;
  const root = stored.get(base.rootHash)!;
  const pages = pagesOf(decodeRoot(root));
  const tiles = pages.flatMap((hash) => childrenOfPage(stored.get(hash)!));
  return [base.rootHash, ...pages, ...tiles].map((hash) => [hash, stored.get(hash)!]);
}

beforeAll(() => {
  pool = new SheetsPool({
    workers: 2,
    maxHeapMb: 512,
    queuePerPrincipal: 100,
    maxQueue: 100,
    jobTimeoutMs: 60_000,
    worker: { maxCells: 2_000_000, cacheCells: 4_000_000, budget: { maxSteps: 200_000_000, maxMs: 10_000 } },
  });
});
afterAll(() => pool.close());

describe("the spreadsheets pool", () => {
  it("creates, changes, evaluates and writes out a workbook, loading a version only when a worker lacks it", async () => {
    // Workers start with their first job: none before it.
    expect(pool.threads).toBe(0);
    const created = await pool.run({
      kind: "create",
      sheets: [
        {
          name: "Data",
          values: [
            ["n", "double"],
            [1, "=A2*2"],
            [2, "=A3*2"],
          ],
        },
        { name: "Csv", csv: "a;b\n1;2\n" },
      ],
      input: "parse",
    });
    if (created.kind !== "saved") throw new Error("saved expected");
    keep(created.saved);
    expect(created.saved.cells).toBe(10);
    expect(created.saved.sheets.map((s) => s.name)).toEqual(["Data", "Csv"]);

    const base: Base = { workbookId: "wb_test", version: 1, rootHash: created.saved.rootHash };
    const token = pool.token();
    const changed = await pool.run(
      { kind: "change", base, change: { kind: "write", range: "Data!A2", values: [[10]], input: "parse" }, token },
      blobs,
    );
    if (changed.kind !== "saved") throw new Error("saved expected");
    expect(fetches).toBe(1);
    expect(changed.saved.result).toMatchObject({ updatedCells: 1, recalculatedCells: 1 });
    keep(changed.saved);
    pool.commit("wb_test", token, 2);

    // Held at version 2 now: no fetch for the next jobs.
    const next: Base = { workbookId: "wb_test", version: 2, rootHash: changed.saved.rootHash };
    const value = await pool.run({ kind: "evaluate", base: next, formula: "SUM(Data!B2:B3)" }, blobs);
    expect(value).toEqual({ kind: "value", value: 24 });
    const xlsx = await pool.run({ kind: "render", base: next, format: "xlsx", title: "Test" }, blobs);
    expect(fetches).toBe(1);
    if (xlsx.kind !== "bytes") throw new Error("bytes expected");
    const zip = await JSZip.loadAsync(xlsx.bytes);
    const sheet = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
    expect(sheet).toContain("<f>A2*2</f><v>20</v>");
  });

  it("a download of a version the worker lacks loads it for that render only; a read keeps it", async () => {
    const created = await pool.run({ kind: "create", sheets: [{ name: "S", values: [[1, "=A1+1"]] }], input: "parse" });
    if (created.kind !== "saved") throw new Error("saved expected");
    keep(created.saved);
    const base: Base = { workbookId: "wb_render_once", version: 1, rootHash: created.saved.rootHash };
    const before = fetches;
    // The service caches a version's bytes, so its model is not held after the render…
    expect((await pool.run({ kind: "render", base, format: "csv", title: "T" }, blobs)).kind).toBe("bytes");
    expect((await pool.run({ kind: "render", base, format: "xlsx", title: "T" }, blobs)).kind).toBe("bytes");
    expect(fetches).toBe(before + 2);
    // …while a read's is, for the jobs that follow.
    expect(await pool.run({ kind: "evaluate", base, formula: "B1*10" }, blobs)).toEqual({ kind: "value", value: 20 });
    expect((await pool.run({ kind: "render", base, format: "csv", title: "T" }, blobs)).kind).toBe("bytes");
    expect(fetches).toBe(before + 3);
  });

  it("an engine error comes back in the contract's words, and the worker carries on", async () => {
    await expect(pool.run({ kind: "create", sheets: [{ name: "Bad[name]" }], input: "parse" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
    });
    const ok = await pool.run({ kind: "create", sheets: [{ name: "Fine" }], input: "parse" });
    expect(ok.kind).toBe("saved");
  });

  it("a hostile .xlsx is refused with 415 and a bad CSV sheet with the reader's code", async () => {
    await expect(
      pool.run({
        kind: "import",
        bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]),
        format: "xlsx",
        sheetName: "S",
        input: "parse",
      }),
    ).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("imports an upload from its temp file (the path), read by the worker", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wg-pool-import-"));
    try {
      const path = join(dir, "0");
      await writeFile(path, "item,qty\napple,3\n");
      const imported = await pool.run({ kind: "import", path, format: "csv", sheetName: "S", input: "parse" });
      expect(imported.kind === "saved" && imported.saved.cells).toBe(4);
      await expect(
        pool.run({ kind: "import", path: join(dir, "gone"), format: "csv", sheetName: "S", input: "parse" }),
      ).rejects.toMatchObject({ code: "INTERNAL" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a job whose heap passes maxHeapMb fails alone (413, SHEETS_WORKER_MAX_MB) and the next job runs on a fresh worker", async () => {
    const small = new SheetsPool({
      workers: 1,
      maxHeapMb: 64,
      queuePerPrincipal: 10,
      maxQueue: 10,
      jobTimeoutMs: 60_000,
      worker: { maxCells: 5_000_000, cacheCells: 5_000_000, budget: { maxSteps: 200_000_000, maxMs: 30_000 } },
    });
    try {
      // A million cells of text: far more than 64 MB once the engine holds them.
      const values = Array.from({ length: 100_000 }, (_, row) =>
        Array.from({ length: 10 }, (_, column) => `cell ${row}:${column}, too many`),
      );
      const failed = await small.run({ kind: "create", sheets: [{ name: "S", values }], input: "parse" }).then(
        () => undefined,
        (error: unknown) => error as GatewayError,
      );
      expect(failed).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { limit: "SHEETS_WORKER_MAX_MB", limitMb: 64 } });
      // Stopped by the pool's heap watch, not by V8 at its cap (src/core/heap-watch.ts).
      expect(failed?.cause).toBeUndefined();
      const next = await small.run({ kind: "create", sheets: [{ name: "S", values: [[1]] }], input: "parse" });
      expect(next.kind).toBe("saved");
    } finally {
      await small.close();
    }
  });

  it("a job still waiting when its caller hangs up is dropped; one past its principal's bound is refused", async () => {
    const small = new SheetsPool({
      workers: 1,
      maxHeapMb: 256,
      jobsPerPrincipal: 1,
      queuePerPrincipal: 1,
      maxQueue: 10,
      jobTimeoutMs: 60_000,
      worker: { maxCells: 100_000, cacheCells: 100_000, budget: { maxSteps: 1_000_000, maxMs: 5_000 } },
    });
    try {
      const job = { kind: "create" as const, sheets: [{ name: "S", values: [[1]] }], input: "parse" as const };
      const running = small.run(job, undefined, { principal: "alice" });
      const caller = new AbortController();
      const waiting = small.run(job, undefined, { principal: "alice", signal: caller.signal });
      await expect(small.run(job, undefined, { principal: "alice" })).rejects.toMatchObject({ code: "RATE_LIMITED", retryAfter: 1 });
      expect(small.jobs).toEqual({ running: 1, waiting: 1 });
      caller.abort();
      await expect(waiting).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
      expect(small.jobs.waiting).toBe(0);
      expect((await running).kind).toBe("saved");
      // Its place is free again.
      expect((await small.run(job, undefined, { principal: "alice" })).kind).toBe("saved");
    } finally {
      await small.close();
    }
  });
});
