// The keys CLI, run as a real process through the package's bin, against a real gateway.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppClient } from "../helpers/app.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../bin/workspace-gateway.js", import.meta.url));
let tg: TestGateway;

const cli = (...args: string[]) =>
  run(process.execPath, [bin, ...args], { env: { ...process.env, DATA_DIR: tg.dataDir, LOG_LEVEL: "silent" } });

beforeAll(async () => {
  tg = await startTestGateway();
});
afterAll(() => tg.close());

const list = (key: string) => fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } });

describe("workspace-gateway keys", () => {
  it("create prints a key that works; list never prints it; revoke takes effect", async () => {
    const created = await cli("keys", "create", "--user", "cli-user", "--scopes", "docs:read");
    const key = created.stdout.trim();
    expect(key).toMatch(/^wgk_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toMatch(/shown once/);
    expect((await list(key)).status).toBe(200);

    const listed = await cli("keys", "list", "--user", "cli-user", "--json");
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(key.slice(10));
    const rows = JSON.parse(listed.stdout) as { id: string; scopes: string[]; revokedAt: string | null }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ scopes: ["docs:read"], revokedAt: null });
    const text = await cli("keys", "list");
    // A header names the columns (issue 26 point 6).
    expect(text.stdout.split("\n")[0]).toBe("ID\tUSER\tTENANT\tSCOPES\tPREFIX\tSTATUS");
    expect(text.stdout).toContain(rows[0]!.id);
    expect(text.stdout).not.toContain(key);

    await cli("keys", "revoke", rows[0]!.id);
    expect((await list(key)).status).toBe(401);
  });

  it("--expires-in sets an expiry and --json prints machine-readable output", async () => {
    const { stdout } = await cli("keys", "create", "--user", "exp", "--expires-in", "2h", "--json");
    const body = JSON.parse(stdout) as { key: string; expiresAt: string };
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
  });

  it("bad usage fails with a message and exit code 2; an unknown id is one line and exit 1", async () => {
    for (const args of [
      ["keys", "create"],
      ["keys", "revoke"],
      ["keys", "nope"],
      ["keys", "create", "--user", "x", "--scopes", "admin"],
      ["keys", "create", "--user", "x", "--tenant", "../evil"],
      ["keys", "create", "--user", "x", "--tenant", "Acme"],
    ]) {
      const failure = await cli(...args).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure, args.join(" ")).not.toBeNull();
      expect(failure!.stderr.length).toBeGreaterThan(0);
    }
    // Used right, naming a key the store lacks: one clear line, not the usage (issue 26 point 6).
    const unknownKey = await cli("keys", "revoke", "key_nope").catch((e: { code: number; stderr: string }) => e);
    expect((unknownKey as { code: number }).code).toBe(1);
    const lines = (unknownKey as { stderr: string }).stderr.trim().split("\n");
    // (Before it: which store, and how the command runs; never the usage.)
    expect(lines.at(-1)).toBe("No key with id key_nope in this store (keys list shows the ids)");
    expect((unknownKey as { stderr: string }).stderr).not.toMatch(/Usage/);
  });

  it("sign-in-link prints an absolute one-time link (on PUBLIC_URL); sessions lists it; revoking the key or the session ends it", async () => {
    const linked = await run(process.execPath, [bin, "keys", "sign-in-link", "--user", "cli-owner", "--expires-in", "5m"], {
      env: { ...process.env, DATA_DIR: tg.dataDir, LOG_LEVEL: "silent", PUBLIC_URL: "https://docs.example.com/gw" },
    });
    const url = linked.stdout.trim();
    expect(url).toMatch(/^https:\/\/docs\.example\.com\/gw\/app\/sign-in\/link\?token=wgl_[A-Za-z0-9_-]{43}$/);
    expect(linked.stderr).toMatch(/once/);
    const client = new AppClient(tg.url);
    expect((await client.get(`/app/sign-in/link${new URL(url).search}`)).location).toBe("/app");
    const sessions = JSON.parse((await cli("keys", "sessions", "--user", "cli-owner", "--json")).stdout) as {
      id: string;
      method: string;
    }[];
    expect(sessions).toEqual([expect.objectContaining({ method: "sign_in_link" })]);
    expect((await cli("keys", "revoke", sessions[0]!.id)).stdout.trim()).toBe(`Ended ${sessions[0]!.id}`);
    expect((await client.get("/app")).status).toBe(303);

    // A key's sessions end with it.
    const key = (await cli("keys", "create", "--user", "cli-owner")).stdout.trim();
    await client.signInWithKey(key);
    expect((await client.get("/app")).status).toBe(200);
    const [record] = JSON.parse((await cli("keys", "list", "--user", "cli-owner", "--json")).stdout) as { id: string }[];
    expect((await cli("keys", "revoke", record!.id)).stdout.trim()).toBe(`Revoked ${record!.id} (and ended 1 session it opened)`);
    expect((await client.get("/app")).status).toBe(303);
    // Without PUBLIC_URL the link is on the server's HOST and PORT.
    const local = await run(process.execPath, [bin, "keys", "sign-in-link", "--user", "cli-owner"], {
      env: { ...process.env, DATA_DIR: tg.dataDir, LOG_LEVEL: "silent", PUBLIC_URL: "", HOST: "0.0.0.0", PORT: "4123" },
    });
    expect(local.stdout.trim()).toMatch(/^http:\/\/localhost:4123\/app\/sign-in\/link\?token=wgl_/);
  });

  it("a bad configuration value stops with a message naming the variable", async () => {
    const failure = await run(process.execPath, [bin, "keys", "list"], {
      env: { ...process.env, DATA_DIR: tg.dataDir, PORT: "not-a-port" },
    }).catch((e: { code: number; stderr: string }) => e);
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stderr: string }).stderr).toMatch(/PORT/);
  });
});
