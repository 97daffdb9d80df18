// The bin: runs the proxy, and turns a start-up failure into one stderr message and exit code 1.
import { ConfigError, main } from "./index.ts";

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`workspace-gateway-mcp: ${message}\n`);
  process.exit(1);
});
