// tRPC specifics through a real @trpc/client: a body over the limit answered in tRPC's own error shape.
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppRouter } from "../../src/trpc/router.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

/** A client with `token` as its bearer credential, or none when null. */
const clientFor = (url: string, token: string | null) =>
  createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })],
  });

/** The TRPCClientError's data (code, gatewayCode, httpStatus…) of a call that must fail. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    (value) => new Error(`expected a TRPCClientError, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  if (!(error instanceof TRPCClientError)) throw error;
  return { message: error.message, data: (error as TRPCClientError<AppRouter>).data };
}

describe("a body over BODY_LIMIT_BYTES", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ BODY_LIMIT_BYTES: "4096" });
  });
  afterAll(() => tg.close());

  it("is a TRPCClientError with data.code and data.gatewayCode PAYLOAD_TOO_LARGE, before authentication", async () => {
    const client = clientFor(tg.url, await tg.key());
    const authenticate = vi.spyOn(tg.gateway.store, "findApiKeyByHash");
    try {
      const { message, data } = await failure(client.documents.create.mutate({ name: "big", markdown: "a".repeat(5_000) }));
      expect(message).toBe("The request body is over the 4096-byte limit");
      expect(data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", gatewayCode: "PAYLOAD_TOO_LARGE", httpStatus: 413, details: { limit: 4096 } });
      // Every call of a batch gets the error.
      const batch = await Promise.all([
        failure(client.documents.create.mutate({ name: "one", markdown: "b".repeat(3_000) })),
        failure(client.documents.create.mutate({ name: "two", markdown: "c".repeat(3_000) })),
      ]);
      for (const { data } of batch) expect(data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", gatewayCode: "PAYLOAD_TOO_LARGE" });
      expect(authenticate).not.toHaveBeenCalled();
    } finally {
      authenticate.mockRestore();
    }
    // A body within the limit goes through.
    expect((await client.documents.create.mutate({ name: "small", markdown: "d".repeat(1_000) })).characters).toBe(1_000);
  });
});
