// Footnotes: markdown-it-footnote's notes as Word footnotes (docs/api.md). A note's blocks are
// built as the body's are, into lists of the note's own; its end puts the body's lists back. A
// note's text is not the body's: mammoth's raw text (the document's text, ./text.ts) leaves
// footnotes out, and the stored text stays equal to it. The notes are paragraph options, written
// as XML with the body (./package-template.ts) or given to docx (wordFootnotes).
import { Paragraph } from "docx";
import { isParagraph, type Block, type ParagraphProps } from "./blocks.ts";

/** Where the builder writes blocks and text: the body, or the open note. */
export interface Output {
  blocks: Block[];
  textParts: string[];
}

/** Each note's paragraphs by id (markdown-it-footnote's id + 1: docx keeps 0 and -1 for its separators), in order. */
export type NoteParagraphs = Map<number, ParagraphProps[]>;

/** The notes as docx's `footnotes` option. */
export function wordFootnotes(notes: NoteParagraphs): Record<string, { children: Paragraph[] }> {
  const out: Record<string, { children: Paragraph[] }> = {};
  for (const [id, paragraphs] of notes) out[String(id)] = { children: paragraphs.map((options) => new Paragraph(options)) };
  return out;
}

export class Footnotes {
  readonly notes: NoteParagraphs = new Map();
  /** The open note's id, and the body's lists while it is open. */
  private open: { id: number; body: Output } | undefined;

  /** Opens note `id` (closing one still open): returns the lists to write it into. */
  start(id: number, current: Output): Output {
    this.open = { id, body: this.end(current) };
    return { blocks: [], textParts: [] };
  }

  /** Ends the open note with what was written into it (`current`); returns the body's lists (`current` when no note is open). */
  end(current: Output): Output {
    const open = this.open;
    if (!open) return current;
    // A footnote holds paragraphs; a table in one is left out (its cells are rare in notes).
    const paragraphs = current.blocks.filter(isParagraph);
    this.notes.set(open.id, paragraphs.length > 0 ? paragraphs : [{}]);
    this.open = undefined;
    return open.body;
  }
}
