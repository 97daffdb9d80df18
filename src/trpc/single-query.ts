// The most common tRPC request, answered without resolveResponse: one query by GET
// (`/trpc/messages.list?input={…}`), not batched, not streamed. For it resolveResponse parses the
// URL again, builds Headers, combines two abort signals per call and answers with the platform's
// Response, whose body is a web stream that the server then reads back (bench:gateway's profile:
// @trpc/server, abort signals and web streams ~20% of a tRPC request's CPU, against GraphQL's path).
// A query of the operation table is called without tRPC's procedure chain (./procedures.ts
// tableQueries), its errors mapped by the chain's own middleware function; the answer goes to
// Node's response as it is (src/http/answer.ts), with no platform Request or Response around it.
//
// Everything else goes to resolveResponse: POST, HEAD, batches, other query parameters, a
// `trpc-accept` header, an encoded or unknown path, a mutation or subscription, an `input` that is
// not JSON. That choice is made before anything runs, so a request is always answered by exactly
// one of the two, and this path answers as resolveResponse does (same body, status and headers:
// tests compare the two on success and on errors).
import { getTRPCErrorFromUnknown, getTRPCErrorShape, transformTRPCResponse, type AnyTRPCProcedure } from "@trpc/server";
import { getHTTPStatusCode } from "@trpc/server/http";
import { NodeAnswer } from "../http/answer.ts";
import { procedureError, type TrpcContext } from "./init.ts";
import { tableQueries, type TableResolver } from "./procedures.ts";
import { appRouter } from "./router.ts";

/** A single query, read off the request line and headers only. */
export interface SingleQuery {
  path: string;
  input: unknown;
  procedure: AnyTRPCProcedure;
  /** The table's resolver for the path (./procedures.ts), called without the procedure chain; absent for `viewer`. */
  resolve: TableResolver | undefined;
}

/** What resolveResponse sets on every answer to a query (the writer copies them before adding its own). */
const headers = { "content-type": "application/json", vary: "trpc-accept, accept" };

// Keyed by full path ("messages.list") at run time, whatever the nested type says.
const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure | undefined>;

/** The input of a query string that holds `input` and nothing else (or nothing); undefined otherwise. */
function inputOf(search: string): { input: unknown } | undefined {
  if (search === "") return { input: undefined };
  const params = new URLSearchParams(search);
  let count = 0;
  for (const _ of params.keys()) if (++count > 1) return undefined;
  const text = params.get("input");
  if (text === null) return undefined;
  try {
    return { input: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The request as a single query this path can answer, or undefined for resolveResponse.
 * `path` is the procedure path as the surface cut it from the URL; `search` the URL after "?".
 */
export function singleQuery(method: string, path: string, search: string, trpcAccept: string | undefined): SingleQuery | undefined {
  if (method !== "GET" || trpcAccept !== undefined || path === "" || /[%,/]/.test(path)) return undefined;
  const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
  if (!procedure || procedure._def.type !== "query") return undefined;
  const parsed = inputOf(search);
  return parsed && { path, input: parsed.input, procedure, resolve: tableQueries.get(path) };
}

/** Runs the query and gives its answer as resolveResponse would: status, headers and JSON body. */
export async function answerSingleQuery(query: SingleQuery, ctx: TrpcContext, signal: AbortSignal): Promise<NodeAnswer> {
  const { path, input, procedure, resolve } = query;
  const config = appRouter._def._config;
  try {
    const data: unknown = resolve
      ? await resolve(ctx, input)
      : await procedure({ path, getRawInput: async () => input, ctx, type: "query", signal, batchIndex: 0 });
    const json = { result: { data } };
    return new NodeAnswer(200, headers, JSON.stringify(transformTRPCResponse(config, json)));
  } catch (cause) {
    // A direct call's failure gets what the procedure's error middleware would have made of it.
    const error = resolve ? procedureError(getTRPCErrorFromUnknown(cause), ctx, path) : getTRPCErrorFromUnknown(cause);
    const json = { error: getTRPCErrorShape({ config, ctx, error, input, path, type: "query" }) };
    return new NodeAnswer(getHTTPStatusCode(json, [error]), headers, JSON.stringify(transformTRPCResponse(config, json)));
  }
}
