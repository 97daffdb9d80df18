// Mail, calendar and bookings resolvers: one service call per field; Message.thread through the
// request's DataLoader.
import { upstreamConnection } from "./connection.ts";
import { defined, orNull } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

export const mailResolvers: Resolvers = {
  Query: {
    messages: async (_root, { first, after, folder, q }, { services, request }) => {
      const ctx = await request();
      return upstreamConnection({ first, after }, (cursor, limit) =>
        services.products.messages.list(ctx, { ...defined({ folder, q }), limit, ...(cursor ? { cursor } : {}) }),
      );
    },
    thread: async (_root, { id }, { services, request }) => orNull(services.products.messages.thread(await request(), { id })),
    calendarEvents: async (_root, { first, after, from, to }, { services, request }) => {
      const ctx = await request();
      return upstreamConnection({ first, after }, (cursor, limit) =>
        services.products.calendar.events(ctx, { ...defined({ from, to }), limit, ...(cursor ? { cursor } : {}) }),
      );
    },
  },
  Mutation: {
    sendMessage: async (_root, { input }, { services, request }) =>
      services.products.messages.send(await request(), defined(input) as never),
    createDraft: async (_root, { input }, { services, request }) =>
      services.products.messages.createDraft(await request(), defined(input) as never),
    createBooking: async (_root, { input }, { services, request }) =>
      services.products.bookings.create(await request(), defined(input) as never),
  },
  Message: {
    thread: async (message, _args, { services, request }) =>
      orNull(services.products.messages.thread(await request(), { id: message.threadId })),
  },
};
