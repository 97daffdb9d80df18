// A document created through any surface is listed and read identically through the others.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { bearer, expectOk, type DocumentsDriver } from "./driver.ts";
import { graphqlDriver } from "./graphql-driver.ts";
import { restDriver } from "./rest-driver.ts";
import { trpcDriver } from "./trpc-driver.ts";

let tg: TestGateway;
let drivers: DocumentsDriver[];
let auth: string;

beforeAll(async () => {
  tg = await startTestGateway();
  drivers = [restDriver(tg.url), graphqlDriver(tg.url), trpcDriver(tg.url)];
  auth = bearer(await tg.key({ user: "cross" }));
});
afterAll(() => tg.close());

describe("one service behind every surface", () => {
  it.each(["rest", "graphql", "trpc"])("created through %s, identical everywhere", async (surface) => {
    const creator = drivers.find((d) => d.surface === surface)!;
    const created = expectOk(
      await creator.create(auth, { name: `from ${surface}`, markdown: `# Title\n\nA **bold** claim from ${surface}.` }),
    );
    for (const driver of drivers) {
      const listed = expectOk(await driver.list(auth, { query: `from ${surface}` }));
      expect(listed.documents, driver.surface).toEqual([created]);
      const read = expectOk(await driver.read(auth, created.id, 10));
      expect(read, driver.surface).toEqual({
        id: created.id,
        name: created.name,
        createdAt: created.createdAt,
        updatedAt: created.updatedAt,
        version: 1,
        format: "text",
        text: "Title\n\nA b",
        truncated: true,
        totalChars: created.characters,
      });
    }
  });

  it("an idempotency key used on one surface is honoured on another", async () => {
    const [rest, graphql, trpc] = drivers as [DocumentsDriver, DocumentsDriver, DocumentsDriver];
    const body = { name: "idem across", markdown: "same" };
    const first = expectOk(await rest.create(auth, body, "cross-key-1"));
    expect(expectOk(await graphql.create(auth, body, "cross-key-1"))).toEqual(first);
    expect(expectOk(await trpc.create(auth, body, "cross-key-1"))).toEqual(first);
  });
});
