// Living documents over GraphQL (docs/api.md "GraphQL"), end to end against a real gateway on an
// ephemeral port: versions, optimistic concurrency, rename, trash, share links, import and
// replace from a .docx (multipart request spec), and other users seeing none of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { storedPackage } from "../documents/import/docx-fixtures.ts";

interface Answer<T> {
  status: number;
  data: T | null | undefined;
  errors: { message: string; path?: string[]; extensions?: { code?: string } }[] | undefined;
}

let tg: TestGateway;
let alice: string;
let bob: string;

async function gql<T = Record<string, never>>(auth: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer<T>> {
  const response = await fetch(`${tg.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json", authorization: `Bearer ${auth}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T | null; errors?: Answer<T>["errors"] };
  return { status: response.status, data: body.data, errors: body.errors };
}

/** The data of an answer that must have no errors. */
async function ok<T>(auth: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = await gql<T>(auth, query, variables);
  expect(answer.errors, query).toBeUndefined();
  return answer.data as T;
}

/** The code of an answer's first error. */
async function code(auth: string, query: string, variables: Record<string, unknown> = {}): Promise<string | undefined> {
  return (await gql(auth, query, variables)).errors?.[0]?.extensions?.code;
}

/** A GraphQL multipart request (the spec: operations, map, then the files). */
async function multipart<T>(
  auth: string,
  query: string,
  variables: Record<string, unknown>,
  files: Record<string, { path: string; blob: Blob; filename: string }>,
) {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query, variables }));
  form.append("map", JSON.stringify(Object.fromEntries(Object.entries(files).map(([key, f]) => [key, [f.path]]))));
  for (const [key, f] of Object.entries(files)) form.append(key, f.blob, f.filename);
  const response = await fetch(`${tg.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${auth}`, "apollo-require-preflight": "true" },
    body: form,
  });
  const body = (await response.json()) as { data?: T | null; errors?: Answer<T>["errors"] };
  return { status: response.status, data: body.data, errors: body.errors };
}

const fields = "id name version sizeBytes characters createdAt updatedAt deletedAt";
type Doc = { id: string; name: string; version: number; sizeBytes: number; characters: number; deletedAt: string | null };

async function create(name: string, markdown: string, auth = alice): Promise<Doc> {
  const data = await ok<{ createDocument: Doc }>(auth, `mutation ($i: CreateDocumentInput!) { createDocument(input: $i) { ${fields} } }`, {
    i: { name, markdown },
  });
  return data.createDocument;
}

const textOf = async (id: string, format = "TEXT", auth = alice) =>
  (
    await ok<{ document: { text: { text: string; format: string; version: number } } | null }>(
      auth,
      `query ($id: ID!, $f: DocumentFormat) { document(id: $id) { text(format: $f) { text format version } } }`,
      { id, f: format },
    )
  ).document?.text;

/** A .docx made by the gateway's own renderer: created over REST, downloaded. */
async function docxOf(markdown: string): Promise<Uint8Array<ArrayBuffer>> {
  const headers = { authorization: `Bearer ${alice}`, "content-type": "application/json" };
  const created = await fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "fixture", markdown }),
  });
  const { id } = (await created.json()) as { id: string };
  const content = await fetch(`${tg.url}/api/v1/documents/${id}/content`, { headers });
  return new Uint8Array(await content.arrayBuffer());
}

