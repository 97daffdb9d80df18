// Trusted documents (persisted operations, docs/configuration.md "GraphQL: trusted documents"): operations sent by the sha256 hash of
// their text, from a manifest loaded once at start-up (GRAPHQL_TRUSTED_DOCUMENTS_FILE), or registered by APQ clients (./apq.ts). A hash
// comes as the GraphQL-over-HTTP `documentId` ("sha256:<hex>" or the bare hex; body or GET query)
// or as Apollo's APQ `extensions.persistedQuery.sha256Hash`. With GRAPHQL_TRUSTED_DOCUMENTS_ONLY
// anything not in the manifest is refused, the way production frontends lock a public graph
// down. A document found by hash goes through the same parse cache, limits, cost, validation and
// graphql-jit as one sent as text: its text is the cache key, one to one with its hash.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { defaultExtractPersistedOperationId, usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { ConfigError } from "../core/config.ts";
import type { ApqCache } from "./apq-cache.ts";

/** sha256 hex of an operation's text, as clients and codegen's persisted-documents preset compute it. */
export const documentHash = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

const HEX = /^[0-9a-f]{64}$/;

/** "sha256:<hex>" or "<hex>" as the bare lower-case hex; anything else stays as sent (and is not found). */
function normalizedId(id: string): string {
  const bare = id.startsWith("sha256:") ? id.slice("sha256:".length) : id;
  return HEX.test(bare.toLowerCase()) ? bare.toLowerCase() : id;
}

type Entries = [id: string, text: unknown][];

/** The manifest's entries: `{hash: text}` (GraphQL Code Generator) or Apollo's `{format, operations: [{id, body}]}`. */
function entriesOf(manifest: unknown): Entries {
  if (manifest === null || typeof manifest !== "object" || Array.isArray(manifest)) return [];
  const operations = (manifest as { operations?: unknown }).operations;
  if ("format" in manifest && Array.isArray(operations)) {
    return operations.map((op: { id?: unknown; body?: unknown }) => [String(op?.id), op?.body]);
  }
  return Object.entries(manifest);
}

/**
 * The manifest as hash → text. Every id must be the sha256 of its text, so that a manifest
 * cannot make a known hash run another operation; a bad file stops the start with a message
 * naming the variable.
 */
export function loadTrustedDocuments(file: string): Map<string, string> {
  const fail = (why: string) => new ConfigError(`GRAPHQL_TRUSTED_DOCUMENTS_FILE (${file}): ${why}`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw fail(`not a readable JSON file: ${(error as Error).message}`);
  }
  const entries = entriesOf(manifest);
  if (entries.length === 0)
    throw fail('no operations: expected {"<sha256>": "<operation>"} or {"format": …, "operations": [{"id", "body"}]}');
  const documents = new Map<string, string>();
  for (const [id, text] of entries) {
    if (typeof text !== "string" || text.trim() === "") throw fail(`the operation of ${id} is not a non-empty string`);
    const hash = normalizedId(id);
    if (hash !== documentHash(text)) throw fail(`${id} is not the sha256 of its operation's text (${documentHash(text)})`);
    documents.set(hash, text);
  }
  return documents;
}

/** The hash a request names: `documentId` (body or GET query) or APQ's sha256Hash; null when it names none. */
function requestedId(params: GraphQLParams & { documentId?: unknown }, request: Request): string | null {
  if (typeof params.documentId === "string") return normalizedId(params.documentId);
  const apq = defaultExtractPersistedOperationId(params, request, {});
  if (apq !== null) return normalizedId(apq);
  if (request.method !== "GET") return null;
  const fromQuery = new URL(request.url).searchParams.get("documentId");
  return fromQuery === null ? null : normalizedId(fromQuery);
}

/**
 * The plugin: a hash is looked up in the manifest, then among the hashes APQ clients registered
 * (./apq.ts; never when only trusted documents are allowed). APQ clients retry with the full text
 * on PersistedQueryNotFound (its message and code are the protocol's), which works unless only
 * trusted documents are allowed.
 */
export function useTrustedDocuments(documents: ReadonlyMap<string, string>, only: boolean, registered?: ApqCache): Plugin {
  const lookUp = (id: string) => {
    const trusted = documents.get(id);
    if (trusted !== undefined || only || !registered) return trusted ?? null;
    return registered.get(id).then((text) => text ?? null);
  };
  return usePersistedOperations({
    allowArbitraryOperations: !only,
    extractPersistedOperationId: requestedId,
    getPersistedOperation: lookUp,
    customErrors: {
      notFound: { message: "PersistedQueryNotFound", extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } },
      keyNotFound: {
        message: "Send the operation as `query`, or a trusted document's `documentId` (or extensions.persistedQuery.sha256Hash)",
        // 400 whatever the client accepts, as yoga's own "Must provide query string" was.
        extensions: { code: "BAD_USER_INPUT", http: { status: 400 } },
      },
      persistedQueryOnly: {
        message:
          "Only trusted documents are accepted here: send the operation's documentId (or extensions.persistedQuery.sha256Hash) from the manifest",
        extensions: { code: "PERSISTED_QUERY_ID_REQUIRED" },
      },
    },
  }) as Plugin;
}
