// Entry of the `workspace-gateway` command.
import { ConfigError, loadConfig } from "../core/config.ts";
import { GatewayError } from "../core/errors.ts";
import { openStore } from "../documents/store/index.ts";
import { keysUsage, runKeys, UsageError } from "./keys.ts";

const usage = `workspace-gateway <command>

Commands:
  keys create|list|revoke   manage personal API keys (uses DATA_DIR or DATABASE_URL)
  mcp                       MCP server on stdio, talking to a running gateway (GATEWAY_URL; GATEWAY_API_KEY
                            or GATEWAY_TOKEN for an access token; GATEWAY_STARTUP_TIMEOUT_MS)
  serve                     run the gateway (same as npm start)

${keysUsage}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${usage}\n`);
    return command ? 0 : 2;
  }
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
    const store = await openStore(config);
    try {
      await runKeys(store, rest, (line) => process.stdout.write(`${line}\n`));
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
    if (error instanceof Error && error.name === "McpConfigError") process.stderr.write(`${error.message}\n`);
    else if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${keysUsage}\n`);
    else if (error instanceof ConfigError || error instanceof GatewayError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
