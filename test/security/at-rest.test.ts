// What the gateway leaves on disk and in its logs: the SQLite store and its directory are private
// to the gateway's user, and a credential never appears in clear in the database bytes or a log line.
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFile } from "../../src/store/sqlite.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { call, SURFACES } from "./surfaces.ts";

const mode = (path: string) => statSync(path).mode & 0o777;
const secret = "at-rest-suite-secret-of-at-least-32-characters";

describe("the SQLite store on disk", () => {
  let parent: string;
  let tg: TestGateway;
  let key: string;
  let accessToken: string;
  const logs: string[] = [];
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), "wg-at-rest-"));
    const logTo = new PassThrough();
    logTo.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
    // A DATA_DIR that does not exist yet: the gateway creates it.
    tg = await startTestGateway({ DATA_DIR: join(parent, "data"), JWT_SECRET: secret, LOG_LEVEL: "trace" }, { logTo });
    key = await tg.key({ user: "secret-keeper" });
    accessToken = await new SignJWT({ scope: "docs:read docs:write" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("token-holder")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(secret));
    // Traffic on every surface with both credentials, good and bad, so that there is something to log.
    for (const surface of SURFACES) {
      for (const credential of [key, accessToken, `${key.slice(0, -4)}AAAA`, `${accessToken}x`]) {
        await call(tg.url, surface, `Bearer ${credential}`, { op: "list" });
      }
      await call(tg.url, surface, `Bearer ${key}`, { op: "create", name: `at rest ${surface}`, markdown: "# hi" });
      await call(tg.url, surface, `Bearer ${key}`, { op: "read", id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" });
    }
  });
  afterAll(async () => {
    await tg.close();
    await rm(parent, { recursive: true, force: true });
  });

  it("DATA_DIR is created 0700, the database and its -wal and -shm files 0600", () => {
    expect(mode(tg.dataDir).toString(8)).toBe("700");
    const file = sqliteFile(tg.dataDir);
    expect(mode(file).toString(8)).toBe("600");
    for (const companion of [`${file}-wal`, `${file}-shm`]) {
      expect(existsSync(companion), companion).toBe(true);
      expect(mode(companion).toString(8), companion).toBe("600");
    }
  });

  it("a created API key never appears in clear in the database file bytes", () => {
    const file = sqliteFile(tg.dataDir);
    const bytes = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((path) => readFileSync(path)));
    const secretPart = key.slice(10); // the stored prefix (wgk_ + 6) is meant to be visible
    expect(bytes.includes(Buffer.from(key))).toBe(false);
    expect(bytes.includes(Buffer.from(secretPart))).toBe(false);
    expect(bytes.includes(Buffer.from(secretPart.slice(0, 16)))).toBe(false);
  });

  it("no credential, good or bad, appears in the logs", () => {
    const text = logs.join("");
    expect(text.length).toBeGreaterThan(0);
    expect(text).toContain('"msg":"request"');
    for (const credential of [key, key.slice(10), accessToken, accessToken.split(".")[2] as string]) {
      expect(text.includes(credential)).toBe(false);
    }
  });
});

describe("an existing store created world-readable", () => {
  it("is narrowed to 0600 when the gateway opens it", async () => {
    const { chmodSync } = await import("node:fs");
    const parent = await mkdtemp(join(tmpdir(), "wg-at-rest-old-"));
    const first = await startTestGateway({ DATA_DIR: parent });
    await first.gateway.close();
    chmodSync(sqliteFile(parent), 0o644);
    const second = await startTestGateway({ DATA_DIR: parent });
    try {
      expect(mode(sqliteFile(parent)).toString(8)).toBe("600");
    } finally {
      await second.close();
      await first.close().catch(() => undefined);
      await rm(parent, { recursive: true, force: true });
    }
  });
});
