// What a row of the operation table is (docs/architecture.md "Adding an operation"): the operation's
// name, schemas, description, credential and annotations, its run function over the services, and
// how each surface shows it. Every field here is read by something: the runner (auth, input, run),
// a surface's derivation (trpc, mcp, graphql, rest, upload), the OpenAPI document (rest, output),
// the MCP tool filter (auth) or docs/api.md's generated tables.
import type DataLoader from "dataloader";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { DriveAdapter, DriveFile } from "../../../adapters/drive.ts";
import type { EnterpriseAdapter } from "../../../adapters/enterprise.ts";
import type { MailAdapter, Thread } from "../../../adapters/mail.ts";
import type { MeetingSummary, MeetingsAdapter, Transcript } from "../../../adapters/meetings.ts";
import type { SearchAdapter } from "../../../adapters/search.ts";
import type { RequestContext } from "../../core/context.ts";
import type { JsonBody } from "../../core/json-body.ts";
import type { DocumentsService } from "../documents.ts";
import type { DriveReader } from "../drive-read.ts";
import type { ProductsService } from "../product-operations.ts";
import type { SharedService } from "../share-links.ts";
import type { SpreadsheetsService } from "../spreadsheets/index.ts";
import type { TrashService } from "../items.ts";

/**
 * Who may run an operation: a scope (the caller's own documents or spreadsheets, with a personal
 * API key or a verified access token), an access token (forwarded to a product), or a share link's
 * token (no credential: the token in the path is one).
 */
export type OperationAuth =
  | "docs:read"
  | "docs:write"
  | "sheets:read"
  | "sheets:write"
  /** The trash of documents and spreadsheets together: either kind's scope (the service shows what the scopes allow). */
  | "workspace:read"
  | "workspace:write"
  | "access_token"
  | "share_token";

/** MCP tool annotations (docs/api.md "MCP"). `destructiveHint` and `idempotentHint` matter only when not read-only. */
export interface OperationAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Per-request DataLoaders: one upstream call per distinct id per request. */
export interface ProductLoaders {
  thread: DataLoader<string, Thread>;
  transcript: DataLoader<string, Transcript>;
  summary: DataLoader<string, MeetingSummary>;
  file: DataLoader<string, DriveFile>;
}

export interface ProductAdapters {
  mail: MailAdapter;
  drive: DriveAdapter;
  search: SearchAdapter;
  meetings: MeetingsAdapter;
  enterprise: EnterpriseAdapter;
}

/** What a run function gets: the request, the services, and (for products) the upstream identity, adapters and loaders. */
export interface RunEnv {
  ctx: RequestContext;
  documents: DocumentsService;
  sheets: SpreadsheetsService;
  /** What a share link reads, a document or a spreadsheet. */
  shared: SharedService;
  /** The trash of both kinds. */
  trash: TrashService;
  /** A drive file's text (files.read). */
  driveReader: DriveReader;
  /** Product operations (./product-operations.ts); only rows whose auth is "access_token" call them. */
  products: ProductsService;
}

/** A file part of an operation's input, as a surface hands it over (a File of a multipart form or a GraphQL Upload). */
export interface UploadSpec {
  /** The input field that holds the file. */
  field: "file";
  /** Bytes one file may have: a number, or UPLOAD_LIMIT_BYTES (configuration, the drive's uploads). */
  maxBytes: number | "UPLOAD_LIMIT_BYTES";
  /** The operation also takes a JSON input without a file (documents.update: markdown or a .docx). */
  optional?: boolean;
}

/** How an operation is offered as an MCP tool. */
export interface McpToolSpec {
  name: string;
  /** The tool's input schema when it is not the operation's (drive_upload takes base64 content). */
  input?: z.ZodType;
  /**
   * From the tool's validated arguments to what runs: the operation's input, or another
   * operation and its input (docs_read with a `version` reads that version).
   */
  toInput?(args: never): unknown;
  route?(args: never): { operation: string; input: unknown } | undefined;
  /** The structured result when the operation's output is not what the tool answers. */
  output?: z.ZodType;
  toResult?(result: never, args: never): Record<string, unknown>;
  /** How the result is shown when JSON text is not enough (docs_read: the text itself, and a note when cut short). */
  present?(result: never): CallToolResult;
  /** Defaults zod applies but its JSON Schema leaves out (a default behind a preprocess is lost). */
  defaults?: Record<string, unknown>;
}

/**
 * One GraphQL field (schema/*.graphql) an operation backs; resolvers/operations.ts derives its
 * resolver. What is GraphQL's own (an Upload, a JSON argument's null, enums, Relay paging) is
 * handled there, for every field alike.
 */
