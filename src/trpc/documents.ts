// Documents procedures (docs/api.md "tRPC"): each is one service call. Inputs are typed by the shared zod
// schemas and validated by the service, after authentication and the scope check (see unvalidated).
import { createDocumentInputSchema, getDocumentInputSchema, listDocumentsInputSchema, readDocumentInputSchema } from "../documents/schemas.ts";
import { procedure, router, unvalidated } from "./init.ts";

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
});
