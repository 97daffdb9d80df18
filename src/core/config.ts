// Configuration from the environment (CONTRACT §10), validated once at start-up.
// A bad value stops the process with a message naming the variable.
import { z } from "zod";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional());
const int = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));

export const configSchema = z
  .object({
    PORT: int(4000, 0, 65535),
    HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    REDIS_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
    API_URL: optionalUrl,
    TENANT_URL_TEMPLATE: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .refine((v) => v.includes("{tenant}"), "must contain {tenant}")
        .refine((v) => URL.canParse(v.replaceAll("{tenant}", "t")), "must be an http(s) URL once {tenant} is filled in")
        .optional(),
    ),
    TENANTS_FILE: optionalString,
    DATAQUERY_SEGMENT: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^[A-Za-z0-9._-]+$/, "must be a single path segment").default("dataquery"),
    ),
    JWT_JWKS_URL: optionalUrl,
    JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
    JWT_ISSUER: optionalString,
    JWT_AUDIENCE: optionalString,
    // jose refetches the key set for an unknown `kid` (key rotation) at most this often.
    JWT_JWKS_COOLDOWN_MS: int(30_000, 0, 3_600_000),
    JWT_TENANT_CLAIM: z.preprocess(emptyToUndefined, z.string().default("tenant")),
    UPSTREAM_TIMEOUT_MS: int(10_000, 100, 300_000),
    RATE_LIMIT_PER_MINUTE: int(1200, 0, 1_000_000),
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ),
    // Beyond §10: operational knobs with safe defaults, documented in the README.
    // 3 MiB fits 400,000 characters of markdown even when JSON-escaped.
    BODY_LIMIT_BYTES: int(3 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    // GraphQL bodies are queries, not files: anything near 1 MB is refused before parsing.
    GRAPHQL_BODY_LIMIT_BYTES: int(960 * 1024, 1024, 64 * 1024 * 1024),
    UPLOAD_LIMIT_BYTES: int(100 * 1024 * 1024, 1024, 10 * 1024 * 1024 * 1024),
    RENDER_WORKERS: int(0, 0, 64),
    RENDER_QUEUE: int(16, 0, 10_000),
    RENDER_WARMUP: int(0, 0, 100),
    SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
    GRAPHQL_INTROSPECTION: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("true")).transform((v) => v === "true"),
  })
  .refine((c) => !(c.JWT_JWKS_URL && c.JWT_SECRET), {
    message: "set JWT_JWKS_URL or JWT_SECRET, not both",
    path: ["JWT_SECRET"],
  });

export type Config = z.output<typeof configSchema>;
export type ConfigInput = Partial<Record<keyof z.input<typeof configSchema>, string | number | boolean | undefined>>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment-like record; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | number | boolean | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `${issue.path.join(".") || "config"}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
}
