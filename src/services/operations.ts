// The product operations, each declared once (docs/api.md "tRPC", "MCP"): its name (the tRPC path;
// the service object uses it too), its MCP tool, the GraphQL fields it backs, zod input and output
// schemas, the credential it needs, a description an agent can act on, truthful MCP annotations and
// its run function over the adapters. The service runner (products.ts), the tRPC procedures
// (src/trpc/products.ts), the MCP tools (src/mcp/tools.ts) and the GraphQL product resolvers
// (resolvers/products.ts) are derived from this table; adding an operation touches this table, its
// adapter and the GraphQL SDL (schema/*.graphql), nothing else.
import type DataLoader from "dataloader";
import { z } from "zod";
import { listOf } from "../../adapters/common.ts";
import {
  driveFileSchema,
  driveSearchHitSchema,
  shareSchema,
  type Download,
  type DriveAdapter,
  type DriveFile,
} from "../../adapters/drive.ts";
import {
  dataQueryResultSchema,
  invoiceSchema,
  workflowRunSchema,
  type EnterpriseAdapter,
  type TenantCall,
} from "../../adapters/enterprise.ts";
import {
  bookingSchema,
  calendarEventSchema,
  draftSchema,
  messageSchema,
  threadSchema,
  type MailAdapter,
  type Thread,
} from "../../adapters/mail.ts";
import {
  meetingSchema,
  summarySchema,
  transcriptSchema,
  type MeetingSummary,
  type MeetingsAdapter,
  type Transcript,
} from "../../adapters/meetings.ts";
import { chatAnswerSchema, searchAnswerSchema, type SearchAdapter } from "../../adapters/search.ts";
import { isValidContentType } from "../../adapters/upstream/multipart.ts";
import {
  PRODUCT_MAX_PAGE_SIZE,
  calendarEventsInputSchema,
  createBookingInputSchema,
  createDraftInputSchema,
  createMeetingInputSchema,
  createShareInputSchema,
  dataQueryInputSchema,
  fileIdInputSchema,
  invoicesInputSchema,
  listMessagesInputSchema,
  meetingIdInputSchema,
  runWorkflowInputSchema,
  searchChatInputSchema,
  searchFilesInputSchema,
  searchQueryInputSchema,
  sendMessageInputSchema,
  threadInputSchema,
  upstreamIdSchema,
  uploadFileInputSchema,
} from "../contract/products.ts";
import { strictObject } from "../core/strict-object.ts";

/** Where an operation is offered. REST serves only the drive download; GraphQL has its own SDL. */
export type OperationSurface = "graphql" | "trpc" | "mcp" | "rest";

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

/** What a run function gets: the upstream identity of the request (its access token), the adapters and the request's loaders. */
export interface RunEnv {
  call: TenantCall;
  adapters: ProductAdapters;
  loaders(): ProductLoaders;
}

/** How an operation is offered as an MCP tool, when its MCP input or result differs from the service's. */
export interface McpToolSpec {
  name: string;
  title: string;
  /** The tool's input schema when it is not the operation's (drive_upload takes base64 content). */
  input?: z.ZodType;
  /** From the tool's validated arguments to the operation's input. */
  toInput?(args: never): unknown;
  /** The structured result when the operation's is not an object (drive_search's list of hits). */
  output?: z.ZodType;
  toResult?(result: never): Record<string, unknown>;
}

/**
 * One GraphQL field (schema/*.graphql) an operation backs; resolvers/products.ts derives its
 * resolver, which runs the operation through the service's runner. What is GraphQL's own (an
 * Upload's File, a JSON argument's null, Relay paging) is handled there, for every field alike.
 */
export interface GraphqlFieldSpec {
  /** The field's coordinate: "Query.thread" for a query, "Mutation.sendMessage" for a mutation, "Message.thread" on a type. */
  field: `${string}.${string}`;
  /**
   * How the field's arguments become the operation's input (null arguments are absent, but a
   * JSON argument's null is a value):
   * - absent: the arguments themselves;
   * - "input": the fields of the one `input` argument;
   * - "connection": a Relay connection whose `first`/`after` page over the operation's
   *   `limit`/`cursor`; the other arguments are passed.
   */
  args?: "input" | "connection";
  /** A type field's input from the object it is on (Message.thread: the message's threadId). */
  fromParent?(parent: never): Record<string, unknown>;
  /** A nullable field that answers null where the operation answers NOT_FOUND. */
  nullWhenNotFound?: boolean;
}

