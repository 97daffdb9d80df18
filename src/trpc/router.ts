// The tRPC router (docs/api.md "tRPC"). `AppRouter` is the type agents import.
import { viewerOf } from "../services/viewer.ts";
import { documentsRouter } from "./documents.ts";
import { procedure, router } from "./init.ts";
import { productRouters } from "./products.ts";

export const appRouter = router({
  viewer: procedure.query(async ({ ctx }) => viewerOf(await ctx.request())),
  documents: documentsRouter,
  ...productRouters,
});

export type AppRouter = typeof appRouter;
