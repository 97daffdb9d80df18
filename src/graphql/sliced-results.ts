// Large GraphQL answers written in slices (issue 37 F5): yoga's regular result processor writes an
// execution result with one JSON.stringify, which held the event loop (and /healthz) 187–416 ms for
// three 100,000-cell ranges. This plugin takes over that processor for results whose `data` is
// large: yoga's own processor still makes the answer (status, headers, errors and extensions as
// it always does) around a marker standing for `data`, and `data`'s text, made in slices
// (src/core/json-slices.ts), replaces the marker. The bytes are those JSON.stringify made.
import { randomUUID } from "node:crypto";
import { processRegularResult, type Plugin } from "graphql-yoga";
import { hasNodes, jsonInSlices } from "../core/json-slices.ts";

/** What yoga's hook accepts as a result processor (the type is not exported by name). */
type ResultProcessor = Parameters<Parameters<NonNullable<Plugin["onResultProcess"]>>[0]["setResultProcessor"]>[0];
type Result = { data?: unknown; stringify?: unknown } & Record<string, unknown>;

/** The media types yoga's regular processor answers, in its order (graphql-yoga's use-result-processor.js). */
const REGULAR = ["application/graphql-response+json", "application/json"];

/** The accepted media types in the order yoga tries them (graphql-yoga's result-processor/accept.js). */
function askedInOrder(request: Request): string[] {
  const asked: string[] = [];
  for (const accept of (request.headers.get("accept") || "*/*").replace(/\s/g, "").toLowerCase().split(",")) {
    const [type, ...params] = accept.split(";");
    const charset = params.find((param) => param.includes("charset=")) ?? "charset=utf-8";
    if (type !== undefined && charset === "charset=utf-8") asked.push(type);
  }
  return asked.reverse();
}

const matches = (asked: string, offered: string) => {
  const [askedType, askedSub] = asked.split("/");
  const [type, sub] = offered.split("/");
  return (type === "*" || type === askedType) && (sub === "*" || sub === askedSub);
};

/** The media type yoga chose for its regular processor: the last match, as its loop leaves it. */
function regularMediaType(request: Request): string | undefined {
  let chosen: string | undefined;
  for (const asked of askedInOrder(request)) for (const offered of REGULAR) if (matches(offered, asked)) chosen = offered;
  return chosen;
}

const large = (result: unknown): boolean =>
  Array.isArray(result) ? result.some(large) : typeof result === "object" && result !== null && hasNodes((result as Result).data);

/** yoga's processor over the results with `data` as markers, then each `data` written in slices in its place. */
const slicedProcessor =
  (mediaType: string): ResultProcessor =>
  async (executionResult, fetchAPI) => {
    const results = (Array.isArray(executionResult) ? executionResult : [executionResult]) as Result[];
    const marker = `\u0000wg-data-${randomUUID()}-`;
    // Without jit's `stringify`: yoga must write the marker itself (jit's is JSON.stringify anyway).
    const marked = results.map(({ stringify: _stringify, ...result }, i) =>
      result.data === undefined || result.data === null ? result : { ...result, data: `${marker}${i}` },
    );
    const shell = processRegularResult((Array.isArray(executionResult) ? marked : marked[0]) as never, fetchAPI, mediaType);
    const text = await shell.text();
    // Each marker once, in order: the pieces between them joined once (no copy of the whole per result).
    const pieces: string[] = [];
    let from = 0;
    for (const [i, result] of results.entries()) {
      if (result.data === undefined || result.data === null) continue;
      const quoted = JSON.stringify(`${marker}${i}`);
      const at = text.indexOf(quoted, from);
      pieces.push(text.slice(from, at), await jsonInSlices(result.data));
      from = at + quoted.length;
    }
    pieces.push(text.slice(from));
    // The shell's length was the markers'.
    const headers: Record<string, string> = {};
    shell.headers.forEach((value, name) => {
      if (name !== "content-length") headers[name] = value;
    });
    return new fetchAPI.Response(pieces.join(""), { status: shell.status, statusText: shell.statusText, headers });
  };

/** After yoga's result processors (which it registers before any plugin): large regular results in slices. */
export const useSlicedResults = (): Plugin => ({
  onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
    if (resultProcessor !== processRegularResult || !large(result)) return;
    const mediaType = regularMediaType(request);
    if (mediaType) setResultProcessor(slicedProcessor(mediaType), mediaType);
  },
});