export interface OperationDef<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  K extends "query" | "mutation" = "query" | "mutation",
> {
  /** tRPC queries read, mutations write. */
  kind: K;
  surfaces: readonly OperationSurface[];
  /** Every product operation needs the caller's access token (personal API keys are FORBIDDEN, docs/api.md "Credentials"). */
  credential: "access_token";
  description: string;
  input: I;
  /** Absent input is `{}` (list operations). */
  optionalInput?: boolean;
  /** tRPC takes the input as multipart FormData (files.upload). */
  trpcFormData?: boolean;
  output: O;
  annotations: OperationAnnotations;
  mcp?: McpToolSpec;
  /** The GraphQL fields it backs: present exactly when `surfaces` has "graphql". */
  graphql?: readonly GraphqlFieldSpec[];
  run(env: RunEnv, input: z.output<I>): Promise<z.output<O>>;
}

/**
 * Keeps each row's exact types (schemas, kind, whether `optionalInput`/`trpcFormData` are set, its
 * GraphQL fields) for the derived surfaces.
 */
const define = <
  I extends z.ZodType,
  O extends z.ZodType,
  K extends "query" | "mutation",
  Opt extends boolean = false,
  Form extends boolean = false,
  const G extends readonly GraphqlFieldSpec[] = readonly [],
>(
  op: OperationDef<I, O, K> & { optionalInput?: Opt; trpcFormData?: Form; graphql?: G },
) => op;

const ALL: readonly OperationSurface[] = ["graphql", "trpc", "mcp"];

const read: OperationAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates something new in the caller's workspace, nothing else; a second call creates a second one. */
const create: OperationAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Creates something that reaches people or systems beyond the caller (recipients, attendees, a workflow's effects). */
const reachesOut: OperationAnnotations = { ...create, openWorldHint: true };

const PAGING = `Pages: at most \`limit\` items (1-${PRODUCT_MAX_PAGE_SIZE}); when \`nextCursor\` is not null, call again with \`cursor\` set to it for the next page (null: this was the last page).`;
const TOKEN = "Needs an access token (not a personal API key).";
const TENANT = "Runs against the credential's tenant (TENANT_REQUIRED when the access token names none).";

// A drive file as JSON: the adapters' nullish-to-undefined `parentId`/`score` are simply optional.
const driveFileJson = driveFileSchema.extend({ parentId: z.string().optional() });
const driveSearchJson = z.object({
  files: z.array(driveSearchHitSchema.extend({ parentId: z.string().optional(), score: z.number().optional() })),
});

/** drive_upload's input: the bytes as base64 (an MCP call carries JSON, not files). */
const driveUploadToolInput = strictObject({
  name: z.string().trim().min(1).max(255).meta({ description: "File name to store, e.g. report.csv" }),
  content: z
    .string()
    .max(64 * 1024 * 1024)
    .regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "must be base64")
    .meta({ description: "The file's bytes, base64-encoded" }),
  contentType: z
    .string()
    .refine(isValidContentType, "not a valid media type")
    .optional()
    .meta({ description: "Media type, e.g. text/csv; default application/octet-stream" }),
  folderId: upstreamIdSchema.optional().meta({ description: "Drive folder id to upload into, e.g. fld_finance" }),
});

/** The drive file a caller uploads: a filename and type from the input, else the File's own. */
function uploadFile(input: z.output<typeof uploadFileInputSchema>) {
  const { file, name, folderId, filename, contentType, size } = input;
  const asFile = file as Partial<File>;
  return {
    name,
    folderId,
    file: {
      data: file,
      filename: filename ?? (typeof asFile.name === "string" && asFile.name ? asFile.name : (name ?? "upload")),
      contentType: contentType ?? (typeof asFile.type === "string" && asFile.type ? asFile.type : "application/octet-stream"),
      size,
    },
  };
}

