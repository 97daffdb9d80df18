// An answer a surface made in memory (status, headers, a JSON or text body), written straight to
// Node's response by the app: no platform Response, Headers or body stream in between (tRPC's
// single queries, src/trpc/single-query.ts). Compression and Vary follow the same rules as every
// other response (./compression.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { compressedBody, type NodeRequestHead } from "./compression.ts";

export class NodeAnswer {
  /** `headers` by lower-case name; content-length is the app's to set. */
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string,
  ) {}
}

/** A signal that aborts when the client goes away before the response is finished, as a platform request's does. */
export function hangUpSignal(incoming: IncomingMessage, outgoing: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!controller.signal.aborted) controller.abort(outgoing.errored ?? undefined);
  };
  outgoing.once("error", gone);
  outgoing.once("close", gone);
  outgoing.once("finish", () => outgoing.removeListener("close", gone));
  // The client hung up before these listeners were there: its socket is gone already.
  if (incoming.socket.destroyed) gone();
  return controller.signal;
}

/** Writes `answer` to `outgoing`, compressed when the request and the body allow it. */
export async function writeAnswer(answer: NodeAnswer, request: NodeRequestHead, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string> = { ...answer.headers };
  const payload = await compressedBody(answer.status, headers, answer.body, request, outgoing);
  headers["content-length"] = String(typeof payload === "string" ? Buffer.byteLength(payload) : payload.byteLength);
  outgoing.writeHead(answer.status, headers);
  outgoing.end(payload);
}
