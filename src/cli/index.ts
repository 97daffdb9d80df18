// Entry of the `workspace-gateway` command.
import { ConfigError, loadConfig, type Config } from "../core/config.ts";
import { loadEnvFile } from "../core/env-file.ts";
import { GatewayError } from "../core/errors.ts";
import { describeStore, openStore } from "../store/index.ts";
import { keysUsage, runKeys, UsageError } from "./keys.ts";

const usage = `workspace-gateway <command>

Commands:
  keys create|list|revoke   manage personal API keys in the server's store (DATA_DIR or DATABASE_URL;
                            --init creates an empty store when DATA_DIR has none yet)
  keys sign-in-link         print a one-time link that signs a user in to the owner's application
  keys sessions             list the application's live sessions (keys revoke <sessionId> ends one)
  mcp                       MCP server on stdio, talking to a running gateway (GATEWAY_URL; GATEWAY_API_KEY
                            or GATEWAY_TOKEN for an access token; GATEWAY_STARTUP_TIMEOUT_MS)
  serve                     run the gateway (same as npm start)

${keysUsage}`;

/** Where the server is reached: PUBLIC_URL, or HOST:PORT (a wildcard address as localhost). */
function serverUrl(config: Pick<Config, "PUBLIC_URL" | "HOST" | "PORT">): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = ["0.0.0.0", "::", "[::]", ""].includes(config.HOST) ? "localhost" : config.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${usage}\n`);
    return command ? 0 : 2;
  }
  // Every command reads .env (or ENV_FILE) as the server does; the real environment wins.
  loadEnvFile();
  if (command === "serve") {
    await import("../main.ts");
    return -1;
  }
  if (command === "mcp") {
    const { runStdioMcp } = await import("../mcp/stdio.ts");
    await runStdioMcp();
    return -1;
  }
  if (command === "keys") {
    const config = loadConfig();
    // Which store this is, before anything happens to it: a key made in another store than the
    // server's is the classic first-hour mistake. On stderr, so that --json output stays JSON.
    process.stderr.write(`Store: ${describeStore(config)}\n`);
    const init = rest.includes("--init");
    const store = await openStore(config, { create: init });
    try {
      await runKeys(
        store,
        rest.filter((arg) => arg !== "--init"),
        (line) => process.stdout.write(`${line}\n`),
        { baseUrl: serverUrl(config) },
      );
    } finally {
      await store.close();
    }
    return 0;
  }
  throw new UsageError(`Unknown command "${command}"`);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof Error && (error.name === "McpConfigError" || error.name === "KeyNotFoundError"))
      process.stderr.write(`${error.message}\n`);
    else if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${keysUsage}\n`);
    else if (error instanceof ConfigError || error instanceof GatewayError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
