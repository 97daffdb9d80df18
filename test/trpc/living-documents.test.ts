// Living documents over tRPC (docs/api.md "tRPC"), through a real @trpc/client: JSON procedures
// batched with httpBatchLink, FormData ones (documents.import, documents.update with a file) on
// their own request through splitLink + httpLink. Every procedure of the contract's list, and the
// errors: a stale expectedVersion is PRECONDITION_FAILED in both data.code and data.gatewayCode.
import { createTRPCClient, httpBatchLink, httpLink, isNonJsonSerializable, splitLink, TRPCClientError } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { DocumentSummary, DocumentText, DocumentVersionList, TrashList, UpdateDocumentInput } from "../../src/contract/documents.ts";
import type { AppRouter } from "../../src/trpc/router.ts";
import { renderedDocx, storedPackage } from "../documents/import/docx-fixtures.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;
expectTypeOf<Inputs["documents"]["import"]>().toEqualTypeOf<FormData>();
expectTypeOf<Inputs["documents"]["update"]>().toEqualTypeOf<UpdateDocumentInput | FormData>();
expectTypeOf<Outputs["documents"]["update"]>().toEqualTypeOf<DocumentSummary>();
expectTypeOf<Outputs["documents"]["versions"]>().toEqualTypeOf<DocumentVersionList>();
expectTypeOf<Outputs["documents"]["readVersion"]>().toEqualTypeOf<DocumentText>();
expectTypeOf<Outputs["documents"]["trash"]>().toEqualTypeOf<TrashList>();

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** JSON calls batched; FormData on a request of its own (it cannot be batched as JSON). */
const clientFor = (url: string, token: string | null) => {
  const link = { url: `${url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) };
  return createTRPCClient<AppRouter>({
    links: [splitLink({ condition: (op) => isNonJsonSerializable(op.input), true: httpLink(link), false: httpBatchLink(link) })],
  });
};
type Client = ReturnType<typeof clientFor>;

/** The TRPCClientError's data (code, gatewayCode, httpStatus, details…) of a call that must fail. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    (value) => new Error(`expected a TRPCClientError, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  if (!(error instanceof TRPCClientError)) throw error;
  return (error as TRPCClientError<AppRouter>).data as { code: string; gatewayCode: string; httpStatus: number; details?: unknown };
}

const docxForm = (fields: Record<string, string>, bytes?: Uint8Array, filename = "upload.docx"): FormData => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (bytes) form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: DOCX_TYPE }), filename);
  return form;
};

let tg: TestGateway;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  tg = await startTestGateway();
  alice = clientFor(tg.url, await tg.key({ user: "alice" }));
  bob = clientFor(tg.url, await tg.key({ user: "bob" }));
});
afterAll(() => tg?.close());

