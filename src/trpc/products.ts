// tRPC procedures for the products (CONTRACT §7): each is one service call. Inputs are typed by
// the zod schemas the service validates with, after authentication (see unvalidated).
import { z } from "zod";
import {
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
} from "../products/schemas.ts";
import { GatewayError } from "../core/errors.ts";
import { procedure, router, unvalidated } from "./init.ts";

/** files.upload: multipart FormData with `file` and optional `name`, `folderId`. */
const uploadFormSchema = z.instanceof(FormData);

const formString = (form: FormData, field: string): string | undefined => {
  const value = form.get(field);
  if (value === null) return undefined;
  if (typeof value !== "string") throw new GatewayError("BAD_USER_INPUT", `${field}: must be a text field`);
  return value;
};

export const productRouters = {
  messages: router({
    list: procedure.input(unvalidated(listMessagesInputSchema.optional())).query(async ({ ctx, input }) => ctx.services.products.messages.list(await ctx.request(), input ?? {})),
    send: procedure.input(unvalidated(sendMessageInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.messages.send(await ctx.request(), input)),
    thread: procedure.input(unvalidated(threadInputSchema)).query(async ({ ctx, input }) => ctx.services.products.messages.thread(await ctx.request(), input)),
    createDraft: procedure.input(unvalidated(createDraftInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.messages.createDraft(await ctx.request(), input)),
  }),
  calendar: router({
    events: procedure.input(unvalidated(calendarEventsInputSchema.optional())).query(async ({ ctx, input }) => ctx.services.products.calendar.events(await ctx.request(), input ?? {})),
  }),
  bookings: router({
    create: procedure.input(unvalidated(createBookingInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.bookings.create(await ctx.request(), input)),
  }),
  files: router({
    get: procedure.input(unvalidated(fileIdInputSchema)).query(async ({ ctx, input }) => ctx.services.products.files.get(await ctx.request(), input)),
    upload: procedure.input(unvalidated(uploadFormSchema)).mutation(async ({ ctx, input }) => {
      const request = await ctx.request();
      if (!(input instanceof FormData)) throw new GatewayError("BAD_USER_INPUT", "files.upload takes FormData (multipart/form-data)");
      const file = input.get("file");
      if (!(file instanceof Blob)) throw new GatewayError("BAD_USER_INPUT", "file: a file part is required");
      const name = formString(input, "name");
      const folderId = formString(input, "folderId");
      return ctx.services.products.files.upload(request, {
        file,
        ...(name === undefined ? {} : { name }),
        ...(folderId === undefined ? {} : { folderId }),
      });
    }),
    search: procedure.input(unvalidated(searchFilesInputSchema)).query(async ({ ctx, input }) => ctx.services.products.files.search(await ctx.request(), input)),
    share: procedure.input(unvalidated(createShareInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.files.share(await ctx.request(), input)),
  }),
  search: router({
    query: procedure.input(unvalidated(searchQueryInputSchema)).query(async ({ ctx, input }) => ctx.services.products.search.query(await ctx.request(), input)),
    chat: procedure.input(unvalidated(searchChatInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.search.chat(await ctx.request(), input)),
  }),
  meetings: router({
    create: procedure.input(unvalidated(createMeetingInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.meetings.create(await ctx.request(), input)),
    transcript: procedure.input(unvalidated(meetingIdInputSchema)).query(async ({ ctx, input }) => ctx.services.products.meetings.transcript(await ctx.request(), input)),
    summary: procedure.input(unvalidated(meetingIdInputSchema)).query(async ({ ctx, input }) => ctx.services.products.meetings.summary(await ctx.request(), input)),
  }),
  enterprise: router({
    dataQuery: procedure.input(unvalidated(dataQueryInputSchema)).query(async ({ ctx, input }) => ctx.services.products.enterprise.dataQuery(await ctx.request(), input)),
    invoices: procedure.input(unvalidated(invoicesInputSchema.optional())).query(async ({ ctx, input }) => ctx.services.products.enterprise.invoices(await ctx.request(), input ?? {})),
  }),
  workflows: router({
    run: procedure.input(unvalidated(runWorkflowInputSchema)).mutation(async ({ ctx, input }) => ctx.services.products.workflows.run(await ctx.request(), input)),
  }),
};