const docxBlob = (bytes: Uint8Array<ArrayBuffer>) =>
  new Blob([bytes], { type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" });

beforeAll(async () => {
  tg = await startTestGateway();
  alice = await tg.key({ user: "alice" });
  bob = await tg.key({ user: "bob" });
});
afterAll(() => tg.close());

describe("edits and versions", () => {
  it("updateDocument with markdown is version 2, a rename version 3; a stale expectedVersion is PRECONDITION_FAILED and writes nothing", async () => {
    const doc = await create("Plan", "# Plan\n\nFirst draft.");
    expect(doc.version).toBe(1);
    const update = `mutation ($i: UpdateDocumentInput!) { updateDocument(input: $i) { ${fields} } }`;
    const v2 = (
      await ok<{ updateDocument: Doc }>(alice, update, { i: { id: doc.id, markdown: "# Plan\n\nSecond *draft*.", expectedVersion: 1 } })
    ).updateDocument;
    expect(v2).toMatchObject({ id: doc.id, name: "Plan", version: 2 });
    expect(await textOf(doc.id)).toEqual({ text: "Plan\n\nSecond draft.", format: "TEXT", version: 2 });
    expect((await textOf(doc.id, "MARKDOWN"))?.text).toMatch(/^# Plan\n\nSecond \*draft\*\.?/);

    const v3 = (await ok<{ updateDocument: Doc }>(alice, update, { i: { id: doc.id, name: "Plan (final)" } })).updateDocument;
    expect(v3).toMatchObject({ name: "Plan (final)", version: 3 });

    const stale = await gql(alice, update, { i: { id: doc.id, markdown: "# Lost", expectedVersion: 2 } });
    expect(stale.errors?.[0]?.extensions?.code).toBe("PRECONDITION_FAILED");
    expect(stale.errors?.[0]?.message).toMatch(/version 3/);
    expect(await code(alice, `mutation ($id: ID!) { deleteDocument(id: $id, expectedVersion: 1) }`, { id: doc.id })).toBe(
      "PRECONDITION_FAILED",
    );
    const after = await ok<{ document: Doc & { text: { text: string } } }>(
      alice,
      `query ($id: ID!) { document(id: $id) { ${fields} text { text } } }`,
      { id: doc.id },
    );
    expect(after.document).toMatchObject({ version: 3, name: "Plan (final)", text: { text: "Plan\n\nSecond draft." } });
  });

  it("lists versions newest first with paging, reads an old version as text and markdown, and restores it as the newest", async () => {
    const doc = await create("History", "# One\n\nThe **first** text.");
    await ok(alice, `mutation ($i: UpdateDocumentInput!) { updateDocument(input: $i) { id } }`, {
      i: { id: doc.id, markdown: "# Two\n\nThe second text." },
    });
    await ok(alice, `mutation ($i: UpdateDocumentInput!) { updateDocument(input: $i) { id } }`, {
      i: { id: doc.id, name: "History renamed" },
    });

    type Versions = {
      document: {
        versions: {
          edges: { cursor: string; node: { version: number; name: string; source: string; createdBy: string; characters: number } }[];
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      };
    };
    const query = `query ($id: ID!, $first: Int, $after: String) { document(id: $id) { versions(first: $first, after: $after) {
      edges { cursor node { version name source createdBy characters } } pageInfo { hasNextPage endCursor } } } }`;
    const all = (await ok<Versions>(alice, query, { id: doc.id })).document.versions;
    expect(all.edges.map((e) => [e.node.version, e.node.source, e.node.name])).toEqual([
      [3, "RENAME", "History renamed"],
      [2, "MARKDOWN", "History"],
      [1, "MARKDOWN", "History"],
    ]);
    expect(all.edges[0]?.node.createdBy).toBe("alice");
    const first = (await ok<Versions>(alice, query, { id: doc.id, first: 2 })).document.versions;
    expect(first.edges.map((e) => e.node.version)).toEqual([3, 2]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (await ok<Versions>(alice, query, { id: doc.id, first: 2, after: first.pageInfo.endCursor })).document.versions;
    expect(rest.edges.map((e) => e.node.version)).toEqual([1]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect(await code(alice, query, { id: doc.id, after: "nope" })).toBe("BAD_USER_INPUT");

    type OldText = {
      documentVersion: {
        version: number;
        name: string;
        text: { text: string; version: number };
        markdown: { text: string; format: string };
      } | null;
    };
    const old = await ok<OldText>(
      alice,
      `query ($id: ID!, $v: Int!) { documentVersion(id: $id, version: $v) { version name text { text version } markdown: text(format: MARKDOWN) { text format } } }`,
      { id: doc.id, v: 1 },
    );
    expect(old.documentVersion).toMatchObject({
      version: 1,
      name: "History",
      text: { text: "One\n\nThe first text.", version: 1 },
      markdown: { format: "MARKDOWN" },
    });
    expect(old.documentVersion?.markdown.text).toMatch(/^# One\n\nThe \*\*first\*\* text/);
    expect(
      (await ok<OldText>(alice, `query ($id: ID!) { documentVersion(id: $id, version: 9) { version } }`, { id: doc.id })).documentVersion,
    ).toBeNull();

    const restore = `mutation ($id: ID!, $v: Int!, $e: Int) { restoreDocumentVersion(id: $id, version: $v, expectedVersion: $e) { ${fields} } }`;
    expect(await code(alice, restore, { id: doc.id, v: 1, e: 2 })).toBe("PRECONDITION_FAILED");
    const restored = (await ok<{ restoreDocumentVersion: Doc }>(alice, restore, { id: doc.id, v: 1, e: 3 })).restoreDocumentVersion;
    expect(restored).toMatchObject({ version: 4, name: "History renamed" });
    expect((await textOf(doc.id))?.text).toBe("One\n\nThe first text.");
    expect(await code(alice, restore, { id: doc.id, v: 99 })).toBe("NOT_FOUND");
  });
});

describe("trash", () => {
  it("a deleted document is in the trash only; restore brings it back; purge removes it for good", async () => {
    const doc = await create("Trash me", "Bye.");
    expect(
      (await ok<{ deleteDocument: boolean }>(alice, `mutation ($id: ID!) { deleteDocument(id: $id, expectedVersion: 1) }`, { id: doc.id }))
        .deleteDocument,
    ).toBe(true);
    expect((await ok<{ document: null }>(alice, `query ($id: ID!) { document(id: $id) { id } }`, { id: doc.id })).document).toBeNull();
    const listed = await ok<{ documents: { edges: { node: { id: string } }[] } }>(
      alice,
      `{ documents(first: 100) { edges { node { id } } } }`,
    );
    expect(listed.documents.edges.map((e) => e.node.id)).not.toContain(doc.id);
    expect(await code(alice, `mutation ($id: ID!) { deleteDocument(id: $id) }`, { id: doc.id })).toBe("NOT_FOUND");

    type Trash = { trash: { edges: { cursor: string; node: Doc }[]; pageInfo: { hasNextPage: boolean } } };
    const trash = (await ok<Trash>(alice, `{ trash(first: 10) { edges { cursor node { ${fields} } } pageInfo { hasNextPage } } }`)).trash;
    const entry = trash.edges.find((e) => e.node.id === doc.id);
    expect(entry?.node).toMatchObject({ name: "Trash me", version: 1, deletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const restored = await ok<{ restoreDocument: Doc }>(alice, `mutation ($id: ID!) { restoreDocument(id: $id) { ${fields} } }`, {
      id: doc.id,
    });
    expect(restored.restoreDocument).toMatchObject({ id: doc.id, deletedAt: null });
    expect((await textOf(doc.id))?.text).toBe("Bye.");
    expect((await ok<Trash>(alice, `{ trash { edges { node { id } } } }`)).trash.edges.map((e) => e.node.id)).not.toContain(doc.id);

    // Purge is for the trash only.
    expect(await code(alice, `mutation ($id: ID!) { purgeDocument(id: $id) }`, { id: doc.id })).toBe("NOT_FOUND");
    await ok(alice, `mutation ($id: ID!) { deleteDocument(id: $id) }`, { id: doc.id });
    expect(
      (await ok<{ purgeDocument: boolean }>(alice, `mutation ($id: ID!) { purgeDocument(id: $id) }`, { id: doc.id })).purgeDocument,
    ).toBe(true);
    expect((await ok<Trash>(alice, `{ trash { edges { node { id } } } }`)).trash.edges.map((e) => e.node.id)).not.toContain(doc.id);
    expect(await code(alice, `mutation ($id: ID!) { restoreDocument(id: $id) { id } }`, { id: doc.id })).toBe("NOT_FOUND");
  });
});

describe("share links", () => {
  it("creates a link that reads the document without a credential, lists it without its token, and revokes it (then 404)", async () => {
    const doc = await create("Shared", "# Shared\n\nFor your eyes.");
    const created = (
      await ok<{ createDocumentShare: { id: string; url: string; createdAt: string; expiresAt: string } }>(
        alice,
        `mutation ($id: ID!) { createDocumentShare(id: $id, expiresInSeconds: 3600) { id url createdAt expiresAt } }`,
        { id: doc.id },
      )
    ).createDocumentShare;
    expect(created.id).toMatch(/^shr_/);
    expect(created.url).toMatch(/^\/api\/v1\/shared\/wgs_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(3_600_000);

    const shares = await ok<{ document: { shares: { id: string; expiresAt: string }[] } }>(
      alice,
      `query ($id: ID!) { document(id: $id) { shares { id createdAt expiresAt } } }`,
      { id: doc.id },
    );
    expect(shares.document.shares).toEqual([{ id: created.id, createdAt: created.createdAt, expiresAt: created.expiresAt }]);

    const read = await fetch(`${tg.url}${created.url}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: doc.id, text: "Shared\n\nFor your eyes." });

    // Another user cannot revoke it.
    expect(
      await code(bob, `mutation ($id: ID!, $s: ID!) { revokeDocumentShare(id: $id, shareId: $s) }`, { id: doc.id, s: created.id }),
    ).toBe("NOT_FOUND");
    const revoked = await ok<{ revokeDocumentShare: boolean }>(
      alice,
      `mutation ($id: ID!, $s: ID!) { revokeDocumentShare(id: $id, shareId: $s) }`,
      { id: doc.id, s: created.id },
    );
    expect(revoked.revokeDocumentShare).toBe(true);
    expect((await fetch(`${tg.url}${created.url}`)).status).toBe(404);
    expect(
      (await ok<{ document: { shares: unknown[] } }>(alice, `query ($id: ID!) { document(id: $id) { shares { id } } }`, { id: doc.id }))
        .document.shares,
    ).toEqual([]);
    expect(
      await code(alice, `mutation ($id: ID!, $s: ID!) { revokeDocumentShare(id: $id, shareId: $s) }`, { id: doc.id, s: created.id }),
    ).toBe("NOT_FOUND");
    expect(await code(alice, `mutation ($id: ID!) { createDocumentShare(id: $id, expiresInSeconds: 5) { id } }`, { id: doc.id })).toBe(
      "BAD_USER_INPUT",
    );
  });
});

describe("another user", () => {
  it("sees none of alice's versions, trash or shares, and can change none of them", async () => {
    const doc = await create("Alice only", "Private.");
    await ok(alice, `mutation ($id: ID!) { createDocumentShare(id: $id) { id } }`, { id: doc.id });
    const gone = await create("Alice trashed", "Private too.");
    await ok(alice, `mutation ($id: ID!) { deleteDocument(id: $id) }`, { id: gone.id });

    expect(
      (await ok<{ documentVersion: null }>(bob, `query ($id: ID!) { documentVersion(id: $id, version: 1) { version } }`, { id: doc.id }))
        .documentVersion,
    ).toBeNull();
    expect((await ok<{ trash: { edges: unknown[] } }>(bob, `{ trash { edges { node { id } } } }`)).trash.edges).toEqual([]);
    const id = { id: doc.id };
    for (const mutation of [
      `mutation ($id: ID!) { updateDocument(input: { id: $id, markdown: "x" }) { id } }`,
      `mutation ($id: ID!) { deleteDocument(id: $id) }`,
      `mutation ($id: ID!) { restoreDocumentVersion(id: $id, version: 1) { id } }`,
      `mutation ($id: ID!) { createDocumentShare(id: $id) { url } }`,
    ]) {
      expect(await code(bob, mutation, id), mutation).toBe("NOT_FOUND");
    }
    expect(await code(bob, `mutation ($id: ID!) { restoreDocument(id: $id) { id } }`, { id: gone.id })).toBe("NOT_FOUND");
    expect(await code(bob, `mutation ($id: ID!) { purgeDocument(id: $id) }`, { id: gone.id })).toBe("NOT_FOUND");
    // Nothing bob tried changed anything.
    expect(await textOf(doc.id)).toMatchObject({ text: "Private.", version: 1 });
    expect(
      (await ok<{ trash: { edges: { node: { id: string } }[] } }>(alice, `{ trash { edges { node { id } } } }`)).trash.edges.map(
        (e) => e.node.id,
      ),
    ).toContain(gone.id);
  });

  it("a key with docs:read only cannot change, delete, share or import", async () => {
    const readOnly = await tg.key({ user: "alice", scopes: ["docs:read"] });
    const doc = await create("Read only", "Look, don't touch.");
    expect(await code(readOnly, `mutation ($id: ID!) { deleteDocument(id: $id) }`, { id: doc.id })).toBe("FORBIDDEN");
    expect(await code(readOnly, `mutation ($id: ID!) { createDocumentShare(id: $id) { url } }`, { id: doc.id })).toBe("FORBIDDEN");
    expect(
      await code(readOnly, `query ($id: ID!) { document(id: $id) { versions { edges { node { version } } } shares { id } } }`, {
        id: doc.id,
      }),
    ).toBeUndefined();
    const file = { path: "variables.file", blob: docxBlob(new Uint8Array([80, 75, 3, 4])), filename: "x.docx" };
    const refused = await multipart(
      readOnly,
      `mutation ($file: Upload!) { importDocument(file: $file, name: "x") { id } }`,
      { file: null },
      { 0: file },
    );
    expect(refused.status).toBe(403);
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("imports and replacing content from a .docx", () => {
  it("importDocument creates a document from a .docx (with an API key); updateDocument with a file replaces its content", async () => {
    const bytes = await docxOf("# Imported\n\nA paragraph.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    const imported = await multipart<{ importDocument: Doc }>(
      alice,
      `mutation ($file: Upload!, $name: String!) { importDocument(file: $file, name: $name) { ${fields} } }`,
      { file: null, name: "From Word" },
      { 0: { path: "variables.file", blob: docxBlob(bytes), filename: "report.docx" } },
    );
    expect(imported.errors).toBeUndefined();
    const doc = imported.data!.importDocument;
    expect(doc).toMatchObject({ name: "From Word", version: 1, sizeBytes: (await storedPackage(bytes)).byteLength });
    // Extracted from the file (paragraphs, list items, table cells each on their own lines; blank lines between them vary by extractor).
    expect((await textOf(doc.id))?.text.replace(/\n+/g, "\n")).toBe("Imported\nA paragraph.\none\ntwo\na\nb\n1\n2");
    expect((await textOf(doc.id, "MARKDOWN"))?.text).toMatch(/^# Imported/);

    const next = await docxOf("# Replaced\n\nNew words.");
    const update = `mutation ($i: UpdateDocumentInput!) { updateDocument(input: $i) { ${fields} } }`;
    const replaced = await multipart<{ updateDocument: Doc }>(
      alice,
      update,
      { i: { id: doc.id, file: null, name: "Replaced", expectedVersion: 1 } },
      {
        0: { path: "variables.i.file", blob: docxBlob(next), filename: "replaced.docx" },
      },
    );
    expect(replaced.errors).toBeUndefined();
    expect(replaced.data!.updateDocument).toMatchObject({
      id: doc.id,
      name: "Replaced",
      version: 2,
      sizeBytes: (await storedPackage(next)).byteLength,
    });
    expect((await textOf(doc.id))?.text).toBe("Replaced\n\nNew words.");
    const versions = await ok<{ document: { versions: { edges: { node: { source: string } }[] } } }>(
      alice,
      `query ($id: ID!) { document(id: $id) { versions { edges { node { source } } } } }`,
      { id: doc.id },
    );
    expect(versions.document.versions.edges.map((e) => e.node.source)).toEqual(["DOCX", "DOCX"]);

    const stale = await multipart(
      alice,
      update,
      { i: { id: doc.id, file: null, expectedVersion: 1 } },
      { 0: { path: "variables.i.file", blob: docxBlob(next), filename: "r.docx" } },
    );
    expect(stale.errors?.[0]?.extensions?.code).toBe("PRECONDITION_FAILED");
    const both = await multipart(
      alice,
      update,
      { i: { id: doc.id, file: null, markdown: "x" } },
      { 0: { path: "variables.i.file", blob: docxBlob(next), filename: "r.docx" } },
    );
    expect(both.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect((await textOf(doc.id))?.version).toBe(2);
  });

  it("a file that is not a .docx is UNSUPPORTED_MEDIA_TYPE and stores nothing", async () => {
    const before = await ok<{ documents: { edges: unknown[] } }>(alice, `{ documents(first: 100) { edges { node { id } } } }`);
    const answer = await multipart(
      alice,
      `mutation ($file: Upload!) { importDocument(file: $file, name: "bad") { id } }`,
      { file: null },
      {
        0: { path: "variables.file", blob: new Blob(["not a zip"]), filename: "bad.docx" },
      },
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const after = await ok<{ documents: { edges: unknown[] } }>(alice, `{ documents(first: 100) { edges { node { id } } } }`);
    expect(after.documents.edges.length).toBe(before.documents.edges.length);
  });

  it("an API key still cannot send uploadFile: refused before the file is read (product uploads need an access token)", async () => {
    const answer = await multipart(
      alice,
      `mutation ($file: Upload!) { uploadFile(file: $file) { id } }`,
      { file: null },
      {
        0: { path: "variables.file", blob: new Blob(["x"]), filename: "x.txt" },
      },
    );
    expect(answer.status).toBe(403);
    expect(answer.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(answer.errors?.[0]?.message).toMatch(/access token/);
  });
});