export interface GraphqlFieldSpec {
  /** The field's coordinate: "Query.thread" for a query, "Mutation.sendMessage" for a mutation, "Message.thread" on a type. */
  field: `${string}.${string}`;
  /**
   * How the field's arguments become the operation's input (null arguments are absent, but a
   * JSON argument's null is a value; enum values are lower-cased):
   * - absent: the arguments themselves;
   * - "input": the fields of the one `input` argument;
   * - "connection": a Relay connection whose `first`/`after` page over the operation's
   *   `limit`/`cursor`; the other arguments are passed.
   */
  args?: "input" | "connection";
  /**
   * A connection over a list that pages by its own cursors (documents: the id is the position):
   * the array's key in the output, each edge's cursor, and the node a parent-scoped item becomes.
   * Without it, a connection pages an upstream list ({data, nextCursor}).
   */
  connection?: { items: string; cursorOf(item: never): string; node?(item: never, parent: never): unknown };
  /** The output's field the GraphQL field answers with (Document.shares: the list of `{shares}`). */
  pick?: string;
  /** A type field's input from the object it is on (Message.thread: the message's threadId). */
  fromParent?(parent: never): Record<string, unknown>;
  /** A nullable field that answers null where the operation answers NOT_FOUND. */
  nullWhenNotFound?: boolean;
}

/** How a REST route maps HTTP onto the operation (src/rest/routes.ts) and how OpenAPI describes it. */
export interface RestSpec {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style: "/api/v1/documents/{id}"; each {param} is the input field of that name. */
  path: string;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 204;
  /**
   * Where the input's other fields come from: the query string (GET, DELETE by default), a JSON
   * body (default otherwise; "json?" when it may be empty), or a multipart form (uploads). An
   * array: either, by Content-Type.
   */
  body?: RestBody | readonly RestBody[];
  /** `If-Match: "v<n>"` → `expectedVersion`. */
  ifMatch?: boolean;
  /** `Idempotency-Key` → `idempotencyKey`; a replay says `Idempotent-Replayed: true`. */
  idempotencyKey?: boolean;
  /** What the route answers: the output as JSON (default), nothing (204), or the bytes of a download. */
  response?: "json" | "empty" | "download";
  /** A record about one thing: its `version` (or its `spreadsheet`'s) becomes the ETag; a GET answers 304 to a matching If-None-Match. */
  etag?: boolean;
  /** `Location:` the output's `url` (a create). */
  location?: boolean;
  /** Answers that hold a secret (a new share link, a shared document): never stored by caches. */
  noStore?: boolean;
  /**
   * An output that is text to the caller (a range read as CSV or markdown): its media type, body and
   * any headers (`url`: the request's, for links to the next page); undefined answers JSON.
   */
  asText?(output: never, url: URL): { type: string; body: string; headers?: Record<string, string> } | undefined;
}
export type RestBody = "query" | "json" | "json?" | "multipart";

export interface OperationDef<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  K extends "query" | "mutation" = "query" | "mutation",
> {
  /** tRPC queries read, mutations write. */
  kind: K;
  auth: OperationAuth;
  /** A short title: the MCP tool's title and the OpenAPI operation's summary. */
  title: string;
  /** What it does and returns, in words an agent can act on: MCP, OpenAPI, docs/api.md. */
  description: string;
  input: I;
  /** Absent input is `{}` (list operations). */
  optionalInput?: boolean;
  output: O;
  annotations: OperationAnnotations;
  /** Offered as a tRPC procedure at its name (default); false for REST-only routes (downloads, share links). */
  trpc?: boolean;
  /** A file part: how the surfaces that take files (REST multipart, tRPC FormData, GraphQL Upload) hand it over. */
  upload?: UploadSpec;
  mcp?: McpToolSpec;
  graphql?: readonly GraphqlFieldSpec[];
  rest?: RestSpec;
  run(env: RunEnv, input: z.output<I>): Promise<z.output<O>>;
  /**
   * The same operation from a large JSON body's bytes (REST, over LARGE_JSON_BODY_BYTES): it
   * parses and validates them off the event loop, answering as `input`'s validation would.
   */
  largeJsonBody?(env: RunEnv, body: JsonBody): Promise<z.output<O>>;
}

/**
 * Keeps each row's exact types (schemas, kind, its GraphQL fields) for the derived surfaces, and
 * states as required properties what a row sets: `optionalInput: true`, `trpc: false`, its upload.
 */
export const define = <
  I extends z.ZodType,
  O extends z.ZodType,
  K extends "query" | "mutation",
  Opt extends boolean = false,
  T extends boolean = true,
  const U extends UploadSpec | undefined = undefined,
  const G extends readonly GraphqlFieldSpec[] = readonly [],
>(
  op: OperationDef<I, O, K> & { optionalInput?: Opt; trpc?: T; upload?: U; graphql?: G },
) =>
  op as typeof op &
    (Opt extends true ? { optionalInput: true } : unknown) &
    (T extends false ? { trpc: false } : unknown) &
    (U extends UploadSpec ? { upload: U } : unknown);

export const read: OperationAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates something new in the caller's workspace, nothing else; a second call creates a second one. */
export const create: OperationAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Creates something that reaches people or systems beyond the caller (recipients, attendees, a workflow's effects). */
export const reachesOut: OperationAnnotations = { ...create, openWorldHint: true };
/** Replaces or removes what the caller has (kept as a version or in the trash, so recoverable); each call does it again. */
export const replaces: OperationAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
/** Removes something; a repeat changes nothing more. */
export const removes: OperationAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
