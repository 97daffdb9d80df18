// JSON structured logs. Credentials never reach a log line: the redaction list covers every
// place a token can sit, and request logging records paths, never query strings with secrets.
import { pino, type Logger } from "pino";

export type { Logger };

export const redactedPaths = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "*.headers.authorization",
  // The product access token beside a personal API key (contract §2), and the token itself wherever it is held.
  'headers["x-access-token"]',
  'req.headers["x-access-token"]',
  '*.headers["x-access-token"]',
  "accessToken",
  "*.accessToken",
  "token",
  "*.token",
  "apiKey",
  "*.apiKey",
  "secret",
  "*.secret",
  "password",
  "*.password",
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: "workspace-gateway" },
      redact: { paths: redactedPaths, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

const levelMethods = new Set(["trace", "debug", "info", "warn", "error", "fatal"]);
const noop = () => {};

/**
 * `logger.child(bindings)`, made on first use. A request's logger is needed only when it logs at
 * an enabled level, which most requests never do, and a pino child serializes and redacts its
 * bindings when it is made: per request, that was a measurable share of a proxied call's CPU.
 */
export function lazyChild(logger: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  return new Proxy(logger, {
    get(_target, key) {
      // A disabled level's method is a no-op on the child too (it inherits the level).
      if (typeof key === "string" && levelMethods.has(key) && !logger.isLevelEnabled(key)) return noop;
      child ??= logger.child(bindings);
      const value: unknown = Reflect.get(child, key, child);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(child) : value;
    },
  });
}
