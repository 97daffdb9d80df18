// The gateway process: configuration from the environment, the gateway on one port, clean shutdown.
import { startUpSignIn } from "./auth/start-link.ts";
import { ConfigError, configSchema, loadConfig } from "./core/config.ts";
import { loadedEnvFile } from "./core/env-file.ts";
import { describeStore } from "./store/index.ts";
import { createGateway } from "./gateway.ts";
import { listen } from "./server.ts";

/**
 * A problem with the configuration rather than a bug: said in one line that names the variable.
 * Errors from below src/core follow the naming: the adapters' TenantConfigError (TENANTS_FILE), and
 * their URL checks, whose message starts with the variable ("API_URL: must not contain a query").
 */
const variables = new Set(Object.keys(configSchema.shape));
const isConfigProblem = (error: unknown): error is Error =>
  error instanceof ConfigError ||
  (error instanceof Error && (error.name.endsWith("ConfigError") || variables.has(/^([A-Z][A-Z0-9_]*):/.exec(error.message)?.[1] ?? "")));

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const gateway = await createGateway(config);
  const running = await listen(gateway, {
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
  }).catch(async (error: unknown) => {
    await gateway.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`HOST/PORT: cannot listen on ${config.HOST}:${config.PORT}: ${reason}`, { cause: error });
  });
  const envFile = loadedEnvFile();
  const base = config.PUBLIC_URL ?? running.url;
  // A link that cannot be made (the store refusing a write) must not stop a gateway that is up.
  const signIn = await startUpSignIn(gateway.store, config, gateway.store.kind, base).catch((error: unknown) => {
    gateway.logger.warn({ err: error }, "no sign-in link on start-up: use npx workspace-gateway keys sign-in-link --user <id>");
    return {};
  });
  gateway.logger.info(
    {
      url: running.url,
      // The owner's application (docs/app.md): where a person opens it, and how they sign in.
      app: `${base}/app`,
      ...signIn,
      store: gateway.store.kind,
      storeLocation: describeStore(config),
      ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
      ...(envFile?.path ? { envFile: envFile.path, envFileApplied: envFile.applied, envFileOverridden: envFile.overridden } : {}),
    },
    "workspace-gateway listening",
  );

  const shutdown = (signal: string) => {
    gateway.logger.info({ signal }, "shutting down");
    running.stop().then(
      () => {
        gateway.logger.info("stopped");
        // The destination writes asynchronously: exit once the last lines are out.
        gateway.logger.flush(() => process.exit(0));
      },
      (error: unknown) => {
        gateway.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  // A configuration problem is said in one line that names the variable; anything else with its stack.
  const detail = isConfigProblem(error) ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`workspace-gateway failed to start: ${detail}\n`);
  process.exit(1);
});
