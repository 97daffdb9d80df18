// Product operations (mail, calendar, bookings, drive, search, meetings, the tenant's enterprise
// endpoints) in the same style as documents and spreadsheets: free functions over the product
// backend (./products.ts: one adapter per product, per-request loaders), composed in one factory.
// Each method's input type is its row schema's output: the runner has validated it, once. Every
// call goes upstream as the caller (its access token, requireAccessToken).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import type * as contract from "../contract/products.ts";
import { requireAccessToken, type ProductBackend } from "./products.ts";

type Ctx = RequestContext;
/** What the row's input schema gives the service once the runner has parsed it. */
type In<K extends keyof typeof contract> = (typeof contract)[K] extends z.ZodType ? z.output<(typeof contract)[K]> : never;

/**
 * The drive file a caller uploads: a filename and type from the input, else the File's own. A
 * File that is not a Blob to this process (yoga's ponyfill, from a GraphQL Upload) is streamed.
 */
function uploadFile(input: In<"uploadFileInputSchema">) {
  const { file, name, folderId, filename, contentType } = input;
  const asFile = file as Partial<File>;
  const ponyfill = !(file instanceof Blob) && typeof asFile.stream === "function";
  return {
    name,
    folderId,
    file: {
      data: ponyfill ? (asFile.stream as () => ReadableStream<Uint8Array>).call(file) : file,
      filename: filename ?? (typeof asFile.name === "string" && asFile.name ? asFile.name : (name ?? "upload")),
      contentType: contentType ?? (typeof asFile.type === "string" && asFile.type ? asFile.type : "application/octet-stream"),
      size: input.size ?? (ponyfill && typeof asFile.size === "number" ? asFile.size : undefined),
    },
  };
}
export type ProductsService = ReturnType<typeof createProductsService>;

export function createProductsService({ adapters, loaders }: ProductBackend) {
  const { mail, drive, search, meetings, enterprise } = adapters;
  const call = requireAccessToken;
  return {
    listMessages: (ctx: Ctx, input: In<"listMessagesInputSchema">) => mail.listMessages(call(ctx), input),
    thread: (ctx: Ctx, input: In<"threadInputSchema">) => loaders(ctx).thread.load(input.id),
    sendMessage: (ctx: Ctx, input: In<"sendMessageInputSchema">) => mail.sendMessage(call(ctx), input),
    createDraft: (ctx: Ctx, input: In<"createDraftInputSchema">) => mail.createDraft(call(ctx), input),
    listEvents: (ctx: Ctx, input: In<"calendarEventsInputSchema">) => mail.listEvents(call(ctx), input),
    createBooking: (ctx: Ctx, input: In<"createBookingInputSchema">) => mail.createBooking(call(ctx), input),
    getFile: (ctx: Ctx, input: In<"fileIdInputSchema">) => loaders(ctx).file.load(input.id),
    upload: (ctx: Ctx, input: In<"uploadFileInputSchema">) => drive.upload(call(ctx), uploadFile(input)),
    download: (ctx: Ctx, input: In<"fileIdInputSchema">) => drive.download(call(ctx), input.id),
    searchFiles: async (ctx: Ctx, input: In<"searchFilesInputSchema">) => ({ files: await drive.search(call(ctx), input.query) }),
    createShare: (ctx: Ctx, input: In<"createShareInputSchema">) => drive.createShare(call(ctx), input),
    searchQuery: (ctx: Ctx, input: In<"searchQueryInputSchema">) => search.query(call(ctx), input),
    searchChat: (ctx: Ctx, input: In<"searchChatInputSchema">) => search.chat(call(ctx), input),
    createMeeting: (ctx: Ctx, input: In<"createMeetingInputSchema">) => meetings.create(call(ctx), input),
    transcript: (ctx: Ctx, input: In<"meetingIdInputSchema">) => loaders(ctx).transcript.load(input.id),
    summary: (ctx: Ctx, input: In<"meetingIdInputSchema">) => loaders(ctx).summary.load(input.id),
    dataQuery: (ctx: Ctx, input: In<"dataQueryInputSchema">) => enterprise.dataQuery(call(ctx), input.question),
    invoices: (ctx: Ctx, input: In<"invoicesInputSchema">) => enterprise.invoices(call(ctx), input),
    runWorkflow: (ctx: Ctx, input: In<"runWorkflowInputSchema">) => enterprise.runWorkflow(call(ctx), input.id, input.input),
  };
}
