// Documents procedures (docs/api.md "tRPC"): each is one service call. Inputs are typed by the shared zod
// schemas and validated by the service, after authentication and the scope check (see unvalidated).
// documents.import, and documents.update with a file, take FormData (multipart, streamed to disk
// first: src/trpc/surface.ts).
import {
  createDocumentInputSchema,
  createShareInputSchema,
  deleteDocumentInputSchema,
  documentRefInputSchema,
  getDocumentInputSchema,
  listDocumentsInputSchema,
  listTrashInputSchema,
  listVersionsInputSchema,
  readDocumentInputSchema,
  readVersionInputSchema,
  renameDocumentInputSchema,
  restoreVersionInputSchema,
  revokeShareInputSchema,
  type UpdateDocumentInput,
} from "../contract/documents.ts";
import { formDocx, formFields } from "../uploads/docx-form.ts";
import { GatewayError } from "../core/errors.ts";
import { procedure, router, unvalidated } from "./init.ts";

const formOnly =
  (name: string) =>
  (input: unknown): FormData => {
    if (!(input instanceof FormData))
      throw new GatewayError("BAD_USER_INPUT", `${name} takes FormData (multipart/form-data) with a .docx file part`);
    return input;
  };

export const documentsRouter = router({
  list: procedure
    .input(unvalidated(listDocumentsInputSchema.optional()))
    .query(async ({ ctx, input }) => ctx.services.documents.list(await ctx.request(), input ?? {})),
  read: procedure
    .input(unvalidated(readDocumentInputSchema))
    .query(async ({ ctx, input }) => ctx.services.documents.read(await ctx.request(), input)),
  create: procedure
    .input(unvalidated(createDocumentInputSchema))
    .mutation(async ({ ctx, input }) => (await ctx.services.documents.create(await ctx.request(), input)).document),
  /** Same as `read` but only the summary (for clients that need downloadUrl by id). */
  get: procedure
    .input(unvalidated(getDocumentInputSchema))
    .query(async ({ ctx, input }) => ctx.services.documents.get(await ctx.request(), input)),
  /** FormData: `file` (.docx), `name` (default: the file's name), `idempotencyKey`. */
  import: procedure.input(formOnly("documents.import")).mutation(async ({ ctx, input }) => {
    const request = await ctx.request();
    const fields = formFields(input, ["name", "idempotencyKey"]);
    return (await ctx.services.documents.import(request, fields, await formDocx(input))).document;
  }),
  /** JSON `{id, markdown?, name?, expectedVersion?}`, or FormData with `id`, `file` (.docx), `name?`, `expectedVersion?`. */
  update: procedure
    .input((input: unknown) => input as UpdateDocumentInput | FormData)
    .mutation(async ({ ctx, input }) => {
      const request = await ctx.request();
      if (!(input instanceof FormData)) return ctx.services.documents.update(request, input);
      const fields = formFields(input, ["id", "name", "expectedVersion"]);
      return ctx.services.documents.updateFromDocx(request, fields as never, await formDocx(input));
    }),
  rename: procedure
    .input(unvalidated(renameDocumentInputSchema))
    .mutation(async ({ ctx, input }) => ctx.services.documents.rename(await ctx.request(), input)),
  delete: procedure.input(unvalidated(deleteDocumentInputSchema)).mutation(async ({ ctx, input }) => {
    await ctx.services.documents.delete(await ctx.request(), input);
    return { id: input.id, deleted: true as const };
  }),
  trash: procedure
    .input(unvalidated(listTrashInputSchema.optional()))
    .query(async ({ ctx, input }) => ctx.services.documents.trash(await ctx.request(), input ?? {})),
  restore: procedure
    .input(unvalidated(documentRefInputSchema))
    .mutation(async ({ ctx, input }) => ctx.services.documents.restore(await ctx.request(), input)),
  purge: procedure.input(unvalidated(documentRefInputSchema)).mutation(async ({ ctx, input }) => {
    await ctx.services.documents.purge(await ctx.request(), input);
    return { id: input.id, purged: true as const };
  }),
  versions: procedure
    .input(unvalidated(listVersionsInputSchema))
    .query(async ({ ctx, input }) => ctx.services.documents.versions(await ctx.request(), input)),
  readVersion: procedure
    .input(unvalidated(readVersionInputSchema))
    .query(async ({ ctx, input }) => ctx.services.documents.readVersion(await ctx.request(), input)),
  restoreVersion: procedure
    .input(unvalidated(restoreVersionInputSchema))
    .mutation(async ({ ctx, input }) => ctx.services.documents.restoreVersion(await ctx.request(), input)),
  share: procedure
    .input(unvalidated(createShareInputSchema))
    .mutation(async ({ ctx, input }) => ctx.services.documents.share(await ctx.request(), input)),
  shares: procedure
    .input(unvalidated(documentRefInputSchema))
    .query(async ({ ctx, input }) => ctx.services.documents.shares(await ctx.request(), input)),
  revokeShare: procedure.input(unvalidated(revokeShareInputSchema)).mutation(async ({ ctx, input }) => {
    await ctx.services.documents.revokeShare(await ctx.request(), input);
    return { id: input.shareId, revoked: true as const };
  }),
});
