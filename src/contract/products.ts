// zod INPUT schemas of the product operations (mail, drive, search, meetings, enterprise):
// the service layer validates with these, and GraphQL, tRPC and MCP share them. Every object is
// strict: an unknown field is BAD_USER_INPUT naming it and the closest known one.
import { Readable } from "node:stream";
import { z } from "zod";
import { MAX_PAGE_SIZE as PRODUCT_MAX_PAGE_SIZE } from "../core/paging.ts";
import { strictObject } from "../core/strict-object.ts";
import { maxCharsSchema } from "./documents.ts";
import { isSafeSegment } from "../../adapters/upstream/base.ts";
import { isValidContentType, type UploadData } from "../../adapters/upstream/multipart.ts";

/** The media-type check the upstream client applies, for surfaces that take uploads (they import no adapter). */
export { isValidContentType };

/** Product lists obey the gateway's one page-size bound (src/core/paging.ts). */
export { MAX_PAGE_SIZE as PRODUCT_MAX_PAGE_SIZE } from "../core/paging.ts";

/** Accepts numbers, and numeric strings from query strings; rejects "abc", "1.5", "". */
const integer = (min: number, max: number) =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max));

/** An upstream id: opaque, but one path segment (no `/`, `\`, `.`/`..`, control characters). */
export const upstreamIdSchema = z
  .string()
  .min(1)
  .max(256)
  .refine(isSafeSegment, "must not contain '/', '\\', control characters or be '.' or '..'");

const email = z.email().max(320);
const emails = z.array(email).max(100);
const dateTime = z.iso.datetime({ offset: true });
const text = (max: number) => z.string().max(max);
const pageFields = {
  limit: integer(1, PRODUCT_MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `1–${PRODUCT_MAX_PAGE_SIZE}; the upstream's default when absent` }),
  cursor: z.string().min(1).max(2048).optional().meta({ description: "Opaque, from nextCursor" }),
};

// ---- mail -------------------------------------------------------------------------------

export const listMessagesInputSchema = strictObject({
  folder: text(128).min(1).optional(),
  q: text(1000).optional(),
  ...pageFields,
}).meta({ id: "ListMessagesInput" });

export const sendMessageInputSchema = strictObject({
  to: emails.min(1, "to: at least one recipient"),
  cc: emails.optional(),
  bcc: emails.optional(),
  subject: text(998),
  body: text(1_000_000),
  html: z
    .union([z.boolean(), text(2_000_000)])
    .optional()
    .meta({ description: "true when `body` is HTML, or an HTML alternative of the plain-text body" }),
  threadId: upstreamIdSchema.optional(),
}).meta({ id: "SendMessageInput" });

export const threadInputSchema = strictObject({ id: upstreamIdSchema }).meta({ id: "ThreadInput" });

export const createDraftInputSchema = strictObject({
  to: emails.optional(),
  subject: text(998).optional(),
  body: text(1_000_000).optional(),
  threadId: upstreamIdSchema.optional(),
  generate: strictObject({ instructions: z.string().trim().min(1).max(4000) })
    .optional()
    .meta({ description: "Ask the upstream to write the draft from these instructions" }),
}).meta({ id: "CreateDraftInput" });

export const calendarEventsInputSchema = strictObject({ from: dateTime.optional(), to: dateTime.optional(), ...pageFields })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), { message: "must not be before from", path: ["to"] })
  .meta({ id: "CalendarEventsInput" });

export const createBookingInputSchema = strictObject({
  bookingTypeId: upstreamIdSchema,
  start: dateTime,
  attendee: strictObject({ name: z.string().trim().min(1).max(255), email }),
  notes: text(5000).optional(),
}).meta({ id: "CreateBookingInput" });

// ---- drive ------------------------------------------------------------------------------

export const fileIdInputSchema = strictObject({ id: upstreamIdSchema }).meta({ id: "FileIdInput" });

/** files.read (MCP drive_read): a drive file's text, bounded as documents.read's. */
export const readDriveFileInputSchema = strictObject({
  id: upstreamIdSchema.meta({ description: "Drive file id, from drive_search" }),
  maxChars: maxCharsSchema,
});

export const driveFileTextSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  format: z
    .enum(["text", "docx", "xlsx"])
    .meta({ description: "text: the file as it is (plain text, markdown, CSV); docx: its extracted text; xlsx: its first sheet as CSV" }),
  text: z.string(),
  truncated: z.boolean(),
  totalChars: z.number().int(),
});

