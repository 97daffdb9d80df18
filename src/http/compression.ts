// Response compression (br or gzip, as Accept-Encoding allows) for bodies worth it: GraphiQL's
// 9 MB page, JSON lists, document text. The rules (docs/configuration.md):
//  - only text-like types (text/* but not text/event-stream, JSON, JavaScript, XML); never .docx,
//    images or other already-compressed types, and never a download (Content-Disposition:
//    attachment), which streams through byte for byte with its Content-Length;
//  - only bodies of at least COMPRESSION_THRESHOLD bytes: small answers stay cheap;
//  - never a response that must flush as it goes: server-sent events (MCP, GraphQL subscriptions),
//    multipart/mixed (@defer), tRPC's streaming batches (`trpc-accept: application/jsonl`);
//  - never when the response says `Cache-Control: no-transform` or is already encoded.
// It covers both ways a response leaves the gateway: Hono's (a middleware) and the Node fast path
// (src/http/app.ts writes yoga's responses itself; it calls compressForNode first). zlib runs on
// libuv's thread pool, and the compressed form of a body that repeats is cached.
import { createHash } from "node:crypto";
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import type { HttpEnv } from "./env.ts";
import { nodeBindings, requestHeader } from "./node.ts";

export const COMPRESSION_THRESHOLD = 1024;

type Encoding = "br" | "gzip";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const compressors: Record<Encoding, (body: Uint8Array) => Promise<Buffer>> = {
  // Quality 4: most of brotli's gain at a fraction of its default (11) cost, for bodies made per request.
  br: (body) =>
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  gzip: (body) => gzipAsync(body, { level: 6 }),
};

const COMPRESSIBLE =
  /^(text\/(?!event-stream)[\w.+-]+|application\/(json|[\w.-]+\+json|javascript|ecmascript|xml|[\w.-]+\+xml|graphql-response\+json)|image\/svg\+xml)\s*(;|$)/i;

/** The encoding to use for an Accept-Encoding header: br or gzip by their q-values (br on a tie), or none. */
export function chooseEncoding(acceptEncoding: string | null | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const q: Record<string, number> = {};
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q[name.trim()] = weight === undefined ? 1 : Number(weight) || 0;
  }
  const of = (name: Encoding) => q[name] ?? q["*"] ?? 0;
  const br = of("br");
  const gz = of("gzip");
  if (br <= 0 && gz <= 0) return undefined;
  return br >= gz ? "br" : "gzip";
}

/** Whether a response with these headers may be compressed at all (before its size is known). */
function eligible(headers: Pick<Headers, "get">): boolean {
  const type = headers.get("content-type");
  if (!type || !COMPRESSIBLE.test(type)) return false;
  if (headers.get("content-encoding")) return false;
  if (/no-transform/i.test(headers.get("cache-control") ?? "")) return false;
  if (/^\s*attachment/i.test(headers.get("content-disposition") ?? "")) return false;
  return true;
}

/**
 * Compressed bodies by encoding and content hash: an answer read again unchanged (GraphiQL's page, a
 * hot document's text, a list no one changed) is compressed once. Compressing a 20 KB text answer
 * with br costs more than the rest of its read; hashing it, about a hundredth of that. The key is
 * the content (SHA-256, which no one can collide on purpose), so a hit is the very bytes a miss
 * would make. Bounded by the compressed bytes kept, least recently used out first.
 */
const CACHE_BYTES = 16 * 1024 * 1024;
const cache = new LRUCache<string, Buffer>({ maxSize: CACHE_BYTES, sizeCalculation: (compressed) => compressed.byteLength + 128 });

/**
 * The bytes in a buffer of their own. zlib answers with a slice of its 64 KB output chunk: a
 * cached 300-byte answer would keep all 64 KB alive, past what the cache's bound counts.
 */
function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}

/** `body` in `encoding`, from the cache when the same body was compressed lately. */
export async function compress(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${createHash("sha256").update(body).digest("base64")}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compressed = ownBytes(await compressors[encoding](body));
  cache.set(key, compressed);
  return compressed;
}

/** Vary: Accept-Encoding added to what is there (each part a header value or nothing), without repeats. */
function varyValue(...parts: Array<string | number | string[] | null | undefined>): string {
  const names = new Map<string, string>();
  for (const part of parts) {
    if (part === null || part === undefined) continue;
    for (const name of String(part).split(",")) {
      const trimmed = name.trim();
      if (trimmed) names.set(trimmed.toLowerCase(), trimmed);
    }
  }
  if (names.has("*")) return "*";
  if (!names.has("accept-encoding")) names.set("accept-encoding", "Accept-Encoding");
  return [...names.values()].join(", ");
}

