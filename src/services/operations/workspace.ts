// Rows across documents and spreadsheets: what a share link reads (either kind), and the trash
// that lists, restores and purges both.
import { deletedSchema, documentSummarySchema, listTrashInputSchema, sharedContentInputSchema } from "../../contract/documents.ts";
import { storedDownloadSchema } from "../../contract/files.ts";
import {
  readSharedAnyInputSchema,
  sharedReadSchema,
  spreadsheetSchema,
  trashRefInputSchema,
  workspaceTrashSchema,
} from "../../contract/spreadsheets.ts";
import { z } from "zod";
import { readInTurn } from "../../core/read-budget.ts";
import { define, read, removes, replaces } from "./types.ts";

export const workspaceOperations = {
  "shared.read": define({
    title: "Read what a share link names",
    kind: "query",
    auth: "share_token",
    description:
      "A shared document's current text (or markdown: `format`, `maxChars`), or a shared spreadsheet's record and the values of `range` " +
      '(default its first sheet\'s used range; at most `maxCells`) as {kind:"spreadsheet", spreadsheet, range, values, truncated}. ' +
      "The token in the path is the credential.",
    input: readSharedAnyInputSchema,
    output: sharedReadSchema,
    annotations: read,
    trpc: false,
    rest: { method: "GET", path: "/api/v1/shared/{token}", etag: true, noStore: true },
    run: ({ shared, ctx }, input) => readInTurn(ctx, input.maxChars, () => shared.read(ctx, input)),
  }),
  "shared.download": define({
    title: "Download what a share link names",
    kind: "query",
    auth: "share_token",
    description: "The current .docx of a shared document, or the .xlsx of a shared spreadsheet; the token in the path is the credential.",
    input: sharedContentInputSchema,
    output: storedDownloadSchema,
    annotations: read,
    trpc: false,
    rest: { method: "GET", path: "/api/v1/shared/{token}/content", response: "download", noStore: true },
    run: ({ shared, ctx }, input) => shared.download(ctx, input),
  }),
  "trash.list": define({
    title: "List deleted documents and spreadsheets",
    kind: "query",
    auth: "workspace:read",
    description:
      "The caller's documents and spreadsheets in the trash (kept 30 days), newest first, each with `kind` (document or spreadsheet) and deletedAt; " +
      "the kinds the credential's scopes can read. Page with `limit` (1-100, default 50) and the `cursor` from nextCursor.",
    input: listTrashInputSchema,
    optionalInput: true,
    output: workspaceTrashSchema,
    annotations: read,
    trpc: false,
    rest: { method: "GET", path: "/api/v1/trash" },
    run: ({ trash, ctx }, input) => trash.list(ctx, input),
  }),
  "trash.restore": define({
    title: "Restore a deleted document or spreadsheet",
    kind: "mutation",
    auth: "workspace:write",
    description: "Bring a document (doc_…) or a spreadsheet (wb_…) back from the trash. Returns its record.",
    input: trashRefInputSchema,
    output: z.union([documentSummarySchema, spreadsheetSchema]),
    annotations: replaces,
    trpc: false,
    rest: { method: "POST", path: "/api/v1/trash/{id}/restore", body: "json?", etag: true },
    run: ({ trash, ctx }, input) => trash.restore(ctx, input),
  }),
  "trash.purge": define({
    title: "Delete a document or spreadsheet for good",
    kind: "mutation",
    auth: "workspace:write",
    description: "Delete a document or spreadsheet in the trash for good, with its versions and share links. It cannot be undone.",
    input: trashRefInputSchema,
    output: deletedSchema,
    annotations: removes,
    trpc: false,
    rest: { method: "DELETE", path: "/api/v1/trash/{id}", status: 204, response: "empty" },
    run: async ({ trash, ctx }, input) => {
      await trash.purge(ctx, input);
      return { id: input.id, deleted: true as const };
    },
  }),
};
