// A document's versions and share links: one service call per field.
import type { DocumentVersion } from "../src/contract/documents.ts";
import { decodeVersionCursor, encodeVersionCursor } from "../src/services/document-access.ts";
import { checkFirst, toConnection } from "./connection.ts";
import { textArgs } from "./documents.ts";
import { defined } from "./nullable.ts";
import type { DocumentVersionSource, Resolvers } from "./types.generated.ts";

/** A version as resolvers get it: with its document's id, for its text field. */
export type DocumentVersionParent = DocumentVersion & { documentId: string };

export const documentHistoryResolvers: Resolvers = {
  Query: {
    documentVersion: async (_root, { id, version }, { services, request }) => {
      const found = await services.documents.version(await request(), { id, version });
      return found ? { ...found, documentId: id } : null;
    },
  },
  Mutation: {
    restoreDocumentVersion: async (_root, args, { services, request }) => services.documents.restoreVersion(await request(), defined(args)),
    createDocumentShare: async (_root, args, { services, request }) => services.documents.share(await request(), defined(args)),
    revokeDocumentShare: async (_root, args, { services, request }) => {
      await services.documents.revokeShare(await request(), args);
      return true;
    },
  },
  Document: {
    versions: async (document, args, { services, request }) => {
      // `after` checked in GraphQL's own words (the service checks it again as its `cursor`).
      if (args.after != null) decodeVersionCursor(args.after, "after");
      const page = await services.documents.versions(await request(), {
        id: document.id,
        ...(args.first == null ? {} : { limit: checkFirst(args.first) }),
        ...(args.after == null ? {} : { cursor: args.after }),
      });
      return toConnection({
        items: page.versions.map((v) => ({ ...v, documentId: document.id })),
        cursorOf: (v) => encodeVersionCursor(v.version),
        nextCursor: page.nextCursor,
      });
    },
    shares: async (document, _args, { services, request }) =>
      (await services.documents.shares(await request(), { id: document.id })).shares,
  },
  DocumentVersion: {
    source: (v) => v.source.toUpperCase() as DocumentVersionSource,
    text: async (v, args, { services, request }) =>
      services.documents.readVersion(await request(), { id: v.documentId, version: v.version, ...textArgs(args) }),
  },
};
