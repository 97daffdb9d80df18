// Configuration from the environment (docs/api.md "Configuration"), validated once at start-up.
// A bad value stops the process with a message naming the variable.
import { availableParallelism } from "node:os";
import { z } from "zod";
import { isAddressOrCidr } from "./address.ts";
import { durationPattern, parseDuration } from "./duration.ts";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional());
/** Comma-separated origins (`https://app.example.com`, `http://localhost:3000`), each exactly as a browser sends it. */
const originList = z
  .preprocess(emptyToUndefined, z.string().default(""))
  .transform((v) =>
    v
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.every((o) => URL.canParse(o) && new URL(o).origin === o),
    "must be comma-separated origins like https://app.example.com (scheme, host, port; no path)",
  );
const int = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));
/** "auto" (the default: undefined, for the caller to size) or an integer within the bounds. */
const autoOr = (min: number, max: number) =>
  z.preprocess(
    (v) => (emptyToUndefined(v) === undefined || (typeof v === "string" && v.trim().toLowerCase() === "auto") ? undefined : v),
    z.coerce.number({ error: `must be "auto" or an integer` }).int().min(min).max(max).optional(),
  );
const ratio = (def: number, min: number, max: number) => z.preprocess(emptyToUndefined, z.coerce.number().min(min).max(max).default(def));

