// Where an upstream lives, fixed by configuration, and how caller-supplied ids enter a path.
// Nothing a caller sends can change the origin (scheme, host, port) or the path prefix: the
// origin and prefix are parsed once from configuration, and every id is checked and
// percent-encoded as exactly one path segment.
import { AdapterError } from "../errors.ts";

export interface UpstreamBase {
  /** `http(s)://host[:port]`, no trailing slash. */
  readonly origin: string;
  /** Path prefix from the configured URL, without trailing slash: "" or "/erp". */
  readonly prefix: string;
  /**
   * The host was chosen by a tenant claim (TENANT_URL_TEMPLATE): connect only to public
   * addresses, checked after DNS resolution (address-guard.ts).
   */
  readonly restricted?: boolean;
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
// Half a UTF-16 surrogate pair has no UTF-8 form: encodeURIComponent throws on it (an INTERNAL).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeSegment(value: string): boolean {
  return (
    value.length > 0 && value.length <= 256 && value !== "." && value !== ".." && !UNSAFE_SEGMENT.test(value) && !LONE_SURROGATE.test(value)
  );
}

/** encodeURIComponent, with a lone surrogate sent as U+FFFD (as any UTF-8 encoder does) instead of throwing. */
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");
const encodeComponent = (value: string): string => encodeURIComponent(value.replace(LONE_SURROGATES, "\uFFFD"));

/** One checked, percent-encoded path segment. */
export function segment(value: string, field = "id"): string {
  if (!isSafeSegment(value)) throw new AdapterError("BAD_USER_INPUT", `${field}: not a valid id`);
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
    out += `${out ? "&" : "?"}${encodeComponent(key)}=${encodeComponent(String(value))}`;
  }
  return out;
}
