// Documents resolvers: one service call each.
import { decodeCursor, encodeCursor } from "../src/services/documents.ts";
import { checkFirst, toConnection } from "./connection.ts";
import type { Resolvers } from "./types.generated.ts";

/** `after` checked in GraphQL's own words (the service checks it again as its `cursor`). */
function checkAfter(after: string): string {
  decodeCursor(after, "after");
  return after;
}

export const documentsResolvers: Resolvers = {
  Query: {
    documents: async (_root, args, { services, request }) => {
      const page = await services.documents.list(await request(), {
        ...(args.query == null ? {} : { query: args.query }),
        ...(args.first == null ? {} : { limit: checkFirst(args.first) }),
        ...(args.after == null ? {} : { cursor: checkAfter(args.after) }),
      });
      return toConnection({ items: page.documents, cursorOf: (d) => encodeCursor(d.id), nextCursor: page.nextCursor });
    },
    document: async (_root, { id }, { services, request }) => services.documents.get(await request(), { id }),
  },
  Mutation: {
    createDocument: async (_root, { input }, { services, request }) => {
      const { document } = await services.documents.create(await request(), {
        name: input.name,
        markdown: input.markdown,
        ...(input.idempotencyKey == null ? {} : { idempotencyKey: input.idempotencyKey }),
      });
      return document;
    },
  },
  Document: {
    // Lazy: a list that does not ask for text reads none.
    text: async (document, { maxChars }, { services, request }) => {
      const { text, truncated, totalChars } = await services.documents.read(await request(), {
        id: document.id,
        ...(maxChars == null ? {} : { maxChars }),
      });
      return { text, truncated, totalChars };
    },
  },
};
