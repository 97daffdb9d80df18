// Shared pieces of the fuzz suite: run settings (seeded, bounded), one gateway + sandbox per
// file, credentials to pick from, and the contract invariants each surface's answers must keep
// (error shapes per docs/api.md §3: REST body, GraphQL extensions.code, tRPC data.gatewayCode,
// MCP isError text).
import fc from "fast-check";
import { expect } from "vitest";
import { errorCodes } from "../../src/core/errors.ts";
import { signAccessToken, startProductsEnv, type ProductsEnv } from "../products/harness.ts";

/** A positive number from the environment, or `otherwise`. */
function positive(name: string, otherwise: number): number {
  const value = Number(process.env[name] ?? otherwise);
  return Number.isFinite(value) && value > 0 ? value : otherwise;
}

/** Seconds a property may run before it stops, however many runs are left (FUZZ_SECONDS; `npm run fuzz:deep` raises it). */
export const fuzzSeconds = (): number => positive("FUZZ_SECONDS", 40);

/**
 * fast-check parameters: a fixed seed per target (FUZZ_SEED overrides every target's, to
 * explore), runs scaled by FUZZ_SCALE (default 1; the whole suite stays under a minute) and
 * stopped after FUZZ_SECONDS (default 40). Each property prints how many cases it ran (one
 * `[fuzz]` line: `npm run fuzz:deep` sums them per target) and fails with fast-check's report.
 */
export function fuzzParams(seed: number, numRuns: number): fc.Parameters<unknown> {
  const override = process.env["FUZZ_SEED"];
  return {
    seed: override === undefined ? seed : Number(override),
    numRuns: Math.max(1, Math.round(numRuns * positive("FUZZ_SCALE", 1))),
    endOnFailure: true,
    interruptAfterTimeLimit: fuzzSeconds() * 1000,
    markInterruptAsFailure: false,
    reporter: report,
  };
}

function report(details: fc.RunDetails<unknown>): void {
  const name = expect.getState().currentTestName ?? "fuzz";
  const stopped = details.interrupted ? `, stopped after ${fuzzSeconds()} s` : "";
  console.log(`[fuzz] ${name}: ${details.numRuns} cases${stopped}, seed ${details.seed}${details.failed ? ", FAILED" : ""}`);
  if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? "property failed");
}

export const KNOWN_CODES: ReadonlySet<string> = new Set(Object.keys(errorCodes).filter((code) => code !== "INTERNAL"));
/** The only 5xx answers the contract allows: upstream trouble and a saturated render queue. */
export const ALLOWED_5XX_CODES: ReadonlySet<string> = new Set([
  "UPSTREAM_NOT_CONFIGURED",
  "UPSTREAM_TIMEOUT",
  "UPSTREAM_UNAVAILABLE",
  "UPSTREAM_ERROR",
  "SERVICE_UNAVAILABLE",
]);

export class InvariantError extends Error {
  override name = "InvariantError";
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}

const clip = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** A known, non-INTERNAL code, and a 5xx only for the documented upstream/queue codes. */
export function expectCode(code: unknown, status: number | undefined, where: string): void {
  invariant(typeof code === "string" && KNOWN_CODES.has(code), `${where}: unknown or INTERNAL code ${JSON.stringify(code)}`);
  if (status !== undefined && status >= 500) invariant(ALLOWED_5XX_CODES.has(code), `${where}: HTTP ${status} with code ${code}`);
}

export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvariantError(`${where}: body is not JSON: ${clip(text)}`);
  }
}

/** REST: any status ≥ 400 is `{"error":{"code","message"}}` with a known code whose HTTP status it is. */
export function checkRestAnswer(status: number, contentType: string | null, text: string, where: string): void {
  invariant(status < 500 || [502, 503, 504].includes(status), `${where}: HTTP ${status}: ${clip(text)}`);
  if (status < 400) return;
  invariant(contentType?.includes("json"), `${where}: error ${status} with content-type ${contentType}: ${clip(text)}`);
  const body = parseJson(text, where) as { error?: { code?: unknown; message?: unknown } };
  invariant(body && typeof body.error === "object" && body.error !== null, `${where}: no error object: ${clip(text)}`);
  expectCode(body.error.code, status, where);
  invariant(typeof body.error.message === "string" && body.error.message.length > 0, `${where}: no message: ${clip(text)}`);
  const expected = errorCodes[body.error.code as keyof typeof errorCodes].status;
  invariant(expected === status, `${where}: code ${String(body.error.code)} answered with HTTP ${status} (expected ${expected})`);
}

