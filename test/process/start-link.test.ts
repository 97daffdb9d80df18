// `npm start`'s sign-in link (docs/app.md "Your first sign-in"): the gateway started as its own
// process prints a one-time link for the local owner on the embedded store bound to loopback, and
// a person uses it over HTTP; bound elsewhere, or on PostgreSQL, it prints none.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { LOCAL_OWNER } from "../../src/auth/start-link.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { AppClient } from "../helpers/app.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";
import { startGatewayProcess } from "../helpers/process.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "wg-start-link-"));
  dirs.push(dir);
  return dir;
};
const pg = usePostgresSchema("start_link");

describe("npm start's sign-in link", () => {
  it("on SQLite and loopback: the start-up line's link signs `me` in once, and their API documents are listed", async () => {
    const dataDir = await freshDir();
    // The README's first key, for the same person: what it creates is theirs in the application.
    const store = openSqliteStore(dataDir);
    const { key } = await createApiKey(store, { userId: LOCAL_OWNER });
    await store.close();
    const gateway = await startGatewayProcess({ DATA_DIR: dataDir, HOST: "127.0.0.1" });
    try {
      const created = await fetch(`${gateway.url}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Made through the API", markdown: "# Hello" }),
      });
      expect(created.status).toBe(201);

      const line = gateway.startLine;
      expect(line["app"]).toBe(`${gateway.url}/app`);
      expect(line["signInLinkUser"]).toBe("me");
      const link = String(line["signInLink"]);
      expect(link).toMatch(new RegExp(`^${gateway.url}/app/sign-in/link\\?token=wgl_[A-Za-z0-9_-]{43}$`));
      const expires = Date.parse(String(line["signInLinkExpiresAt"])) - Date.now();
      expect(expires).toBeGreaterThan(8 * 60_000);
      expect(expires).toBeLessThanOrEqual(10 * 60_000);

      const person = new AppClient(gateway.url);
      const opened = await person.get(link);
      expect(opened.status).toBe(303);
      expect(opened.location).toBe("/app");
      const list = await person.get("/app");
      expect(list.status).toBe(200);
      expect(list.text).toContain("Made through the API");

      // One use: the same link in another browser opens nothing.
      const stranger = new AppClient(gateway.url);
      const again = await stranger.get(link);
      expect(again.status).toBe(401);
      expect(stranger.cookies.has("wg_session")).toBe(false);
      expect((await stranger.get("/app")).status).toBe(303);
    } finally {
      await gateway.stop();
    }
  });

  it("bound to a non-loopback address: no link is made, the line points at the CLI", async () => {
    const gateway = await startGatewayProcess({ DATA_DIR: await freshDir(), HOST: "0.0.0.0" });
    try {
      expect(gateway.startLine["signInLink"]).toBeUndefined();
      expect(gateway.startLine["signIn"]).toBe("npx workspace-gateway keys sign-in-link --user <id>");
      expect(gateway.startLine["signInLinkWithheld"]).toBe("HOST 0.0.0.0 is not a loopback address");
      expect(gateway.stdout()).not.toContain("wgl_");
      // It is up and answering: the absence is the rule, not a failed start.
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });

  it("on PostgreSQL, even on loopback: no link", async () => {
    const gateway = await startGatewayProcess({ DATABASE_URL: pg.databaseUrl, HOST: "127.0.0.1" });
    try {
      expect(gateway.startLine["signInLink"]).toBeUndefined();
      expect(gateway.startLine["signInLinkWithheld"]).toBe("the store is PostgreSQL (DATABASE_URL)");
      expect(gateway.stdout()).not.toContain("wgl_");
    } finally {
      await gateway.stop();
    }
  });
});
