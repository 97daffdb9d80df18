// Where an upstream lives, fixed by configuration, and how caller-supplied ids enter a path.
// Nothing a caller sends can change the origin (scheme, host, port) or the path prefix: the
// origin and prefix are parsed once from configuration, and every id is checked and
// percent-encoded as exactly one path segment.
import { GatewayError } from "../../src/core/errors.ts";

export interface UpstreamBase {
  /** `http(s)://host[:port]`, no trailing slash. */
  readonly origin: string;
  /** Path prefix from the configured URL, without trailing slash: "" or "/erp". */
  readonly prefix: string;
}

/**
 * Parses a configured base URL. Throws a plain Error naming `what` (configuration errors are
 * start-up errors, not request errors).
 */
export function parseBase(url: string, what: string): UpstreamBase {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${what}: not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`${what}: must be an http(s) URL`);
  if (parsed.username || parsed.password) throw new Error(`${what}: must not contain credentials`);
  if (parsed.search || parsed.hash) throw new Error(`${what}: must not contain a query or fragment`);
  return { origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, "") };
}

// Ids are opaque to the gateway, but they must stay one path segment: no separators, no dot
// segments, no control characters, a sane length.
// eslint-disable-next-line no-control-regex
const UNSAFE_SEGMENT = /[/\\\u0000-\u001f\u007f]/;

export function isSafeSegment(value: string): boolean {
  return value.length > 0 && value.length <= 256 && value !== "." && value !== ".." && !UNSAFE_SEGMENT.test(value);
}

/** One checked, percent-encoded path segment. */
export function segment(value: string, field = "id"): string {
  if (!isSafeSegment(value)) throw new GatewayError("BAD_USER_INPUT", `${field}: not a valid id`);
  return encodeURIComponent(value);
}

/** Tagged template for upstream paths: every interpolation becomes one encoded segment. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += segment(values[i] as string) + (strings[i + 1] ?? "");
  return out;
}

export type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=2` for the defined values, or "". */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  let out = "";
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    out += `${out ? "&" : "?"}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }
  return out;
}
