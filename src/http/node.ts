// The Node.js fast path. Under @hono/node-server every route can reach the raw IncomingMessage
// and ServerResponse (c.env). Building a WHATWG Request from them (undici's Request, a web
// ReadableStream over the socket, an AbortController) and reading a JSON body back through web
// streams costs more than a small GraphQL or tRPC call itself, so the body limit checks the
// declared length on the IncomingMessage, and surfaces that can take a Node request (yoga) do.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";

export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** The Node request and response behind a Hono context, when there are some. */
export function nodeBindings(c: Context): NodeBindings | undefined {
  const env = c.env as Partial<NodeBindings> | undefined;
  return env?.incoming && env.outgoing ? { incoming: env.incoming, outgoing: env.outgoing } : undefined;
}

/**
 * What a request's headers say about its body: "none" (GET/HEAD), its declared length, or
 * "unknown" (chunked, or no Content-Length): only then must the body be read to be measured.
 */
export function declaredBody(incoming: IncomingMessage): "none" | "unknown" | number {
  if (incoming.method === "GET" || incoming.method === "HEAD") return "none";
  const length = incoming.headers["content-length"];
  if (length === undefined || incoming.headers["transfer-encoding"] !== undefined) return "unknown";
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : "unknown";
}

/**
 * A request's abort signal: aborted when the client goes away before the response is written.
 * Under Node it is made here, from the response's close, as @hono/node-server does: reading
 * c.req.raw.signal would build the whole Fetch Request, whose body stream then takes the body
 * from Node's request (nodeBodyText could not read it).
 */
export function requestSignal(c: Context): AbortSignal {
  const node = nodeBindings(c);
  if (!node) return c.req.raw.signal;
  const controller = new AbortController();
  const { incoming, outgoing } = node;
  outgoing.once("close", () => {
    if (incoming.errored) controller.abort(incoming.errored.toString());
    else if (!outgoing.writableFinished) controller.abort("Client connection prematurely closed.");
  });
  return controller.signal;
}

/**
 * A request body with a declared length, read straight off Node's request and decoded as Fetch's
 * text() decodes UTF-8 (a leading byte-order mark dropped, malformed bytes as U+FFFD); undefined
 * when it must be read through hono: no Node request, a length hono's body limit measures as it
 * reads, or a body someone has begun to read. For a 400,000-character document undici's
 * web-stream read and TextDecoder took 3.2 ms of the main thread.
 */
export async function nodeBodyText(c: Context): Promise<string | undefined> {
  const bytes = await nodeBodyBytes(c);
  if (bytes === undefined) return undefined;
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The body's bytes, under the same conditions as nodeBodyText. */
export async function nodeBodyBytes(c: Context): Promise<Buffer | undefined> {
  const node = nodeBindings(c);
  if (!node || typeof declaredBody(node.incoming) !== "number") return undefined;
  const { incoming } = node;
  if (incoming.readableDidRead || incoming.readableFlowing !== null) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The little of a request that routing decisions read (method, path, headers), for a Node request. */
export function requestHead(incoming: IncomingMessage): RequestHead {
  const url = incoming.url ?? "/";
  const query = url.indexOf("?");
  return { method: incoming.method ?? "GET", path: query < 0 ? url : url.slice(0, query), headers: new NodeHeaders(incoming) };
}

/** `get` over a Node request's headers (lower-cased names; repeats joined as Fetch does). */
class NodeHeaders implements Pick<Headers, "get"> {
  constructor(private readonly incoming: IncomingMessage) {}
  get(name: string): string | null {
    const value = this.incoming.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

/**
 * One request header. Under Node it is read off the IncomingMessage: hono's `c.req.header()` would
 * first build a full Fetch API Headers object from all of them.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const node = nodeBindings(c);
  return node ? (new NodeHeaders(node.incoming).get(name) ?? undefined) : c.req.header(name);
}

/** The same, for a Fetch API request. */
export function fetchRequestHead(request: Request): RequestHead {
  return { method: request.method, path: new URL(request.url).pathname, headers: request.headers };
}

export interface RequestHead {
  method: string;
  /** The URL's path, without the query. */
  path: string;
  headers: Pick<Headers, "get">;
}