export const configSchema = z
  .object({
    PORT: int(4000, 0, 65535),
    HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
    // Where callers reach the gateway (scheme, host, optional path prefix behind a proxy). When set,
    // `Location`, `url` and `downloadUrl` are absolute on every surface (docs/configuration.md).
    PUBLIC_URL: z.preprocess(
      emptyToUndefined,
      z
        .url({ protocol: /^https?$/ })
        .refine((v) => !/[?#]/.test(v), "must not have a query or fragment")
        .transform((v) => v.replace(/\/+$/, ""))
        .optional(),
    ),
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
      z
        .string()
        .regex(/^[A-Za-z0-9._-]+$/, "must be a single path segment")
        .default("dataquery"),
    ),
    JWT_JWKS_URL: optionalUrl,
    JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
    JWT_ISSUER: optionalString,
    JWT_AUDIENCE: optionalString,
    // jose refetches the key set for an unknown `kid` (key rotation) at most this often.
    JWT_JWKS_COOLDOWN_MS: int(30_000, 0, 3_600_000),
    JWT_TENANT_CLAIM: z.preprocess(emptyToUndefined, z.string().default("tenant")),
    // Longest an access token may live (exp − iat, and exp − now); tokens must carry exp. See docs/security.md.
    JWT_MAX_TOKEN_LIFETIME_S: int(86_400, 60, 31_536_000),
    UPSTREAM_TIMEOUT_MS: int(10_000, 100, 300_000),
    // Upstream resilience (docs/resilience.md): the request deadline, retries and their budget,
    // the failure-rate circuit breaker, and the private-network guard for tenant hosts.
    REQUEST_DEADLINE_MS: int(30_000, 0, 600_000),
    UPSTREAM_RETRIES: int(2, 0, 10),
    UPSTREAM_RETRY_BUDGET_RATIO: ratio(0.2, 0, 10),
    UPSTREAM_RETRY_BUDGET_MIN_PER_SEC: ratio(5, 0, 10_000),
    UPSTREAM_BREAKER_FAILURE_RATE: ratio(0.5, 0.01, 1),
    UPSTREAM_BREAKER_MIN_CALLS: int(20, 1, 1_000_000),
    UPSTREAM_BREAKER_WINDOW_MS: int(10_000, 1_000, 600_000),
    UPSTREAM_BREAKER_OPEN_MS: int(100, 0, 600_000),
    UPSTREAM_BREAKER_OPEN_MAX_MS: int(300, 0, 3_600_000),
    UPSTREAM_BREAKER_PROBES: int(3, 1, 1_000),
    UPSTREAM_BREAKER_HOLD_MS: int(0, 0, 600_000),
    UPSTREAM_BREAKER_CONSECUTIVE_FAILURES: int(20, 0, 1_000_000),
    UPSTREAM_ALLOW_PRIVATE_NETWORKS: z
      .preprocess(emptyToUndefined, z.enum(["true", "false"]).default("false"))
      .transform((v) => v === "true"),
    RATE_LIMIT_PER_MINUTE: int(1200, 0, 1_000_000),
    // Characters of document text one request may read, on every surface (docs/security.md "Read budget").
    REQUEST_READ_BUDGET_CHARS: int(5_000_000, 10_000, 1_000_000_000),
    // Spreadsheet cells one request may read, on every surface (docs/security.md "Read budget").
    REQUEST_READ_BUDGET_CELLS: int(300_000, 1_000, 100_000_000),
    // Calls one tRPC batch or MCP JSON-RPC batch may carry (docs/security.md "Batches").
    BATCH_MAX_CALLS: int(20, 1, 1_000),
    // Failed authentications per client address per minute; 0 turns it off. See docs/security.md.
    AUTH_FAILURES_PER_MINUTE: int(30, 0, 1_000_000),
    // Proxies whose X-Forwarded-For is believed (comma-separated IPs/CIDRs); none by default.
    TRUSTED_PROXIES: z
      .preprocess(emptyToUndefined, z.string().default(""))
      .transform((v) =>
        v
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every(isAddressOrCidr), "must be comma-separated IP addresses or CIDR ranges"),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
    // Beyond the contract's list: operational knobs with safe defaults, documented in docs/configuration.md.
    // 3 MiB fits 400,000 characters of markdown even when JSON-escaped.
    BODY_LIMIT_BYTES: int(3 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    // GraphQL bodies are queries, not files: anything near 1 MB is refused before parsing.
    GRAPHQL_BODY_LIMIT_BYTES: int(960 * 1024, 1024, 64 * 1024 * 1024),
    UPLOAD_LIMIT_BYTES: int(100 * 1024 * 1024, 1024, 10 * 1024 * 1024 * 1024),
    RENDER_WORKERS: int(0, 0, 64),
    RENDER_QUEUE: int(16, 0, 10_000),
    RENDER_WARMUP: int(0, 0, 100),
    // Bounds on each render (docs/rendering-limits.md): running time, time waiting for a worker,
    // a worker's V8 heap, renders per worker before it is replaced, and render threads' nice value.
    RENDER_TIMEOUT_MS: int(30_000, 0, 600_000),
    RENDER_QUEUE_TIMEOUT_MS: int(15_000, 0, 600_000),
    RENDER_WORKER_MAX_MB: int(512, 24, 16_384),
    RENDER_WORKER_MAX_JOBS: int(100, 1, 1_000_000),
    RENDER_WORKER_NICE: int(0, 0, 19),
    // Living documents' retention (docs/api.md "Living documents"): the trash is purged after
    // TRASH_RETENTION_DAYS; versions replaced more than VERSION_RETENTION_DAYS ago go, except each
    // document's VERSION_KEEP_MIN newest. The pruning (and of expired idempotency records and
    // shares) runs every RETENTION_INTERVAL_MS on every replica; 0 turns it off.
    TRASH_RETENTION_DAYS: int(30, 1, 3650),
    VERSION_RETENTION_DAYS: int(30, 1, 3650),
    VERSION_KEEP_MIN: int(10, 1, 10_000),
    RETENTION_INTERVAL_MS: int(60 * 60 * 1000, 0, 7 * 24 * 60 * 60 * 1000),
    // What each user's stored content may take up, in MiB (distinct contents of every version, the
    // trash included; docs/configuration.md "Storage quota"). 0: unlimited.
    STORAGE_QUOTA_MB: int(1024, 0, 16 * 1024 * 1024),
    // Spreadsheets (docs/api.md "Spreadsheets", docs/spreadsheets-engine.md): non-empty cells a
    // workbook may hold; the engine's worker threads, each one's V8 heap, and the cells of models
    // they keep between jobs; a job's deadline (past it the worker is replaced) and one write's
    // computation budget.
    SHEETS_MAX_CELLS: int(2_000_000, 1, 50_000_000),
    // "auto": one worker per core but one (the event loop keeps a core), at least 2 (so that one
    // principal's long job never holds the only one) and at most 8 (each may grow to SHEETS_WORKER_MAX_MB).
    SHEETS_WORKERS: autoOr(1, 64).transform((v) => v ?? Math.max(2, Math.min(8, availableParallelism() - 1))),
    // A principal's spreadsheet jobs running at once ("auto": every worker but one, at least 1) and
    // waiting beyond those; past both, RATE_LIMITED (docs/spreadsheets-engine.md "Fairness").
    SHEETS_JOBS_PER_PRINCIPAL: autoOr(1, 64),
    SHEETS_QUEUE_PER_PRINCIPAL: int(32, 0, 10_000),
    // The spreadsheet workers' nice value (Linux, per thread): with SHEETS_WORKERS=auto there may be
    // as many busy workers as cores, and the event loop must still get one (docs/configuration.md).
    SHEETS_WORKER_NICE: int(10, 0, 19),
    SHEETS_WORKER_MAX_MB: int(1536, 64, 16_384),
    SHEETS_CACHE_CELLS: int(4_000_000, 0, 100_000_000),
    SHEETS_JOB_TIMEOUT_MS: int(60_000, 1_000, 600_000),
    SHEETS_WRITE_BUDGET_MS: int(10_000, 100, 600_000),
    // One job's computation in steps (formula evaluations, cells read, array cells and text
    // characters made), and the cells of any one array a formula makes: both refused before the
    // work is done (docs/spreadsheets-engine.md "Budget").
    SHEETS_MAX_STEPS: int(200_000_000, 1_000, 100_000_000_000),
    SHEETS_MAX_ARRAY_CELLS: int(10_000_000, 1_000, 1_000_000_000),
    SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
    // After SIGTERM, /readyz answers 503 for this long before the listener closes (a load
    // balancer's health-check interval × failures; docs/deploy.md). 0: close at once.
    SHUTDOWN_DRAIN_MS: int(0, 0, 600_000),
    // PostgreSQL pool, per replica (docs/deploy.md#postgresql). Statement timeout 0 = none.
    PG_POOL_MAX: int(10, 1, 10_000),
    PG_CONNECT_TIMEOUT_MS: int(10_000, 0, 600_000),
    PG_IDLE_TIMEOUT_MS: int(30_000, 0, 3_600_000),
    PG_STATEMENT_TIMEOUT_MS: int(30_000, 0, 3_600_000),
    // Behind PgBouncer in transaction mode: no startup parameters besides application_name, no named statements.
    PG_PGBOUNCER: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("false")).transform((v) => v === "true"),
    // Slow clients (docs/security.md): all headers within HEADERS_TIMEOUT_MS, the whole request
    // (headers and body) within REQUEST_TIMEOUT_MS (100 MiB uploads at 1 MiB/s fit the default).
    HEADERS_TIMEOUT_MS: int(20_000, 100, 600_000),
    REQUEST_TIMEOUT_MS: int(120_000, 100, 3_600_000),
    // Browser origins allowed cross-origin on every surface; none by default (no CORS headers at all).
    CORS_ORIGINS: originList,
    // /mcp: origins allowed besides CORS_ORIGINS, and Host names accepted (default: loopback names when HOST is loopback).
    MCP_ALLOWED_ORIGINS: originList,
    MCP_ALLOWED_HOSTS: z.preprocess(emptyToUndefined, z.string().default("")).transform((v) =>
      v
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
    // /metrics: a bearer token it requires, and/or its own listener (then not on PORT). See docs/security.md.
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
    METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
    METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
    // MCP tools offered: comma-separated tool names and/or `read-only`; unset offers all. The names
    // are checked against the tools when the gateway starts (src/mcp/tools.ts selectTools).
    MCP_TOOLS: z.preprocess(emptyToUndefined, z.string().optional()).transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(",")
            .map((entry) => entry.trim())
            .filter(Boolean),
    ),
    // The owner's application (docs/app.md): how long a session lasts, and OpenID Connect sign-in
    // (authorization code + PKCE) when OIDC_ISSUER is set.
    APP_SESSION_TTL: z
      .preprocess(emptyToUndefined, z.string().regex(durationPattern, "must be a duration like 7d, 12h or 30m").default("7d"))
      .transform(parseDuration)
      .refine((ms) => ms >= 60_000 && ms <= 366 * 86_400_000, "must be between 1m and 366d"),
    // `npm start`'s one-time sign-in link for the local owner (src/auth/start-link.ts): printed only
    // on the embedded SQLite store bound to a loopback HOST; false never prints it.
    APP_SIGN_IN_LINK_ON_START: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("true")).transform((v) => v === "true"),
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: optionalString,
    // Absent: a public client (PKCE alone, token_endpoint_auth_method none).
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_SCOPES: z.preprocess(emptyToUndefined, z.string().default("openid docs:read docs:write sheets:read sheets:write")),
    // The name on the sign-in button ("Sign in with <provider>"); default the issuer's host.
    OIDC_PROVIDER_NAME: optionalString,
    GRAPHQL_INTROSPECTION: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("true")).transform((v) => v === "true"),
    // Trusted documents (docs/configuration.md "GraphQL: trusted documents"): a manifest of operations by sha256 hash, sent as
    // `documentId` or Apollo's `extensions.persistedQuery.sha256Hash`; ONLY refuses anything else.
    GRAPHQL_TRUSTED_DOCUMENTS_FILE: optionalString,
    GRAPHQL_TRUSTED_DOCUMENTS_ONLY: z
      .preprocess(emptyToUndefined, z.enum(["true", "false"]).default("false"))
      .transform((v) => v === "true"),
    // Parsed operations kept (least recently used go first); their validation and compilation go with them.
    GRAPHQL_DOCUMENT_CACHE_SIZE: int(1024, 1, 1_000_000),
    // Hashes APQ clients register with their text (src/graphql/apq.ts), least recently used dropped first;
    // shared by replicas through REDIS_URL. 0: none are registered (a hash alone finds only the manifest).
    GRAPHQL_APQ_CACHE_SIZE: int(1000, 0, 100_000),
  })
  .refine((c) => !c.GRAPHQL_TRUSTED_DOCUMENTS_ONLY || c.GRAPHQL_TRUSTED_DOCUMENTS_FILE, {
    message: "GRAPHQL_TRUSTED_DOCUMENTS_ONLY=true needs GRAPHQL_TRUSTED_DOCUMENTS_FILE (the manifest of allowed operations)",
    path: ["GRAPHQL_TRUSTED_DOCUMENTS_ONLY"],
  })
  .refine((c) => !c.OIDC_ISSUER || c.OIDC_CLIENT_ID, {
    message: "OIDC_ISSUER needs OIDC_CLIENT_ID (the client registered with the provider)",
    path: ["OIDC_CLIENT_ID"],
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