/** The operation table. Keys are the operations' names: the tRPC paths of docs/api.md "tRPC". */
export const operations = {
  // ---- mail ---------------------------------------------------------------------------------
  "messages.list": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description:
      "List the caller's mail messages, newest first: {data:[{id,threadId,folder,from,to,cc,subject,snippet,receivedAt,unread,hasAttachments}], nextCursor}. " +
      `Filter by \`folder\` (e.g. inbox, sent) and \`q\` (search text). ${PAGING} Read a whole conversation with mail_thread and the message's threadId. ${TOKEN}`,
    input: listMessagesInputSchema,
    optionalInput: true,
    output: listOf(messageSchema),
    annotations: read,
    mcp: { name: "mail_list", title: "List mail messages" },
    graphql: [{ field: "Query.messages", args: "connection" }],
    run: ({ call, adapters }, input) => adapters.mail.listMessages(call, input),
  }),
  "messages.thread": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description: `One mail thread by id (a message's threadId): {id, subject, messages:[{…message, body}]}, oldest first. ${TOKEN}`,
    input: threadInputSchema,
    output: threadSchema,
    annotations: read,
    mcp: { name: "mail_thread", title: "Read a mail thread" },
    graphql: [
      { field: "Query.thread", nullWhenNotFound: true },
      { field: "Message.thread", fromParent: (message: { threadId: string }) => ({ id: message.threadId }), nullWhenNotFound: true },
    ],
    run: ({ loaders }, input) => loaders().thread.load(input.id),
  }),
  "messages.send": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "SENDS an email now from the caller's mailbox to every address in `to`, `cc` and `bcc`; it cannot be recalled. " +
      "To prepare a message for review instead, use mail_draft. `threadId` sends it as a reply in that thread; `html: true` when `body` is HTML. " +
      `Not idempotent: calling it again sends the message again. Returns the sent message. ${TOKEN}`,
    input: sendMessageInputSchema,
    output: messageSchema,
    annotations: reachesOut,
    mcp: { name: "mail_send", title: "Send an email" },
    graphql: [{ field: "Mutation.sendMessage", args: "input" }],
    run: ({ call, adapters }, input) => adapters.mail.sendMessage(call, input),
  }),
  "messages.createDraft": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Save an email draft in the caller's mailbox; nothing is sent. Give `to`, `subject`, `body`, or `generate: {instructions}` to have the mail product write it " +
      `(with \`threadId\`, as a reply in that thread). Returns {id, to, subject, body, generated}. ${TOKEN}`,
    input: createDraftInputSchema,
    output: draftSchema,
    annotations: create,
    mcp: { name: "mail_draft", title: "Create an email draft" },
    graphql: [{ field: "Mutation.createDraft", args: "input" }],
    run: ({ call, adapters }, input) => adapters.mail.createDraft(call, input),
  }),
  "calendar.events": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description:
      "The caller's calendar events between `from` and `to` (ISO 8601 date-times with offset, e.g. 2026-01-01T00:00:00Z): " +
      `{data:[{id,title,start,end,location,attendees:[{email,name,response}],meetingUrl}], nextCursor}. ${PAGING} ${TOKEN}`,
    input: calendarEventsInputSchema,
    optionalInput: true,
    output: listOf(calendarEventSchema),
    annotations: read,
    mcp: { name: "calendar_events", title: "List calendar events" },
    graphql: [{ field: "Query.calendarEvents", args: "connection" }],
    run: ({ call, adapters }, input) => adapters.mail.listEvents(call, input),
  }),
  "bookings.create": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Book a slot with an attendee: `bookingTypeId` (e.g. bt_intro30), `start` (ISO 8601), `attendee: {name, email}`, optional `notes`. " +
      `A slot already taken is CONFLICT. Not idempotent. Returns {id, bookingTypeId, start, end, attendee, status}. ${TOKEN}`,
    input: createBookingInputSchema,
    output: bookingSchema,
    annotations: reachesOut,
    mcp: { name: "bookings_create", title: "Book a slot" },
    graphql: [{ field: "Mutation.createBooking", args: "input" }],
    run: ({ call, adapters }, input) => adapters.mail.createBooking(call, input),
  }),
  // ---- drive --------------------------------------------------------------------------------
  "files.get": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description: `Metadata of one drive file by id: {id,name,mimeType,size,createdAt,modifiedAt,parentId,webUrl}. ${TOKEN}`,
    input: fileIdInputSchema,
    output: driveFileSchema,
    annotations: read,
    mcp: {
      name: "drive_get",
      title: "Get a drive file's metadata",
      input: fileIdInputSchema.extend({ id: fileIdInputSchema.shape.id.meta({ description: "Drive file id, from drive_search" }) }),
      output: driveFileJson,
    },
    graphql: [{ field: "Query.file", nullWhenNotFound: true }],
    run: ({ loaders }, input) => loaders().file.load(input.id),
  }),
  "files.upload": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Upload a file to the caller's drive: `name` (the file name), `content` (its bytes, base64-encoded; an MCP request is limited by BODY_LIMIT_BYTES, " +
      `3 MiB by default, so about 2 MiB of file), optional \`contentType\` and \`folderId\`. Creates a new file each time. Returns the DriveFile. ${TOKEN}`,
    input: uploadFileInputSchema,
    trpcFormData: true,
    output: driveFileSchema,
    annotations: create,
    mcp: {
      name: "drive_upload",
      title: "Upload a file to the drive",
      input: driveUploadToolInput,
      toInput: (args: z.output<typeof driveUploadToolInput>) => {
        const bytes = new Uint8Array(Buffer.from(args.content, "base64"));
        return {
          file: bytes,
          name: args.name,
          filename: args.name,
          contentType: args.contentType ?? "application/octet-stream",
          size: bytes.byteLength,
          ...(args.folderId === undefined ? {} : { folderId: args.folderId }),
        };
      },
      output: driveFileJson,
    },
    graphql: [{ field: "Mutation.uploadFile" }],
    run: ({ call, adapters }, input) => adapters.drive.upload(call, uploadFile(input)),
  }),
  "files.download": define({
    kind: "query",
    surfaces: ["rest"],
    credential: "access_token",
    description: `A drive file's bytes, streamed from the drive product with their headers (GET /api/v1/files/{id}/content). ${TOKEN}`,
    input: fileIdInputSchema,
    output: z.custom<Download>(),
    annotations: read,
    run: ({ call, adapters }, input) => adapters.drive.download(call, input.id),
  }),
  "files.search": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description: `Search the caller's drive. Returns JSON {files:[{id,name,mimeType,size,createdAt,modifiedAt,parentId,webUrl,score}]}, best first. ${TOKEN}`,
    input: searchFilesInputSchema,
    output: z.array(driveSearchHitSchema),
    annotations: read,
    mcp: {
      name: "drive_search",
      title: "Search drive files",
      input: searchFilesInputSchema.extend({
        query: searchFilesInputSchema.shape.query.meta({ description: "What to look for in file names and contents" }),
      }),
      output: driveSearchJson,
      toResult: (files: unknown[]) => ({ files }),
    },
    graphql: [{ field: "Query.searchFiles" }],
    run: ({ call, adapters }, input) => adapters.drive.search(call, input.query),
  }),
  "files.share": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Share a drive file: creates a link with `permission` view, comment or edit, optionally for `emails` and until `expiresAt` (ISO 8601). " +
      `Whoever gets the link gets that access. Returns {id, fileId, url, permission, expiresAt}. ${TOKEN}`,
    input: createShareInputSchema,
    output: shareSchema,
    annotations: reachesOut,
    mcp: { name: "drive_share", title: "Share a drive file" },
    graphql: [{ field: "Mutation.createShare", args: "input" }],
    run: ({ call, adapters }, input) => adapters.drive.createShare(call, input),
  }),
  // ---- search -------------------------------------------------------------------------------
  "search.query": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Ask the workspace search a question across mail, drive and other sources: {answer, citations:[{title,url,source,snippet}], sessionId}. " +
      `\`sources\` limits where it looks (e.g. ["mail","drive"]). Ask a follow-up with search_chat and the sessionId. ${TOKEN}`,
    input: searchQueryInputSchema,
    output: searchAnswerSchema,
    annotations: read,
    mcp: { name: "search_query", title: "Search the workspace" },
    graphql: [{ field: "Query.search" }],
    run: ({ call, adapters }, input) => adapters.search.query(call, input),
  }),
  "search.chat": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Send a message to the workspace search assistant: `message`, and `sessionId` from an earlier answer to continue that conversation (without one a new session starts). " +
      `The turn is recorded in the session. Returns {sessionId, answer, citations}. ${TOKEN}`,
    input: searchChatInputSchema,
    output: chatAnswerSchema,
    annotations: create,
    mcp: { name: "search_chat", title: "Chat with the workspace search" },
    graphql: [{ field: "Mutation.searchChat", args: "input" }],
    run: ({ call, adapters }, input) => adapters.search.chat(call, input),
  }),
  // ---- meetings -----------------------------------------------------------------------------
  "meetings.get": define({
    kind: "query",
    surfaces: ["graphql"],
    credential: "access_token",
    // The meetings product has no metadata lookup: this checks the caller and the id and returns
    // the reference that GraphQL's transcript and summary hang off.
    description: `A meeting by id, as the reference its transcript and summary hang off. ${TOKEN}`,
    input: meetingIdInputSchema,
    output: meetingSchema.pick({ id: true }),
    annotations: read,
    graphql: [{ field: "Query.meeting" }],
    run: async (_env, input) => ({ id: input.id }),
  }),
  "meetings.create": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "Schedule a video meeting: `title`, `startsAt` (ISO 8601), `durationMinutes` (1-1440), optional `attendees` (emails or {email, name}). " +
      `Not idempotent: calling again schedules another meeting. Returns {id, title, startsAt, durationMinutes, joinUrl, status}. ${TOKEN}`,
    input: createMeetingInputSchema,
    output: meetingSchema,
    annotations: reachesOut,
    mcp: { name: "meetings_create", title: "Schedule a meeting" },
    graphql: [{ field: "Mutation.createMeeting", args: "input" }],
    run: ({ call, adapters }, input) => adapters.meetings.create(call, input),
  }),
  "meetings.transcript": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description: `The transcript of a meeting that took place: {meetingId, segments:[{speaker,startMs,endMs,text}]}. A meeting without one (not held yet) is NOT_FOUND. ${TOKEN}`,
    input: meetingIdInputSchema,
    output: transcriptSchema,
    annotations: read,
    mcp: { name: "meetings_transcript", title: "Read a meeting's transcript" },
    graphql: [{ field: "Meeting.transcript", fromParent: (meeting: { id: string }) => ({ id: meeting.id }), nullWhenNotFound: true }],
    run: ({ loaders }, input) => loaders().transcript.load(input.id),
  }),
  "meetings.summary": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description: `The summary of a meeting that took place: {meetingId, summary, actionItems:[{text, owner}]}. A meeting without one (not held yet) is NOT_FOUND. ${TOKEN}`,
    input: meetingIdInputSchema,
    output: summarySchema,
    annotations: read,
    mcp: { name: "meetings_summary", title: "Read a meeting's summary" },
    graphql: [{ field: "Meeting.summary", fromParent: (meeting: { id: string }) => ({ id: meeting.id }), nullWhenNotFound: true }],
    run: ({ loaders }, input) => loaders().summary.load(input.id),
  }),
  // ---- enterprise (the credential's tenant) -------------------------------------------------
  "enterprise.dataQuery": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description:
      'Ask the tenant\'s business data a question in plain language (e.g. "revenue by customer this quarter"); it only reads. ' +
      `Returns {columns:[{name,type}], rows:[[…]], answer}. ${TENANT} ${TOKEN}`,
    input: dataQueryInputSchema,
    output: dataQueryResultSchema,
    annotations: read,
    mcp: { name: "data_query", title: "Query the tenant's data" },
    graphql: [{ field: "Query.dataQuery" }],
    run: ({ call, adapters }, input) => adapters.enterprise.dataQuery(call, input.question),
  }),
  "enterprise.invoices": define({
    kind: "query",
    surfaces: ALL,
    credential: "access_token",
    description:
      "The tenant's invoices: {data:[{id,number,customer:{id,name},currency,total,status,issuedAt,dueAt}], nextCursor}; `status` filters (e.g. paid, open, overdue). " +
      `${PAGING} ${TENANT} ${TOKEN}`,
    input: invoicesInputSchema,
    optionalInput: true,
    output: listOf(invoiceSchema),
    annotations: read,
    mcp: { name: "invoices_list", title: "List invoices" },
    graphql: [{ field: "Query.invoices", args: "connection" }],
    run: ({ call, adapters }, input) => adapters.enterprise.invoices(call, input),
  }),
  "workflows.run": define({
    kind: "mutation",
    surfaces: ALL,
    credential: "access_token",
    description:
      "RUNS a tenant workflow now (e.g. wf_invoice_reminder), with `input` (any JSON) passed to it, and returns {runId, workflowId, status, startedAt} without waiting for it to finish. " +
      "A workflow may send messages, change records or call other systems, and cannot be undone from here. " +
      `Not idempotent: calling again starts another run. ${TENANT} ${TOKEN}`,
    input: runWorkflowInputSchema,
    output: workflowRunSchema,
    // What a workflow does is the tenant's: it may change or delete things.
    annotations: { ...reachesOut, destructiveHint: true },
    mcp: { name: "workflows_run", title: "Run a workflow" },
    graphql: [{ field: "Mutation.runWorkflow" }],
    run: ({ call, adapters }, input) => adapters.enterprise.runWorkflow(call, input.id, input.input),
  }),
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type AnyOperation = OperationDef<z.ZodType, z.ZodType, "query" | "mutation">;

export const operationNames = Object.keys(operations) as OperationName[];

/** One operation by name, typed loosely (for the generic runner and the surfaces' loops). */
export const operationOf = (name: OperationName): AnyOperation => operations[name] as unknown as AnyOperation;

/** The operations offered on `surface`, in table order. */
export const operationsOn = (surface: OperationSurface): [OperationName, AnyOperation][] =>
  operationNames.filter((name) => operationOf(name).surfaces.includes(surface)).map((name) => [name, operationOf(name)]);
