// Mail product (docs/api.md "Upstreams"): messages, threads, drafts, calendar events, bookings.
import { z } from "zod";
import { listOf, optional, type Page, type PageQuery } from "./common.ts";
import { path, type UpstreamBase } from "./upstream/base.ts";
import type { UpstreamCall, UpstreamClient } from "./upstream/client.ts";

export const addressSchema = z.object({ name: optional(z.string()), email: z.string() });

export const messageSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  folder: z.string(),
  from: addressSchema,
  to: z.array(addressSchema),
  cc: z.array(addressSchema),
  subject: z.string(),
  snippet: z.string(),
  receivedAt: z.string(),
  unread: z.boolean(),
  hasAttachments: z.boolean(),
});

export const threadMessageSchema = messageSchema.extend({ body: z.string() });

export const threadSchema = z.object({ id: z.string(), subject: z.string(), messages: z.array(threadMessageSchema) });

export const draftSchema = z.object({
  id: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
  generated: z.boolean(),
});

export const calendarEventSchema = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  location: optional(z.string()),
  attendees: z.array(z.object({ email: z.string(), name: optional(z.string()), response: z.string() })),
  meetingUrl: optional(z.string()),
});

export const bookingSchema = z.object({
  id: z.string(),
  bookingTypeId: z.string(),
  start: z.string(),
  end: z.string(),
  attendee: z.object({ name: z.string(), email: z.string() }),
  status: z.string(),
});

const messageListSchema = listOf(messageSchema);
const eventListSchema = listOf(calendarEventSchema);

export type Address = z.output<typeof addressSchema>;
export type Message = z.output<typeof messageSchema>;
export type ThreadMessage = z.output<typeof threadMessageSchema>;
export type Thread = z.output<typeof threadSchema>;
export type Draft = z.output<typeof draftSchema>;
export type CalendarEvent = z.output<typeof calendarEventSchema>;
export type Booking = z.output<typeof bookingSchema>;

export interface ListMessagesQuery extends PageQuery {
  folder?: string | undefined;
  q?: string | undefined;
}

export interface SendMessageBody {
  to: string[];
  cc?: string[] | undefined;
  bcc?: string[] | undefined;
  subject: string;
  body: string;
  html?: boolean | string | undefined;
  threadId?: string | undefined;
}

export interface CreateDraftBody {
  to?: string[] | undefined;
  subject?: string | undefined;
  body?: string | undefined;
  threadId?: string | undefined;
  generate?: { instructions: string } | undefined;
}

export interface EventsQuery extends PageQuery {
  from?: string | undefined;
  to?: string | undefined;
}

export interface CreateBookingBody {
  bookingTypeId: string;
  start: string;
  attendee: { name: string; email: string };
  notes?: string | undefined;
}

export interface MailAdapter {
  listMessages(call: UpstreamCall, query: ListMessagesQuery): Promise<Page<Message>>;
  sendMessage(call: UpstreamCall, body: SendMessageBody): Promise<Message>;
  getThread(call: UpstreamCall, id: string): Promise<Thread>;
  createDraft(call: UpstreamCall, body: CreateDraftBody): Promise<Draft>;
  listEvents(call: UpstreamCall, query: EventsQuery): Promise<Page<CalendarEvent>>;
  createBooking(call: UpstreamCall, body: CreateBookingBody): Promise<Booking>;
}

export function createMailAdapter(upstream: UpstreamClient, base: () => UpstreamBase): MailAdapter {
  const product = "mail" as const;
  return {
    listMessages: async (call, { folder, q, cursor, limit }) =>
      upstream.json(call, {
        product,
        base: base(),
        method: "GET",
        path: "/email/v1/messages",
        query: { folder, q, cursor, limit },
        schema: messageListSchema,
      }),
    sendMessage: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/email/v1/messages", body, schema: messageSchema }),
    getThread: async (call, id) =>
      upstream.json(call, { product, base: base(), method: "GET", path: path`/email/v1/threads/${id}`, schema: threadSchema }),
    createDraft: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/email/v1/drafts", body, schema: draftSchema }),
    listEvents: async (call, { from, to, cursor, limit }) =>
      upstream.json(call, {
        product,
        base: base(),
        method: "GET",
        path: "/email/v1/calendar/events",
        query: { from, to, cursor, limit },
        schema: eventListSchema,
      }),
    createBooking: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/email/v1/bookings", body, schema: bookingSchema }),
  };
}
