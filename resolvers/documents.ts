// Documents resolvers: one service call each. Versions and shares are in document-history.ts.
import { GatewayError } from "../src/core/errors.ts";
import type { DocumentSummary, DocumentText } from "../src/contract/documents.ts";
import { decodeCursor, encodeCursor } from "../src/services/documents.ts";
import { checkFirst, toConnection } from "./connection.ts";
import { uploadedDocx } from "./docx-upload.ts";
import { defined } from "./nullable.ts";
import type { DocumentFormat, Resolvers } from "./types.generated.ts";

/** A document as resolvers get it; Query.trash's also carry deletedAt. */
export type DocumentParent = DocumentSummary & { deletedAt?: string };

/** `after` checked in GraphQL's own words (the service checks it again as its `cursor`). */
function checkAfter(after: string): string {
  decodeCursor(after, "after");
  return after;
}

/** GraphQL's enum in the service's words (text | markdown); null is the default, TEXT. */
export const serviceFormat = (format: DocumentFormat | null | undefined): "text" | "markdown" =>
  format === "MARKDOWN" ? "markdown" : "text";

/** A text read's arguments as the service takes them. */
export const textArgs = (args: { maxChars?: number | null; format?: DocumentFormat | null }) => ({
  ...(args.maxChars == null ? {} : { maxChars: args.maxChars }),
  format: serviceFormat(args.format),
});

/** A documents page's arguments as the service takes them. */
const pageArgs = (args: { first?: number | null; after?: string | null }) => ({
  ...(args.first == null ? {} : { limit: checkFirst(args.first) }),
  ...(args.after == null ? {} : { cursor: checkAfter(args.after) }),
});

export const documentsResolvers: Resolvers = {
  Query: {
    documents: async (_root, args, { services, request }) => {
      const page = await services.documents.list(await request(), {
        ...(args.query == null ? {} : { query: args.query }),
        ...pageArgs(args),
      });
      return toConnection({ items: page.documents, cursorOf: (d) => encodeCursor(d.id), nextCursor: page.nextCursor });
    },
    document: async (_root, { id }, { services, request }) => services.documents.get(await request(), { id }),
    trash: async (_root, args, { services, request }) => {
      const page = await services.documents.trash(await request(), pageArgs(args));
      return toConnection({ items: page.documents, cursorOf: (d) => encodeCursor(d.id), nextCursor: page.nextCursor });
    },
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
    importDocument: async (_root, { file, name, idempotencyKey }, { services, request }) =>
      (await services.documents.import(await request(), defined({ name, idempotencyKey }), await uploadedDocx(file))).document,
    // A file is new content from a .docx; otherwise markdown and/or name, as the service's update takes them.
    updateDocument: async (_root, { input: { file, ...input } }, { services, request }) => {
      if (file == null) return services.documents.update(await request(), defined(input));
      if (input.markdown != null) throw new GatewayError("BAD_USER_INPUT", "input: send markdown or file, not both");
      const { id, name, expectedVersion } = defined(input);
      return services.documents.updateFromDocx(await request(), defined({ id, name, expectedVersion }), await uploadedDocx(file));
    },
    deleteDocument: async (_root, args, { services, request }) => {
      await services.documents.delete(await request(), defined(args));
      return true;
    },
    restoreDocument: async (_root, { id }, { services, request }) => services.documents.restore(await request(), { id }),
    purgeDocument: async (_root, { id }, { services, request }) => {
      await services.documents.purge(await request(), { id });
      return true;
    },
  },
  Document: {
    // Lazy: a list that does not ask for text reads none.
    text: async (document, args, { services, request }) => services.documents.read(await request(), { id: document.id, ...textArgs(args) }),
  },
  DocumentText: {
    format: (body: DocumentText) => (body.format === "markdown" ? "MARKDOWN" : "TEXT"),
  },
};
