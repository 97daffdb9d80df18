// Automatic persisted queries as Apollo clients use them (docs/configuration.md "GraphQL: trusted
// documents"): a client sends a hash alone; on PersistedQueryNotFound it sends the hash with the
// text, which runs and is registered (./apq-cache.ts), so the next request by hash alone is served.
// A hash sent with a text that is not that text's sha256 is refused and registers nothing, as the
// APQ protocol and Apollo Server do: otherwise anyone could make a known hash run another operation.
// Registration happens only for an operation that parsed, validated and passed the cost limit
// (the plugin after them), never when only trusted documents are accepted.
import { defaultExtractPersistedOperationId } from "@graphql-yoga/plugin-persisted-operations";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { ApqCache } from "./apq-cache.ts";
import { documentHash } from "./trusted-documents.ts";

export interface ApqOptions {
  /** The manifest's documents: never registered again. */
  documents: ReadonlyMap<string, string>;
  /** GRAPHQL_TRUSTED_DOCUMENTS_ONLY: nothing is registered or served from registrations. */
  only: boolean;
  /** Where registered hashes go; undefined: none are (GRAPHQL_APQ_CACHE_SIZE=0). */
  cache: ApqCache | undefined;
}

const HEX = /^[0-9a-f]{64}$/;

/** The sha256 a request names next to its text: APQ's sha256Hash, or a `documentId` in sha256 form. */
function namedHash(params: { documentId?: unknown; extensions?: unknown }): { hash: string; apq: boolean } | undefined {
  const apq = defaultExtractPersistedOperationId(params as never, undefined as never, {});
  if (apq !== null) return { hash: apq.toLowerCase(), apq: true };
  if (typeof params.documentId !== "string") return undefined;
  const id = params.documentId.toLowerCase();
  if (id.startsWith("sha256:")) return { hash: id.slice("sha256:".length), apq: false };
  return HEX.test(id) ? { hash: id, apq: false } : undefined;
}

export const shaMismatch = () =>
  createGraphQLError("provided sha does not match query", { extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });

/**
 * Two plugins: `check` goes first (a text with a hash that is not its own is refused before anything
 * else looks at it); `register` goes after the limits, the cost and validation, and registers the
 * APQ hash of an operation that is about to run.
 */
export function useApq(options: ApqOptions): { check: Plugin; register: Plugin } {
  // By the request's context object: yoga builds the execution's context on it.
  const pending = new WeakMap<object, { hash: string; text: string }>();
  const check: Plugin = {
    onParams({ params, context }) {
      if (typeof params.query !== "string" || options.only) return;
      const named = namedHash(params as { documentId?: unknown; extensions?: unknown });
      if (!named) return;
      if (documentHash(params.query) !== named.hash) throw shaMismatch();
      if (named.apq && options.cache && !options.documents.has(named.hash)) pending.set(context, { hash: named.hash, text: params.query });
    },
  };
  const register: Plugin = {
    onExecute({ args }) {
      const registration = args.contextValue ? pending.get(args.contextValue as object) : undefined;
      if (registration) options.cache?.set(registration.hash, registration.text);
    },
  };
  return { check, register };
}
