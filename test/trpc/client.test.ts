// tRPC specifics through a real @trpc/client: the order of checks (credential, then scope, then
// input, as on REST and GraphQL) and a body over the limit answered in tRPC's own error shape.
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import type { CreateDocumentInput, ListDocumentsInput, ReadDocumentInput } from "../../src/contract/documents.ts";
import type { CreateShareInput, ListMessagesInput, SendMessageInput } from "../../src/contract/products.ts";
import type { Message, WorkflowRun } from "../../src/services/products.ts";
import { createGatewayClient } from "../../src/client/index.ts";
import type { AppRouter } from "../../src/trpc/router.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

// Checked by tsc (npm run typecheck): inputs validated by the services, not by tRPC, keep the
// schemas' exact input types for clients (`void`: tRPC lets an optional input be left out).
type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;
expectTypeOf<Inputs["documents"]["list"]>().toEqualTypeOf<ListDocumentsInput | undefined | void>();
expectTypeOf<Inputs["documents"]["read"]>().toEqualTypeOf<ReadDocumentInput>();
expectTypeOf<Inputs["documents"]["create"]>().toEqualTypeOf<CreateDocumentInput>();
expectTypeOf<Inputs["messages"]["send"]>().toEqualTypeOf<SendMessageInput>();
expectTypeOf<Inputs["files"]["share"]>().toEqualTypeOf<CreateShareInput>();
expectTypeOf<Inputs["files"]["upload"]>().toEqualTypeOf<FormData>();
// Product procedures are derived from the operation table (src/services/operations.ts) and keep these types.
expectTypeOf<Inputs["messages"]["list"]>().toEqualTypeOf<ListMessagesInput | undefined | void>();
expectTypeOf<Outputs["messages"]["list"]["nextCursor"]>().toEqualTypeOf<string | null>();
expectTypeOf<Outputs["messages"]["list"]["data"][number]["subject"]>().toEqualTypeOf<Message["subject"]>();
expectTypeOf<Outputs["workflows"]["run"]>().toEqualTypeOf<WorkflowRun>();

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

describe("credential and scope are checked before the input", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway();
  });
  afterAll(() => tg.close());

  it("no credential and invalid input → UNAUTHENTICATED (documents and products)", async () => {
    const anonymous = clientFor(tg.url, null);
    expect((await failure(anonymous.documents.list.query({ limit: 0 }))).data).toMatchObject({
      code: "UNAUTHORIZED",
      gatewayCode: "UNAUTHENTICATED",
      httpStatus: 401,
    });
    expect((await failure(anonymous.documents.read.query({ id: "", maxChars: -1 }))).data).toMatchObject({
      code: "UNAUTHORIZED",
      gatewayCode: "UNAUTHENTICATED",
    });
    expect((await failure(anonymous.messages.list.query({ limit: 0 }))).data).toMatchObject({
      code: "UNAUTHORIZED",
      gatewayCode: "UNAUTHENTICATED",
    });
  });

  it("a docs:read-only key sending 400,001 characters → FORBIDDEN, not PAYLOAD_TOO_LARGE", async () => {
    const reader = clientFor(tg.url, await tg.key({ user: "reader", scopes: ["docs:read"] }));
    const { data } = await failure(reader.documents.create.mutate({ name: "too big", markdown: "a".repeat(400_001) }));
    expect(data).toMatchObject({ code: "FORBIDDEN", gatewayCode: "FORBIDDEN", httpStatus: 403 });
    // documents.get too: a write-only key with an id of the wrong type is refused for its scope.
    const writeOnly = clientFor(tg.url, await tg.key({ user: "writer-only", scopes: ["docs:write"] }));
    expect((await failure(writeOnly.documents.get.query({ id: 42 as unknown as string }))).data).toMatchObject({
      gatewayCode: "FORBIDDEN",
    });
  });

  it("with the credential and scope, the input is still validated (by the service)", async () => {
    const writer = clientFor(tg.url, await tg.key({ user: "writer" }));
    expect((await failure(writer.documents.list.query({ limit: 0 }))).data).toMatchObject({
      code: "BAD_REQUEST",
      gatewayCode: "BAD_USER_INPUT",
    });
    const tooBig = await failure(writer.documents.create.mutate({ name: "too big", markdown: "a".repeat(400_001) }));
    expect(tooBig.data).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      gatewayCode: "PAYLOAD_TOO_LARGE",
      details: { limit: 400_000, length: 400_001 },
    });
    // Input the schema transforms reaches the service as sent, and is transformed there once.
    const created = await writer.documents.create.mutate({ name: "  trimmed  ", markdown: "# Hi\n" });
    expect(created.name).toBe("trimmed");
    expect((await failure(writer.documents.get.query({ id: 42 as unknown as string }))).data).toMatchObject({
      gatewayCode: "BAD_USER_INPUT",
    });
    expect((await failure(clientFor(tg.url, null).documents.get.query({ id: 42 as unknown as string }))).data).toMatchObject({
      gatewayCode: "UNAUTHENTICATED",
    });
  });

  it("files.upload without FormData → BAD_USER_INPUT once authenticated", async () => {
    const writer = clientFor(tg.url, "not-a-key-but-an-access-token");
    const { data } = await failure(writer.files.upload.mutate({ file: "nope" } as unknown as FormData));
    expect(data).toMatchObject({ code: "BAD_REQUEST", gatewayCode: "BAD_USER_INPUT" });
  });
});

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
      expect(data).toMatchObject({
        code: "PAYLOAD_TOO_LARGE",
        gatewayCode: "PAYLOAD_TOO_LARGE",
        httpStatus: 413,
        details: { limit: 4096 },
      });
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

describe("the typed client and BATCH_MAX_CALLS", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway();
  });
  afterAll(() => tg.close());

  it("30 calls made in one tick are all answered: the client splits them into batches the gateway takes", async () => {
    const fetches = vi.fn(fetch);
    const counted = createGatewayClient({ url: tg.url, token: await tg.key(), fetch: fetches });
    const lists = await Promise.all(Array.from({ length: 30 }, () => counted.documents.list.query({ limit: 1 })));
    expect(lists).toHaveLength(30);
    expect(fetches.mock.calls.length).toBeGreaterThanOrEqual(2);
    // A client told to put them all in one batch is refused whole, as docs/security.md says.
    const oneBatch = createGatewayClient({ url: tg.url, token: await tg.key(), maxBatchCalls: 30 });
    const refused = await failure(Promise.all(Array.from({ length: 30 }, () => oneBatch.documents.list.query({ limit: 1 }))));
    expect(refused.data).toMatchObject({ gatewayCode: "PAYLOAD_TOO_LARGE", httpStatus: 413 });
  });
});