/** Whether the request rules compression out whatever the response (HEAD; tRPC streaming batches). */
const requestExcludes = (method: string, trpcAccept: string | null | undefined) =>
  method === "HEAD" || (trpcAccept ?? "").includes("jsonl");

/** Hono middleware: compresses the response a route or surface returned to Hono. */
export function compressionMiddleware(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!res.body || res.status === 204 || res.status === 304 || !eligible(res.headers)) return;
    // Hono writes this response with writeHead, whose Vary would replace one a middleware set on
    // the ServerResponse (CORS's Vary: Origin): merge it in.
    res.headers.set("Vary", varyValue(nodeBindings(c)?.outgoing.getHeader("vary"), res.headers.get("vary")));
    const encoding = chooseEncoding(requestHeader(c, "accept-encoding"));
    if (!encoding || requestExcludes(c.req.method, requestHeader(c, "trpc-accept"))) return;
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (declared < COMPRESSION_THRESHOLD) return;
    // Bodies of compressible types here are made in memory (JSON, HTML, text): reading them is cheap.
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.byteLength < COMPRESSION_THRESHOLD) {
      c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
      return;
    }
    const compressed = await compress(body, encoding);
    headers.set("Content-Encoding", encoding);
    headers.set("Content-Length", String(compressed.byteLength));
    c.res = undefined; // Hono keeps the headers of the response it replaces unless told to drop it
    c.res = new Response(compressed as Uint8Array<ArrayBuffer>, { status: res.status, statusText: res.statusText, headers });
  };
}

/** What the Node-path writers read of the request. */
export type NodeRequestHead = { method: string; acceptEncoding: string | undefined; trpcAccept: string | undefined };

/**
 * Both Node-path writers' decision: the encoding an answer is to be compressed with, or undefined.
 * An answer that could have been compressed says it depends on Accept-Encoding, compressed or not
 * (a cache must not give a gzip answer to a client without it), as the middleware does: `setVary`.
 */
function nodeEncoding(
  status: number,
  headers: Pick<Headers, "get">,
  setVary: (value: string) => void,
  request: NodeRequestHead,
  outgoing: ServerResponse,
): Encoding | undefined {
  if (status === 204 || status === 304 || !eligible(headers)) return undefined;
  setVary(varyValue(outgoing.getHeader("vary"), headers.get("vary")));
  const encoding = chooseEncoding(request.acceptEncoding);
  return encoding && !requestExcludes(request.method, request.trpcAccept) ? encoding : undefined;
}

/**
 * The body to send for an in-memory answer (./answer.ts): compressed (and `headers`, by lower-case
 * name, given its Content-Encoding and Vary) when compressForNode would compress it, else as it is.
 */
export async function compressedBody(
  status: number,
  headers: Record<string, string>,
  body: string,
  request: NodeRequestHead,
  outgoing: ServerResponse,
): Promise<string | Buffer> {
  const get = (name: string) => headers[name.toLowerCase()] ?? null;
  const encoding = nodeEncoding(status, { get }, (vary) => (headers["vary"] = vary), request, outgoing);
  if (!encoding || Buffer.byteLength(body) < COMPRESSION_THRESHOLD) return body;
  headers["content-encoding"] = encoding;
  return compress(Buffer.from(body, "utf8"), encoding);
}

/**
 * The Node fast path: writes `response` compressed to `outgoing` and returns true, or returns false
 * (nothing written) when it is not to be compressed and the caller sends it as usual.
 */
export async function compressForNode(response: Response, request: NodeRequestHead, outgoing: ServerResponse): Promise<boolean> {
  const encoding = nodeEncoding(response.status, response.headers, (vary) => response.headers.set("vary", vary), request, outgoing);
  if (!encoding) return false;
  // Only now: a light Response builds a stream for `body` on first access, which an answer sent
  // as it is never needs.
  if (!response.body) return false;
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared < COMPRESSION_THRESHOLD) return false;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  let payload: Uint8Array = body;
  if (body.byteLength >= COMPRESSION_THRESHOLD) {
    payload = await compress(body, encoding);
    headers["content-encoding"] = encoding;
  }
  headers["content-length"] = String(payload.byteLength);
  outgoing.writeHead(response.status, response.statusText || undefined, headers);
  outgoing.end(payload);
  return true;
}
