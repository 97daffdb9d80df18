// A large JSON request body kept as its bytes: an operation that can parse and validate it off the
// event loop (a spreadsheet create of 100,000 cells, issue 37 F6) is handed the bytes, not an
// object. JSON.parse, zod and the copy to a worker of 100,000 cells took 160–440 ms of the main
// thread under load; in a worker they cost the event loop nothing.
import { GatewayError } from "./errors.ts";

/** Bodies of more than this many bytes go as bytes to an operation that takes them (`largeJsonBody`). */
export const LARGE_JSON_BODY_BYTES = 256 * 1024;

export const NOT_JSON = "The body is not valid JSON";
export const NOT_AN_OBJECT = "The body must be a JSON object";

/** The body's bytes and the input the request's path and headers give (`{ ...body, ...fixed }`). */
export class JsonBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly fixed: Record<string, unknown>,
  ) {}
}

/** The bytes as a JSON object, decoded as Fetch's text() does; 400 as the REST surface answers it. */
export function jsonObjectOf(bytes: Uint8Array): Record<string, unknown> {
  let body: unknown;
  try {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new GatewayError("BAD_USER_INPUT", NOT_JSON);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new GatewayError("BAD_USER_INPUT", NOT_AN_OBJECT);
  return body as Record<string, unknown>;
}
