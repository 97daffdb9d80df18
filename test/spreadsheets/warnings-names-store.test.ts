// An import's warnings and a defined name survive a restart, on a SQLite file and on PostgreSQL (a
// schema of this file's own, test/helpers/postgres.ts): the report is a blob the version's manifest
// names and the names are its book page, so a new gateway's describe answers the same warnings and
// lists the same names, and its first write (a worker loading the workbook from the store, report
// and names included) updates the warnings and keeps the names.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { loadConfig } from "../../src/core/config.ts";
import { createGateway } from "../../src/gateway.ts";
import { listen } from "../../src/server.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";
import { excelLike } from "./report-fixtures.ts";
import { rest, SHEETS_SCOPES } from "./surfaces.ts";

interface WithWarnings {
  id: string;
  warnings: { code: string; function?: string; count: number; cells: string[] }[];
}

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

async function scenario(env: Record<string, string>, kind: "sqlite" | "postgres"): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), `wg-warnings-${kind}-`));
  try {
    let running = await startOn(dataDir, env);
    expect(running.gateway.store.kind).toBe(kind);
    const { key } = await createApiKey(running.gateway.store, {
      userId: `wes-${kind}`,
      tenant: null,
      scopes: SHEETS_SCOPES,
      expiresInMs: null,
    });
    const file = new File([excelLike() as Uint8Array<ArrayBuffer>], "quarter.xlsx");
    const imported = await rest(running.url, key).upload("/api/v1/spreadsheets", file);
    expect(imported.status, imported.text).toBe(201);
    const { id, warnings } = imported.body as WithWarnings;
    expect(warnings.find((w) => w.code === "UNSUPPORTED_FUNCTION")).toMatchObject({ function: "FOOBAR", cells: ["Data!C1"] });
    const named = await rest(running.url, key).call("PUT", `/api/v1/spreadsheets/${id}/names/Base`, {
      refersTo: "=Data!$A$1",
      sheet: "Data",
    });
    expect(named.status, named.text).toBe(200);
    await running.stop();

    running = await startOn(dataDir, env);
    try {
      const api = rest(running.url, key);
      expect((await api.call<WithWarnings>("GET", `/api/v1/spreadsheets/${id}`)).body.warnings).toEqual(warnings);
      const write = await api.call("PUT", `/api/v1/spreadsheets/${id}/values/C1`, { values: [["=A1*21"]] });
      expect(write.status, write.text).toBe(200);
      const after = (await api.call<WithWarnings>("GET", `/api/v1/spreadsheets/${id}`)).body.warnings;
      expect(after.map((w) => w.code)).not.toContain("UNSUPPORTED_FUNCTION");
      // D1 and its dependent H1 still differ from the writer's values: remembered across the restart.
      expect(after.find((w) => w.code === "VALUE_DIFFERS")).toMatchObject({ count: 2, cells: ["Data!D1", "Data!H1"] });
      expect((await api.call("GET", `/api/v1/spreadsheets/${id}/names`)).body).toEqual({
        names: [{ name: "Base", sheet: "Data", refersTo: "=Data!$A$1" }],
      });
    } finally {
      await running.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe("an import's warnings and names on a SQLite file", () => {
  it("are the same after a restart, and the first write updates them and keeps the names", () => scenario({}, "sqlite"), 60_000);
});

describe("an import's warnings and names on PostgreSQL", () => {
  const { databaseUrl } = usePostgresSchema("sheets_warnings");
  it(
    "are the same after a restart, and the first write updates them and keeps the names",
    () => scenario({ DATABASE_URL: databaseUrl }, "postgres"),
    60_000,
  );
});
