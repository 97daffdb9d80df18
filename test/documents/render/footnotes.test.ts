// Footnotes (src/documents/render/footnotes.ts): a note's blocks go into the note and the body's
// lists come back at its end; a note keeps its paragraphs only; an empty note is one empty
// paragraph; a note opened before the last one closed closes it first; docx gets them as paragraphs.
import { Paragraph } from "docx";
import { describe, expect, it } from "vitest";
import { Footnotes, wordFootnotes, type Output } from "../../../src/documents/render/footnotes.ts";
import { plainTable } from "../../../src/documents/render/table.ts";

const body = (): Output => ({ blocks: [{ style: "Body" }], textParts: ["body text"] });

describe("Footnotes", () => {
  it("writes a note into lists of its own and gives the body's back at its end", () => {
    const footnotes = new Footnotes();
    const main = body();
    const note = footnotes.start(2, main);
    expect(note).not.toBe(main);
    note.blocks.push(
      { style: "FootnoteText" },
      plainTable({ rows: [["a"]], aligns: [undefined], columnWidth: 100, columns: 1, indent: 0 }),
    );
    note.textParts.push("note text");
    expect(footnotes.end(note)).toBe(main);
    expect(main).toEqual(body()); // the body is untouched by the note
    const written = footnotes.notes.get(2)!;
    expect(written).toEqual([{ style: "FootnoteText" }]); // the table is left out
    // As docx's footnotes option: docx paragraphs.
    expect(wordFootnotes(footnotes.notes)["2"]!.children[0]).toBeInstanceOf(Paragraph);
  });

  it("an empty note is one empty paragraph; ending with no note open changes nothing", () => {
    const footnotes = new Footnotes();
    const main = body();
    expect(footnotes.end(main)).toBe(main);
    expect(footnotes.end(footnotes.start(1, main))).toBe(main);
    expect(footnotes.notes.get(1)).toEqual([{}]);
  });

  it("a note opened while another is open closes it first, and the body comes back at the end", () => {
    const footnotes = new Footnotes();
    const main = body();
    const first = footnotes.start(1, main);
    first.blocks.push({ style: "a" });
    const second = footnotes.start(2, first);
    second.blocks.push({ style: "b" }, { style: "c" });
    expect(footnotes.end(second)).toBe(main);
    expect([...footnotes.notes.keys()]).toEqual([1, 2]);
    expect(footnotes.notes.get(1)).toHaveLength(1);
    expect(footnotes.notes.get(2)).toHaveLength(2);
  });
});
