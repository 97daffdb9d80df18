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
