// Spreadsheets on both stores behind the real gateway: the same scenario on a SQLite file and on
// PostgreSQL (127.0.0.1:5432, database test, a schema of this file's own; test/helpers/postgres.ts).
// Concurrent writes with one If-Match give exactly one winner each round; then the gateway stops
// and a new one starts on the same store, and the workbook, its values and formulas, its versions,
// the trash, its share link, its idempotent append and its preconditions are all as they were.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { loadConfig } from "../../src/core/config.ts";
import { createGateway } from "../../src/gateway.ts";
import { listen } from "../../src/server.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";
import { rest, SHEETS_SCOPES, trpc, type Rest } from "./surfaces.ts";

async function startOn(dataDir: string, env: Record<string, string>) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    AUTH_FAILURES_PER_MINUTE: "0",
    ...env,
  });
  const gateway = await createGateway(config);
  const running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  return { url: running.url, gateway, stop: () => running.stop() };
}

interface Record_ {
  id: string;
  version: number;
}

const sheet = (id: string, rest_ = "") => `/api/v1/spreadsheets/${id}${rest_}`;

/** What a caller can see of the workbook and its surroundings, to compare across a restart. */
async function snapshot(api: Rest, id: string, shareUrl: string, baseUrl: string) {
  const get = async (path: string) => {
    const answer = await api.call("GET", path);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    return answer.body;
  };
  const file = await api.bytes(sheet(id, "/content"));
  expect(file.status).toBe(200);
  expect([...file.bytes.slice(0, 2)]).toEqual([0x50, 0x4b]);
  return {
    record: await get(sheet(id)),
    both: await get(sheet(id, `/values/${encodeURIComponent("A1:E8")}?render=both`)),
    summary: await get(sheet(id, `/values/${encodeURIComponent("Summary!A1:A2")}`)),
    versions: await get(sheet(id, "/versions")),
    version1: await get(sheet(id, "/versions/1")),
    list: await get("/api/v1/spreadsheets"),
    trash: await get("/api/v1/trash"),
    shared: await (await fetch(`${baseUrl}${shareUrl}`)).json(),
  };
}

/** Four writers, one If-Match each round: one 200, three 412, three rounds. */
async function raceRounds(api: Rest, id: string, from: number): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const version = from + round;
    const answers = await Promise.all(
      ["A", "B", "C", "D"].map((who) =>
        api.call("PUT", sheet(id, "/values/E1"), { values: [[`${who}${version}`]] }, { "if-match": `"v${version}"` }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412]);
  }
}

async function scenario(env: Record<string, string>, kind: "sqlite" | "postgres"): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), `wg-sheets-${kind}-`));
  try {
    let running = await startOn(dataDir, env);
    expect(running.gateway.store.kind).toBe(kind);
    const { key } = await createApiKey(running.gateway.store, {
      userId: `erin-${kind}`,
      tenant: null,
      scopes: SHEETS_SCOPES,
      expiresInMs: null,
    });
    let api = rest(running.url, key);
    const created = await api.call<Record_>("POST", "/api/v1/spreadsheets", {
      name: `Ledger on ${kind}`,
      sheets: [
        {
          name: "Ledger",
          values: [
            ["what", "amount"],
            ["rent", 1200],
            ["food", 310.5],
            ["total", "=SUM(B2:B3)"],
          ],
        },
        { name: "Summary", values: [["=Ledger!B4*12"], ["=COUNTA(Ledger!A:A)"]] },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body;
    await raceRounds(api, id, 1);
    const appended = await api.call("POST", sheet(id, "/append"), { values: [["travel", 99]] }, { "idempotency-key": "ledger-append" });
    expect(appended.status, appended.text).toBe(200);
    await trpc(running.url, key).sheets.edit.mutate({ id, operations: [{ insertRows: { sheet: "Ledger", at: 2, count: 1 } }] });
    const share = (await api.call<{ url: string }>("POST", sheet(id, "/shares"))).body;
    const binned = (await api.call<Record_>("POST", "/api/v1/spreadsheets", { name: "binned" })).body;
    expect((await api.call("DELETE", sheet(binned.id))).status).toBe(204);
    const before = await snapshot(api, id, share.url, running.url);
    expect(before.both).toMatchObject({
      values: [
        ["what", "amount", null, null, expect.stringMatching(/^[ABCD]3$/)],
        [null, null, null, null, null],
        ["rent", 1200, null, null, null],
        ["food", 310.5, null, null, null],
        ["total", { value: 1510.5, formula: "=SUM(B3:B4)" }, null, null, null],
        ["travel", 99, null, null, null],
        [null, null, null, null, null],
        [null, null, null, null, null],
      ],
    });
    expect(before.summary).toMatchObject({ values: [[18126], [5]] });
    expect(before.record).toMatchObject({ version: 6 });
    await running.stop();

    running = await startOn(dataDir, env);
    api = rest(running.url, key);
    try {
      expect(await snapshot(api, id, share.url, running.url)).toEqual(before);
      // The append's key is remembered: a retry answers the first result and appends nothing.
      const retried = await api.call("POST", sheet(id, "/append"), { values: [["travel", 99]] }, { "idempotency-key": "ledger-append" });
      expect(retried.body).toEqual(appended.body);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      // Preconditions and formulas go on from the stored version.
      expect((await api.call("PUT", sheet(id, "/values/B3"), { values: [[1000]] }, { "if-match": '"v5"' })).status).toBe(412);
      const write = await api.call<{ recalculatedCells: number }>(
        "PUT",
        sheet(id, "/values/B3"),
        { values: [[1000]] },
        { "if-match": '"v6"' },
      );
      expect(write.status, write.text).toBe(200);
      expect(write.body.recalculatedCells).toBe(2);
      expect((await api.call("GET", sheet(id, `/values/${encodeURIComponent("Summary!A1")}`))).body).toMatchObject({ values: [[15726]] });
      await raceRounds(api, id, 7);
      expect((await api.call("POST", `/api/v1/trash/${binned.id}/restore`)).status).toBe(200);
      expect((await api.call<{ versions: unknown[] }>("GET", sheet(id, "/versions"))).body.versions).toHaveLength(10);
    } finally {
      await running.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe("spreadsheets on a SQLite file", () => {
  it("one winner among concurrent writes; everything survives a restart", () => scenario({}, "sqlite"), 120_000);
});

describe("spreadsheets on PostgreSQL", () => {
  const { databaseUrl } = usePostgresSchema("sheets_behaviour");
  it(
    "one winner among concurrent writes; everything survives a restart",
    () => scenario({ DATABASE_URL: databaseUrl }, "postgres"),
    120_000,
  );
});
