// Reads cut in the store (issue 23 finding 1), on both databases: readText and readVersionText
// take maxChars and answer at most that many UTF-16 units (SQL's substr counts code points; a
// surrogate pair is never split) with the whole length as stored.
import { beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../../src/store/types.ts";
import { at, backends, bytes, newDoc, newOwner, useStore } from "./backends.ts";

describe.each(backends)("$name store: reads cut in the store", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  // 🎉 and 漢 𠀀: astral characters (two UTF-16 units each) at the places a cut can fall.
  const text = "a🎉b漢𠀀cd";
  const markdown = "# 🎉🎉 title\n\nbody";

  it("cuts the current text and markdown to maxChars UTF-16 units, never half a surrogate pair, with the stored total", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { text, markdown });
    await store.documents.create(doc);
    const cut = async (maxChars?: number, format: "text" | "markdown" = "text") => {
      const read = await store.documents.readText(owner, doc.id, format, maxChars);
      return [read?.text, read?.totalChars];
    };
    expect(text.length).toBe(9);
    expect(await cut()).toEqual([text, 9]);
    expect(await cut(1)).toEqual(["a", 9]);
    expect(await cut(2)).toEqual(["a", 9]); // "a" + half of 🎉: backs off
    expect(await cut(3)).toEqual(["a🎉", 9]);
    expect(await cut(5)).toEqual(["a🎉b漢", 9]);
    expect(await cut(6)).toEqual(["a🎉b漢", 9]);
    expect(await cut(7)).toEqual(["a🎉b漢𠀀", 9]);
    expect(await cut(9)).toEqual([text, 9]);
    expect(await cut(1_000_000)).toEqual([text, 9]);
    expect(await cut(1, "markdown")).toEqual(["#", markdown.length]);
    expect(await cut(3, "markdown")).toEqual(["# ", markdown.length]);
    expect(await cut(4, "markdown")).toEqual(["# 🎉", markdown.length]);
  });

  it("cuts any version's text the same way; no stored markdown is null, for the service to derive", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { text: "first version text", markdown: null });
    await store.documents.create(doc);
    await store.documents.change({
      ownerId: owner,
      id: doc.id,
      actorId: owner,
      at: at(1),
      content: { docx: bytes(10), text, markdown },
      source: "markdown",
    });
    const v1 = await store.documents.readVersionText(owner, doc.id, 1, "text", 5);
    expect(v1).toMatchObject({ text: "first", totalChars: 18, version: { version: 1 } });
    expect(await store.documents.readVersionText(owner, doc.id, 1, "markdown", 5)).toMatchObject({ text: null, totalChars: null });
    expect(await store.documents.readVersionText(owner, doc.id, 2, "text", 2)).toMatchObject({
      text: "a",
      totalChars: 9,
      version: { version: 2 },
    });
    expect(await store.documents.readVersionText(owner, doc.id, 2, "markdown", 4)).toMatchObject({
      text: "# 🎉",
      totalChars: markdown.length,
    });
    expect((await store.documents.readVersionText(owner, doc.id, 2))?.text).toBe(text);
    // Reads of different lengths of the same document at once each get their own cut.
    const reads = await Promise.all([1, 3, 9, undefined].map((max) => store.documents.readText(owner, doc.id, "text", max)));
    expect(reads.map((read) => read?.text)).toEqual(["a", "a🎉", text, text]);
  });
});