/** GraphQL: JSON with data and/or errors; each error has a known extensions.code. */
export function checkGraphQLAnswer(status: number, text: string, where: string): void {
  invariant(status < 500 || [502, 503, 504].includes(status), `${where}: HTTP ${status}: ${clip(text)}`);
  const body = parseJson(text, where) as { data?: unknown; errors?: { message?: unknown; extensions?: { code?: unknown } }[] };
  invariant(body && typeof body === "object", `${where}: not an object: ${clip(text)}`);
  invariant("data" in body || Array.isArray(body.errors), `${where}: neither data nor errors: ${clip(text)}`);
  for (const error of body.errors ?? []) {
    invariant(typeof error.message === "string", `${where}: error without message: ${clip(text)}`);
    expectCode(error.extensions?.code, status, `${where}: ${clip(JSON.stringify(error), 300)}`);
  }
  if (status >= 400) invariant((body.errors ?? []).length > 0, `${where}: HTTP ${status} without errors: ${clip(text)}`);
}

interface TrpcError {
  message?: unknown;
  code?: unknown;
  data?: { code?: unknown; httpStatus?: unknown; gatewayCode?: unknown };
}

/** tRPC: one answer (or a batch's array); each error carries data.gatewayCode, a known code. */
export function checkTrpcAnswer(status: number, text: string, where: string): void {
  invariant(status < 500 || [502, 503, 504].includes(status), `${where}: HTTP ${status}: ${clip(text)}`);
  const body = parseJson(text, where) as unknown;
  const items = Array.isArray(body) ? body : [body];
  for (const item of items as { result?: unknown; error?: TrpcError }[]) {
    invariant(
      item && typeof item === "object" && ("result" in item || "error" in item),
      `${where}: neither result nor error: ${clip(text)}`,
    );
    if (!item.error) continue;
    invariant(typeof item.error.message === "string", `${where}: error without message: ${clip(text)}`);
    const httpStatus = typeof item.error.data?.httpStatus === "number" ? item.error.data.httpStatus : undefined;
    expectCode(item.error.data?.gatewayCode, httpStatus, `${where}: ${clip(JSON.stringify(item.error), 300)}`);
  }
  if (status >= 400 && !Array.isArray(body))
    invariant((body as { error?: unknown }).error, `${where}: HTTP ${status} without error: ${clip(text)}`);
}

// ---- environment ------------------------------------------------------------------------------

export interface FuzzEnv {
  products: ProductsEnv;
  url: string;
  /** Personal API key with docs:read and docs:write. */
  apiKey: string;
  /** Bearer values a request may carry (undefined = no Authorization header). */
  credentials: (string | undefined)[];
  close(): Promise<void>;
}

export async function startFuzzEnv(env: Record<string, string> = {}): Promise<FuzzEnv> {
  const products = await startProductsEnv({ env: { LOG_LEVEL: "silent", ...env } });
  const apiKey = await products.gateway.key({ user: "fuzz" });
  const readOnly = await products.gateway.key({ user: "fuzz", scopes: ["docs:read"] });
  const noTenant = await signAccessToken({ sub: "user-3", tenant: undefined });
  const badTenant = await signAccessToken({ sub: "user-4", tenant: "Not_A_Tenant" });
  const expired = await signAccessToken({ sub: "user-1", tenant: "acme" }, { exp: Math.floor(Date.now() / 1000) - 600 });
  return {
    products,
    url: products.gateway.url,
    apiKey,
    credentials: [
      undefined,
      `Bearer ${apiKey}`,
      `Bearer ${products.token}`,
      `Bearer ${readOnly}`,
      `Bearer ${noTenant}`,
      `Bearer ${badTenant}`,
      `Bearer ${expired}`,
      "Bearer wgk_notarealkey",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      `bearer ${apiKey}`,
      `Bearer ${apiKey} extra`,
    ],
    close: () => products.close(),
  };
}

// ---- arbitraries shared by the targets --------------------------------------------------------

/** Strings that tend to break things: unicode, controls, NUL, lone surrogates, long runs. */
export const nastyString = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: "grapheme", maxLength }),
    fc.string({ unit: "binary", maxLength }),
    fc.constantFrom(
      "",
      " ",
      "\u0000",
      "\ud800",
      "\udfff",
      "a\u0000b",
      "\u202e",
      "%00",
      "../..",
      "doc_",
      "__proto__",
      "constructor",
      "null",
      "0",
      "-1",
    ),
    fc.nat({ max: 5000 }).map((n) => "x".repeat(n)),
  );

/** Any JSON-ish value, including the awkward ones. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: "small" },
  fc.jsonValue({ maxDepth: 3 }),
  nastyString(),
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 53), 1e308, [], {}),
);

/** Percent-encodes a string's UTF-8 bytes (a lone surrogate becomes U+FFFD's; encodeURIComponent would throw). */
export const pct = (value: string): string =>
  [...Buffer.from(value, "utf8")]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