describe("documents.update, rename, read (markdown) and expectedVersion", () => {
  it("update with markdown → the next version; a stale expectedVersion → PRECONDITION_FAILED and nothing written", async () => {
    const created = await alice.documents.create.mutate({ name: "Plan", markdown: "# One\n\nFirst." });
    expect(created.version).toBe(1);
    const updated = await alice.documents.update.mutate({ id: created.id, markdown: "# Two\n\n*Second*.", expectedVersion: 1 });
    expect(updated).toMatchObject({ id: created.id, name: "Plan", version: 2, url: created.url });
    expect(await alice.documents.read.query({ id: created.id })).toMatchObject({ version: 2, format: "text", text: "Two\n\nSecond." });
    expect((await alice.documents.read.query({ id: created.id, format: "markdown" })).text).toBe("# Two\n\n*Second*.");

    const stale = await failure(alice.documents.update.mutate({ id: created.id, markdown: "# Lost", expectedVersion: 1 }));
    expect(stale).toMatchObject({
      code: "PRECONDITION_FAILED",
      gatewayCode: "PRECONDITION_FAILED",
      httpStatus: 412,
      details: { currentVersion: 2 },
    });
    expect(await failure(alice.documents.rename.mutate({ id: created.id, name: "Lost", expectedVersion: 3 }))).toMatchObject({
      code: "PRECONDITION_FAILED",
      gatewayCode: "PRECONDITION_FAILED",
    });
    expect(await failure(alice.documents.delete.mutate({ id: created.id, expectedVersion: 1 }))).toMatchObject({
      gatewayCode: "PRECONDITION_FAILED",
    });
    expect(await failure(alice.documents.restoreVersion.mutate({ id: created.id, version: 1, expectedVersion: 1 }))).toMatchObject({
      gatewayCode: "PRECONDITION_FAILED",
    });
    expect(await alice.documents.read.query({ id: created.id })).toMatchObject({ name: "Plan", version: 2, text: "Two\n\nSecond." });

    // Name only, or both.
    expect(await alice.documents.update.mutate({ id: created.id, name: "Plan B" })).toMatchObject({ name: "Plan B", version: 3 });
    expect(await alice.documents.update.mutate({ id: created.id, name: "Plan C", markdown: "Three" })).toMatchObject({
      name: "Plan C",
      version: 4,
    });
    expect(await failure(alice.documents.update.mutate({ id: created.id }))).toMatchObject({
      code: "BAD_REQUEST",
      gatewayCode: "BAD_USER_INPUT",
    });
    expect(await failure(alice.documents.update.mutate({ id: created.id, markdown: "a".repeat(400_001) }))).toMatchObject({
      gatewayCode: "PAYLOAD_TOO_LARGE",
    });
  });

  it("concurrent updates with the same expectedVersion (batched and not): exactly one wins", async () => {
    const created = await alice.documents.create.mutate({ name: "Race", markdown: "Start" });
    // Three calls in one tick: one batched HTTP request.
    const batched = await Promise.allSettled(
      ["A", "B", "C"].map((who) => alice.documents.update.mutate({ id: created.id, markdown: `Writer ${who}`, expectedVersion: 1 })),
    );
    expect(batched.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of batched)
      if (r.status === "rejected")
        expect((r.reason as TRPCClientError<AppRouter>).data).toMatchObject({ gatewayCode: "PRECONDITION_FAILED" });
    // Separate clients: separate HTTP requests.
    const other = clientFor(tg.url, await tg.key({ user: "alice" }));
    const separate = await Promise.allSettled([
      alice.documents.update.mutate({ id: created.id, markdown: "X", expectedVersion: 2 }),
      other.documents.update.mutate({ id: created.id, markdown: "Y", expectedVersion: 2 }),
    ]);
    expect(separate.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await alice.documents.versions.query({ id: created.id })).versions.map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it("rename → a new version with the same content", async () => {
    const created = await alice.documents.create.mutate({ name: "Old", markdown: "# Body" });
    const renamed = await alice.documents.rename.mutate({ id: created.id, name: "  New  ", expectedVersion: 1 });
    expect(renamed).toMatchObject({
      id: created.id,
      name: "New",
      version: 2,
      sizeBytes: created.sizeBytes,
      characters: created.characters,
    });
    expect((await alice.documents.list.query({ query: "new" })).documents.map((d) => d.id)).toContain(created.id);
    expect(await failure(alice.documents.rename.mutate({ id: created.id, name: "" }))).toMatchObject({ gatewayCode: "BAD_USER_INPUT" });
  });
});

describe("documents.import and documents.update with FormData", () => {
  it("import → the document, its text from the file; the file's name by default; an idempotencyKey replays", async () => {
    const docx = await renderedDocx("# Imported\n\n- one\n- two\n");
    const imported = await alice.documents.import.mutate(docxForm({ name: "From a file" }, docx));
    expect(imported).toMatchObject({ name: "From a file", version: 1, sizeBytes: (await storedPackage(docx)).byteLength });
    expect((await alice.documents.read.query({ id: imported.id })).text.split("\n").filter(Boolean)).toEqual(["Imported", "one", "two"]);
    expect((await alice.documents.read.query({ id: imported.id, format: "markdown" })).text).toMatch(/^# Imported\n\n- one\n- two\n?$/);
    expect((await alice.documents.versions.query({ id: imported.id })).versions.map((v) => v.source)).toEqual(["docx"]);

    expect((await alice.documents.import.mutate(docxForm({}, docx, "Budget 2027.docx"))).name).toBe("Budget 2027");
    const once = await alice.documents.import.mutate(docxForm({ name: "Once", idempotencyKey: "trpc-import-1" }, docx));
    expect((await alice.documents.import.mutate(docxForm({ name: "Once", idempotencyKey: "trpc-import-1" }, docx))).id).toBe(once.id);

    expect(await failure(alice.documents.import.mutate(docxForm({ name: "No file" })))).toMatchObject({
      code: "BAD_REQUEST",
      gatewayCode: "BAD_USER_INPUT",
    });
    expect(await failure(alice.documents.import.mutate(docxForm({ name: "Not a docx" }, strToU8("plain text, not a zip"))))).toMatchObject({
      gatewayCode: "UNSUPPORTED_MEDIA_TYPE",
      httpStatus: 415,
    });
    expect(await failure(alice.documents.import.mutate(docxForm({ name: "x", extra: "y" }, docx)))).toMatchObject({
      gatewayCode: "BAD_USER_INPUT",
    });
    // Over the 25 MB .docx limit: PAYLOAD_TOO_LARGE, and nothing stored.
    const before = (await alice.documents.list.query({ limit: 100 })).documents.length;
    expect(await failure(alice.documents.import.mutate(docxForm({ name: "Too big" }, new Uint8Array(25 * 1024 * 1024 + 1))))).toMatchObject(
      {
        code: "PAYLOAD_TOO_LARGE",
        gatewayCode: "PAYLOAD_TOO_LARGE",
        httpStatus: 413,
      },
    );
    expect((await alice.documents.list.query({ limit: 100 })).documents.length).toBe(before);
    // JSON is not an import.
    expect(await failure(alice.documents.import.mutate({ name: "json" } as unknown as FormData))).toMatchObject({
      gatewayCode: "BAD_USER_INPUT",
    });
  });

  it("update with FormData → the next version from the file (source docx); expectedVersion in the form is honoured", async () => {
    const created = await alice.documents.create.mutate({ name: "Replace me", markdown: "# Old" });
    const docx = await renderedDocx("# Replaced\n\nFrom the file.\n");
    const stale = await failure(alice.documents.update.mutate(docxForm({ id: created.id, expectedVersion: "2" }, docx)));
    expect(stale).toMatchObject({ code: "PRECONDITION_FAILED", gatewayCode: "PRECONDITION_FAILED", httpStatus: 412 });
    expect((await alice.documents.read.query({ id: created.id })).version).toBe(1);

    const updated = await alice.documents.update.mutate(docxForm({ id: created.id, name: "Replaced", expectedVersion: "1" }, docx));
    expect(updated).toMatchObject({ id: created.id, name: "Replaced", version: 2, sizeBytes: (await storedPackage(docx)).byteLength });
    expect(await alice.documents.read.query({ id: created.id })).toMatchObject({ version: 2, text: "Replaced\n\nFrom the file." });
    expect((await alice.documents.versions.query({ id: created.id })).versions[0]).toMatchObject({ version: 2, source: "docx" });

    expect(await failure(alice.documents.update.mutate(docxForm({ id: created.id }, strToU8("not a zip"))))).toMatchObject({
      gatewayCode: "UNSUPPORTED_MEDIA_TYPE",
    });
    expect(await failure(alice.documents.update.mutate(docxForm({ id: created.id, markdown: "# no" }, docx)))).toMatchObject({
      gatewayCode: "BAD_USER_INPUT",
    });
    expect(await failure(bob.documents.update.mutate(docxForm({ id: created.id }, docx)))).toMatchObject({
      code: "NOT_FOUND",
      gatewayCode: "NOT_FOUND",
    });
    expect((await alice.documents.read.query({ id: created.id })).version).toBe(2);
  });
});

describe("versions, trash and shares", () => {
  it("versions, readVersion, restoreVersion", async () => {
    const created = await alice.documents.create.mutate({ name: "History", markdown: "# First" });
    await alice.documents.update.mutate({ id: created.id, markdown: "# Second" });
    await alice.documents.rename.mutate({ id: created.id, name: "History 2" });

    const list = await alice.documents.versions.query({ id: created.id });
    expect(list.nextCursor).toBeNull();
    expect(list.versions.map((v) => [v.version, v.name, v.source, v.createdBy])).toEqual([
      [3, "History 2", "rename", "alice"],
      [2, "History", "markdown", "alice"],
      [1, "History", "markdown", "alice"],
    ]);
    const first = await alice.documents.versions.query({ id: created.id, limit: 2 });
    expect(first.versions.map((v) => v.version)).toEqual([3, 2]);
    const rest = await alice.documents.versions.query({ id: created.id, limit: 2, cursor: first.nextCursor! });
    expect(rest).toMatchObject({ versions: [{ version: 1 }], nextCursor: null });

    expect(await alice.documents.readVersion.query({ id: created.id, version: 1 })).toMatchObject({
      id: created.id,
      name: "History",
      version: 1,
      text: "First",
    });
    expect((await alice.documents.readVersion.query({ id: created.id, version: 2, format: "markdown" })).text).toBe("# Second");
    expect(await failure(alice.documents.readVersion.query({ id: created.id, version: 9 }))).toMatchObject({
      code: "NOT_FOUND",
      gatewayCode: "NOT_FOUND",
    });
    expect(await failure(alice.documents.readVersion.query({ id: created.id, version: 0 }))).toMatchObject({
      gatewayCode: "BAD_USER_INPUT",
    });

    const restored = await alice.documents.restoreVersion.mutate({ id: created.id, version: 1, expectedVersion: 3 });
    expect(restored).toMatchObject({ id: created.id, name: "History 2", version: 4 });
    expect(await alice.documents.read.query({ id: created.id })).toMatchObject({ version: 4, text: "First" });
    expect((await alice.documents.versions.query({ id: created.id, limit: 1 })).versions[0]).toMatchObject({
      version: 4,
      source: "restore",
    });
  });

  it("delete → trash → restore; delete → purge", async () => {
    const created = await alice.documents.create.mutate({ name: "Binned", markdown: "Bin me" });
    expect(await alice.documents.delete.mutate({ id: created.id, expectedVersion: 1 })).toEqual({ id: created.id, deleted: true });
    expect(await failure(alice.documents.read.query({ id: created.id }))).toMatchObject({ gatewayCode: "NOT_FOUND" });
    expect(await alice.documents.get.query({ id: created.id })).toBeNull();
    expect((await alice.documents.list.query()).documents.map((d) => d.id)).not.toContain(created.id);
    expect(await failure(alice.documents.versions.query({ id: created.id }))).toMatchObject({ gatewayCode: "NOT_FOUND" });
    expect(await failure(alice.documents.delete.mutate({ id: created.id }))).toMatchObject({ gatewayCode: "NOT_FOUND" });

    const trash = await alice.documents.trash.query();
    const entry = trash.documents.find((d) => d.id === created.id);
    expect(entry).toMatchObject({ id: created.id, name: "Binned", version: 1 });
    expect(Date.parse(entry!.deletedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await alice.documents.trash.query({ query: "binned", limit: 1 })).documents.map((d) => d.id)).toEqual([created.id]);

    expect(await alice.documents.restore.mutate({ id: created.id })).toMatchObject({ id: created.id, version: 1, name: "Binned" });
    expect((await alice.documents.read.query({ id: created.id })).text).toBe("Bin me");
    expect(await failure(alice.documents.restore.mutate({ id: created.id }))).toMatchObject({ gatewayCode: "NOT_FOUND" });
    expect(await failure(alice.documents.purge.mutate({ id: created.id }))).toMatchObject({ gatewayCode: "NOT_FOUND" });

    await alice.documents.delete.mutate({ id: created.id });
    expect(await alice.documents.purge.mutate({ id: created.id })).toEqual({ id: created.id, purged: true });
    expect((await alice.documents.trash.query()).documents.map((d) => d.id)).not.toContain(created.id);
    expect(await failure(alice.documents.restore.mutate({ id: created.id }))).toMatchObject({
      code: "NOT_FOUND",
      gatewayCode: "NOT_FOUND",
    });
    expect(await failure(alice.documents.purge.mutate({ id: created.id }))).toMatchObject({ gatewayCode: "NOT_FOUND" });
  });

  it("share → a link that works without a credential; shares lists without tokens; revokeShare → the link is gone", async () => {
    const created = await alice.documents.create.mutate({ name: "Shared", markdown: "# For all" });
    const share = await alice.documents.share.mutate({ id: created.id, expiresInSeconds: 3600 });
    expect(share.id).toMatch(/^shr_/);
    expect(share.url).toMatch(/^\/api\/v1\/shared\/wgs_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(share.expiresAt) - Date.parse(share.createdAt)).toBe(3_600_000);
    const read = await fetch(`${tg.url}${share.url}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: created.id, text: "For all" });
    const download = await fetch(`${tg.url}${share.url}/content`);
    expect(download.headers.get("content-type")).toBe(DOCX_TYPE);

    const listed = await alice.documents.shares.query({ id: created.id });
    expect(listed).toEqual({ shares: [{ id: share.id, createdAt: share.createdAt, expiresAt: share.expiresAt }] });
    expect(JSON.stringify(listed)).not.toContain("wgs_");

    expect(await failure(alice.documents.share.mutate({ id: created.id, expiresInSeconds: 59 }))).toMatchObject({
      code: "BAD_REQUEST",
      gatewayCode: "BAD_USER_INPUT",
    });
    expect(await alice.documents.revokeShare.mutate({ id: created.id, shareId: share.id })).toEqual({ id: share.id, revoked: true });
    expect((await fetch(`${tg.url}${share.url}`)).status).toBe(404);
    expect(await alice.documents.shares.query({ id: created.id })).toEqual({ shares: [] });
    expect(await failure(alice.documents.revokeShare.mutate({ id: created.id, shareId: share.id }))).toMatchObject({
      gatewayCode: "NOT_FOUND",
    });
  });
});

describe("scopes and other users", () => {
  it("a docs:read key cannot change anything (FORBIDDEN); another user's ids are NOT_FOUND; no credential is UNAUTHENTICATED", async () => {
    const created = await alice.documents.create.mutate({ name: "Private", markdown: "Secret" });
    const share = await alice.documents.share.mutate({ id: created.id });
    const trashed = await alice.documents.create.mutate({ name: "Private trash", markdown: "x" });
    await alice.documents.delete.mutate({ id: trashed.id });
    const docx = await renderedDocx();

    const reader = clientFor(tg.url, await tg.key({ user: "alice", scopes: ["docs:read"] }));
    const writes: [string, () => Promise<unknown>][] = [
      ["import", () => reader.documents.import.mutate(docxForm({ name: "x" }, docx))],
      ["update", () => reader.documents.update.mutate({ id: created.id, markdown: "no" })],
      ["update FormData", () => reader.documents.update.mutate(docxForm({ id: created.id }, docx))],
      ["rename", () => reader.documents.rename.mutate({ id: created.id, name: "no" })],
      ["delete", () => reader.documents.delete.mutate({ id: created.id })],
      ["restore", () => reader.documents.restore.mutate({ id: trashed.id })],
      ["purge", () => reader.documents.purge.mutate({ id: trashed.id })],
      ["restoreVersion", () => reader.documents.restoreVersion.mutate({ id: created.id, version: 1 })],
      ["share", () => reader.documents.share.mutate({ id: created.id })],
      ["revokeShare", () => reader.documents.revokeShare.mutate({ id: created.id, shareId: share.id })],
    ];
    for (const [what, call] of writes) {
      expect({ what, data: await failure(call()) }).toMatchObject({ what, data: { code: "FORBIDDEN", gatewayCode: "FORBIDDEN" } });
    }
    expect((await reader.documents.versions.query({ id: created.id })).versions).toHaveLength(1);
    expect((await reader.documents.shares.query({ id: created.id })).shares).toHaveLength(1);
    expect((await reader.documents.trash.query()).documents.map((d) => d.id)).toContain(trashed.id);

    const writer = clientFor(tg.url, await tg.key({ user: "alice", scopes: ["docs:write"] }));
    for (const [what, call] of [
      ["versions", () => writer.documents.versions.query({ id: created.id })],
      ["readVersion", () => writer.documents.readVersion.query({ id: created.id, version: 1 })],
      ["trash", () => writer.documents.trash.query()],
      ["shares", () => writer.documents.shares.query({ id: created.id })],
    ] as const) {
      expect({ what, data: await failure(call()) }).toMatchObject({ what, data: { gatewayCode: "FORBIDDEN" } });
    }

    const theirs: [string, () => Promise<unknown>][] = [
      ["update", () => bob.documents.update.mutate({ id: created.id, markdown: "mine" })],
      ["rename", () => bob.documents.rename.mutate({ id: created.id, name: "mine" })],
      ["delete", () => bob.documents.delete.mutate({ id: created.id })],
      ["versions", () => bob.documents.versions.query({ id: created.id })],
      ["readVersion", () => bob.documents.readVersion.query({ id: created.id, version: 1 })],
      ["restoreVersion", () => bob.documents.restoreVersion.mutate({ id: created.id, version: 1 })],
      ["restore", () => bob.documents.restore.mutate({ id: trashed.id })],
      ["purge", () => bob.documents.purge.mutate({ id: trashed.id })],
      ["share", () => bob.documents.share.mutate({ id: created.id })],
      ["shares", () => bob.documents.shares.query({ id: created.id })],
      ["revokeShare", () => bob.documents.revokeShare.mutate({ id: created.id, shareId: share.id })],
    ];
    for (const [what, call] of theirs) {
      expect({ what, data: await failure(call()) }).toMatchObject({ what, data: { code: "NOT_FOUND", gatewayCode: "NOT_FOUND" } });
    }
    expect((await bob.documents.trash.query()).documents).toEqual([]);

    const anonymous = clientFor(tg.url, null);
    expect(await failure(anonymous.documents.versions.query({ id: created.id }))).toMatchObject({
      code: "UNAUTHORIZED",
      gatewayCode: "UNAUTHENTICATED",
    });
    expect(await failure(anonymous.documents.import.mutate(docxForm({ name: "x" }, docx)))).toMatchObject({
      gatewayCode: "UNAUTHENTICATED",
    });
    expect(await failure(anonymous.documents.update.mutate(docxForm({ id: created.id }, docx)))).toMatchObject({
      gatewayCode: "UNAUTHENTICATED",
    });

    // Nothing changed.
    expect(await alice.documents.read.query({ id: created.id })).toMatchObject({ version: 1, name: "Private", text: "Secret" });
    expect((await alice.documents.shares.query({ id: created.id })).shares).toHaveLength(1);
    expect((await alice.documents.trash.query()).documents.map((d) => d.id)).toContain(trashed.id);
    expect((await fetch(`${tg.url}${share.url}`)).status).toBe(200);
  });
});
