// The tRPC router (docs/api.md "tRPC"). `AppRouter` is the type agents import.
import { viewerOf } from "../services/viewer.ts";
import { procedure, router } from "./init.ts";
import { operationProcedures } from "./procedures.ts";

export const appRouter = router({
  viewer: procedure.query(async ({ ctx }) => viewerOf(await ctx.request())),
  ...operationProcedures,
});

export type AppRouter = typeof appRouter;
