// Starts a real gateway on an ephemeral loopback port with its own SQLite file.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { loadConfig, type Config } from "../../src/core/config.ts";
import { createGateway, type Gateway } from "../../src/gateway.ts";
import { createLogger } from "../../src/core/logger.ts";
import { listen } from "../../src/server.ts";

export interface TestGateway {
  url: string;
  gateway: Gateway;
  config: Config;
  dataDir: string;
  /** Creates a personal API key straight in the store and returns the secret. */
  key(options?: { user?: string; scopes?: string[]; tenant?: string; expiresInMs?: number }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestGateway(
  env: Record<string, string> = {},
  options: { logTo?: NodeJS.WritableStream } = {},
): Promise<TestGateway> {
  const dataDir = env["DATA_DIR"] ?? (await mkdtemp(join(tmpdir(), "wg-test-")));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    AUTH_FAILURES_PER_MINUTE: "0",
    ...env,
  });
  const gateway = await createGateway(config, options.logTo ? { logger: createLogger(env["LOG_LEVEL"] ?? "debug", options.logTo) } : {});
  const running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  return {
    url: running.url,
    gateway,
    config,
    dataDir,
    async key(options = {}) {
      const { key } = await createApiKey(gateway.store, {
        userId: options.user ?? "alice",
        tenant: options.tenant ?? null,
        scopes: options.scopes ?? ["docs:read", "docs:write"],
        expiresInMs: options.expiresInMs ?? null,
      });
      return key;
    },
    async close() {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The project's own markdown fixtures (test/fixtures/markdown/), every construct of docs/api.md "Markdown to .docx". */
export const fixturesDir = new URL("../fixtures/markdown/", import.meta.url);