function isUploadData(value: unknown): value is UploadData {
  if (value === null || typeof value !== "object") return false;
  return (
    value instanceof Uint8Array ||
    (typeof Blob !== "undefined" && value instanceof Blob) ||
    value instanceof Readable ||
    // A GraphQL Upload: yoga's ponyfill File is no Blob to this process, but reads like one.
    (typeof (value as Blob).stream === "function" && typeof (value as Blob).arrayBuffer === "function") ||
    typeof (value as ReadableStream).getReader === "function" ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function"
  );
}

/**
 * `file` is what the bytes come from: a File/Blob (tRPC FormData, GraphQL Upload), a Node
 * Readable or async iterable (a request body), a web ReadableStream, or a Uint8Array. It is
 * streamed upstream, never buffered. `filename`/`contentType` default to the File's own.
 */
export const uploadFileInputSchema = strictObject({
  file: z.custom<UploadData>(isUploadData, "expected a file or a byte stream"),
  name: z.string().trim().min(1).max(255).optional().meta({ description: "Name to store the file under" }),
  folderId: upstreamIdSchema.optional(),
  filename: z.string().min(1).max(255).optional(),
  contentType: z.string().refine(isValidContentType, "not a valid media type").optional(),
  size: z.number().int().nonnegative().optional().meta({ description: "Declared size in bytes, when known" }),
}).meta({ id: "UploadFileInput" });

export const searchFilesInputSchema = strictObject({ query: z.string().trim().min(1).max(1000) }).meta({ id: "SearchFilesInput" });

export const createShareInputSchema = strictObject({
  fileId: upstreamIdSchema,
  permission: z.enum(["view", "comment", "edit"]),
  emails: emails.optional(),
  expiresAt: dateTime.optional(),
}).meta({ id: "CreateShareInput" });

// ---- search -----------------------------------------------------------------------------

export const searchQueryInputSchema = strictObject({
  query: z.string().trim().min(1).max(2000),
  sources: z.array(z.string().min(1).max(64)).max(20).optional(),
}).meta({ id: "SearchQueryInput" });

export const searchChatInputSchema = strictObject({
  sessionId: z.string().min(1).max(256).optional(),
  message: z.string().trim().min(1).max(8000),
}).meta({ id: "SearchChatInput" });

// ---- meetings ---------------------------------------------------------------------------

export const createMeetingInputSchema = strictObject({
  title: z.string().trim().min(1).max(255),
  startsAt: dateTime,
  durationMinutes: integer(1, 24 * 60),
  attendees: z
    .array(z.union([email, strictObject({ email, name: z.string().max(255).optional() })]))
    .max(100)
    .optional()
    .meta({ description: "Email addresses, or {email, name?}" }),
}).meta({ id: "CreateMeetingInput" });

export const meetingIdInputSchema = strictObject({ id: upstreamIdSchema }).meta({ id: "MeetingIdInput" });

// ---- enterprise (tenant) ----------------------------------------------------------------

export const dataQueryInputSchema = strictObject({ question: z.string().trim().min(1).max(4000) }).meta({ id: "DataQueryInput" });

export const invoicesInputSchema = strictObject({ status: text(64).min(1).optional(), ...pageFields }).meta({ id: "InvoicesInput" });

export const runWorkflowInputSchema = strictObject({
  id: upstreamIdSchema,
  input: z.unknown().optional().meta({ description: "Any JSON; passed to the workflow" }),
}).meta({ id: "RunWorkflowInput" });

export type ListMessagesInput = z.input<typeof listMessagesInputSchema>;
export type SendMessageInput = z.input<typeof sendMessageInputSchema>;
export type ThreadInput = z.input<typeof threadInputSchema>;
export type CreateDraftInput = z.input<typeof createDraftInputSchema>;
export type CalendarEventsInput = z.input<typeof calendarEventsInputSchema>;
export type CreateBookingInput = z.input<typeof createBookingInputSchema>;
export type FileIdInput = z.input<typeof fileIdInputSchema>;
export type UploadFileInput = z.input<typeof uploadFileInputSchema>;
export type SearchFilesInput = z.input<typeof searchFilesInputSchema>;
export type CreateShareInput = z.input<typeof createShareInputSchema>;
export type SearchQueryInput = z.input<typeof searchQueryInputSchema>;
export type SearchChatInput = z.input<typeof searchChatInputSchema>;
export type CreateMeetingInput = z.input<typeof createMeetingInputSchema>;
export type MeetingIdInput = z.input<typeof meetingIdInputSchema>;
export type DataQueryInput = z.input<typeof dataQueryInputSchema>;
export type InvoicesInput = z.input<typeof invoicesInputSchema>;
export type RunWorkflowInput = z.input<typeof runWorkflowInputSchema>;
