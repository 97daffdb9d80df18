import { z } from "zod";
import { createDocumentInputSchema, listDocumentsInputSchema, readDocumentInputSchema } from "../documents/schemas.ts";
import { procedure, router } from "./init.ts";

export const documentsRouter = router({
  list: procedure
    .input(listDocumentsInputSchema.optional())
    .query(async ({ ctx, input }) => ctx.services.documents.list(await ctx.request(), input ?? {})),
  read: procedure
    .input(readDocumentInputSchema)
    .query(async ({ ctx, input }) => ctx.services.documents.read(await ctx.request(), input)),
  create: procedure
    .input(createDocumentInputSchema)
    .mutation(async ({ ctx, input }) => (await ctx.services.documents.create(await ctx.request(), input)).document),
  /** Same as `read` but only the summary (for clients that need downloadUrl by id). */
  get: procedure
    .input(z.object({ id: readDocumentInputSchema.shape.id }))
    .query(async ({ ctx, input }) => ctx.services.documents.get(await ctx.request(), input.id)),
});
