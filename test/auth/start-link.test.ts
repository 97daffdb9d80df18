// When `npm start` makes its sign-in link (docs/app.md "Your first sign-in"); the link used by a
// person against the real process: test/process/start-link.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startUpSignIn, withheldBecause } from "../../src/auth/start-link.ts";
import { loadConfig } from "../../src/core/config.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "wg-start-link-"));
  dirs.push(dir);
  return dir;
};

describe("when a start-up link is made", () => {
  const config = (env: Record<string, string>) => loadConfig({ ...env });

  it("only on SQLite with a loopback HOST, and a loopback PUBLIC_URL when one is set", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "LOCALHOST", "::1", "[::1]"]) {
      expect(withheldBecause(config({ HOST: host }), "sqlite"), host).toBeUndefined();
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "10.0.0.5", "gateway.internal", "127.0.0.1.example.com"]) {
      expect(withheldBecause(config({ HOST: host }), "sqlite"), host).toBe(`HOST ${host} is not a loopback address`);
    }
    expect(withheldBecause(config({ PUBLIC_URL: "http://localhost:4000" }), "sqlite")).toBeUndefined();
    expect(withheldBecause(config({ PUBLIC_URL: "http://[::1]:4000" }), "sqlite")).toBeUndefined();
    expect(withheldBecause(config({ PUBLIC_URL: "https://gw.example.com" }), "sqlite")).toBe("PUBLIC_URL is not a loopback address");
    expect(withheldBecause(config({}), "postgres")).toBe("the store is PostgreSQL (DATABASE_URL)");
  });

  it("APP_SIGN_IN_LINK_ON_START=false: none, and no pointer either; a link on PUBLIC_URL otherwise", async () => {
    const store = openSqliteStore(await freshDir());
    try {
      expect(await startUpSignIn(store, config({ APP_SIGN_IN_LINK_ON_START: "false" }), "sqlite", "http://127.0.0.1:4000")).toEqual({});
      const on = config({ PUBLIC_URL: "http://localhost:8080/gw" });
      expect(on.APP_SIGN_IN_LINK_ON_START).toBe(true);
      const made = await startUpSignIn(store, on, "sqlite", "http://localhost:8080/gw");
      expect(made).toMatchObject({ signInLink: expect.stringMatching(/^http:\/\/localhost:8080\/gw\/app\/sign-in\/link\?token=wgl_/) });
    } finally {
      await store.close();
    }
    expect(() => config({ APP_SIGN_IN_LINK_ON_START: "yes" })).toThrow(/APP_SIGN_IN_LINK_ON_START/);
  });
});
