import { describe } from "vitest";
import { documentsBehaviour } from "../documents/behaviour.ts";
import { trpcDriver } from "../documents/trpc-driver.ts";

describe("tRPC documents behaviour matrix (real @trpc/client, httpBatchLink)", () => {
  documentsBehaviour((tg) => trpcDriver(tg.url));
});
