// Writing what a surface's Node handler gave (an in-memory answer, or a Response) to Node's
// response, compressed where the rules allow (./compression.ts): the one writer both front doors
// use (./app.ts for a surface under Hono, ./fast-path.ts before it) and the error answers share.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendNodeResponse } from "@whatwg-node/server";
import { NodeAnswer, writeAnswer } from "./answer.ts";
import { compressForNode } from "./compression.ts";

/** What a surface's Node handler gives the app to send: a Response, or an answer made in memory (./answer.ts). */
export type NodeResult = Response | NodeAnswer;

/** Sends `result` on Node's response; returns the status sent. */
export async function sendNodeResult(result: NodeResult, incoming: IncomingMessage, outgoing: ServerResponse): Promise<number> {
  const { method = "GET", headers } = incoming;
  const request = { method, acceptEncoding: headers["accept-encoding"], trpcAccept: headers["trpc-accept"] as string | undefined };
  if (result instanceof NodeAnswer) await writeAnswer(result, request, outgoing);
  else if (!(await compressForNode(result, request, outgoing))) await sendNodeResponse(result, outgoing, incoming, true);
  return result.status;
}
