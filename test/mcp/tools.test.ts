// The tool results themselves, with a stub backend: what a text-only host would show.
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../src/core/errors.ts";
import { allTools, errorResult, tools, type McpBackend } from "../../src/mcp/tools.ts";

const doc = {
  id: "doc_1",
  name: "n",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  version: 1,
  format: "text" as const,
};
const unused = () => Promise.reject(new Error("not called"));
const backendReading = (text: string, totalChars: number): McpBackend => ({
  run: (name) =>
    name === "documents.read" ? Promise.resolve({ ...doc, text, truncated: text.length < totalChars, totalChars }) : unused(),
  linkBase: "http://127.0.0.1:4000",
});
const docsRead = tools.find((t) => t.name === "docs_read")!;

describe("docs_read result", () => {
  it("adds a note in content when the text is cut short", async () => {
    const result = await docsRead.run(backendReading("x".repeat(20_000), 53_120), { id: "doc_1" });
    expect(result.content).toEqual([
      { type: "text", text: "x".repeat(20_000) },
      {
        type: "text",
        text: "[truncated: showing 20,000 of 53,120 characters; call docs_read again with a larger maxChars (up to 1,000,000)]",
      },
    ]);
    expect(result.structuredContent).toMatchObject({ truncated: true, totalChars: 53_120 });
  });

  it("at the 1,000,000-character ceiling, does not suggest a larger maxChars", async () => {
    const result = await docsRead.run(backendReading("y".repeat(1_000_000), 1_200_000), { id: "doc_1" });
    expect(result.content[1]).toEqual({
      type: "text",
      text: "[truncated: showing 1,000,000 of 1,200,000 characters; docs_read returns at most 1,000,000 characters; download the .docx for the rest]",
    });
  });

  it("has no note when the whole text fits", async () => {
    const result = await docsRead.run(backendReading("short", 5), { id: "doc_1" });
    expect(result.content).toEqual([{ type: "text", text: "short" }]);
  });
});

describe("errorResult", () => {
  it("is isError with CODE: message text and no structuredContent (it would fail the output schema)", () => {
    expect(errorResult(new GatewayError("NOT_FOUND", "No such document"))).toEqual({
      isError: true,
      content: [{ type: "text", text: "NOT_FOUND: No such document" }],
    });
  });

  it("hides unexpected errors behind INTERNAL", () => {
    expect(errorResult(new Error("secret detail"))).toEqual({
      isError: true,
      content: [{ type: "text", text: "INTERNAL: Internal error" }],
    });
  });
});

describe("advertised input schemas are the ones the service validates with", () => {
  const input = (name: string) => tools.find((t) => t.name === name)!.input;

  it("drive_get refuses an id that is not one path segment, as the drive service does", () => {
    expect(input("drive_get").safeParse({ id: ".." }).success).toBe(false);
    expect(input("drive_get").safeParse({ id: "a/b" }).success).toBe(false);
    expect(input("drive_get").safeParse({ id: "file_1" }).success).toBe(true);
  });

  it("drive_search trims the query before requiring one character, as the drive service does", () => {
    expect(input("drive_search").safeParse({ query: "   " }).success).toBe(false);
    expect(input("drive_search").safeParse({ query: " budget " }).success).toBe(true);
  });

  it("docs_create takes an idempotencyKey", () => {
    expect(input("docs_create").parse({ name: "n", markdown: "m", idempotencyKey: "k" })).toMatchObject({ idempotencyKey: "k" });
  });
});

describe("tool descriptions", () => {
  it("each creating tool's idempotencyKey names that tool (docs_import's once said docs_create)", () => {
    for (const name of ["docs_create", "docs_import"]) {
      const descriptor = allTools.descriptors.find((tool) => tool.name === name)!;
      const key = (descriptor.inputSchema.properties as Record<string, { description?: string }>)["idempotencyKey"];
      expect(key?.description).toMatch(new RegExp(`retrying a ${name} whose answer`));
    }
  });
});
