// A document as a reader sees its blocks, for comparing an HTML rendering (the CommonMark spec's
// expected output) with a rendered .docx (./docx-blocks.ts): one Block per paragraph-like thing,
// in order, with the containers around it and its text, inline formatting marked.
//
//   kind    p | h1…h6 | code (one block per line, as the .docx has one paragraph per line) | hr | cell
//   depth   enclosing blockquotes + list items (cells: 0)
//   quote   a paragraph or rule inside a blockquote (headings and code lines have their own
//           Word style, so only their depth shows the quote)
//   marker  on a list item's first block: "•" for a bullet, "N." for its number; else ""
//   text    whitespace collapsed (code: exact), formatted spans as ⟦flags:text⟧, flags from
//           b (bold) i (italic) s (strike) c (code) a<href> (link), sorted; code blocks unmarked
export interface Block {
  kind: string;
  depth: number;
  quote: boolean;
  marker: string;
  text: string;
}

export const showBlock = (b: Block): string => `${b.kind}${b.quote ? " q" : ""} d${b.depth}${b.marker ? ` ${b.marker}` : ""}: ${b.text}`;

type Segment = [flags: string, text: string];

/** Collects one block's text with its formatting and serialises it (see the header). */
export class TextCollector {
  private readonly chars: { ch: string; flags: string[] }[] = [];

  add(text: string, flags: readonly string[]): void {
    // A set: Word has no double italic (<em><em>x</em></em> is italic once).
    const sorted = [...new Set(flags)].sort();
    for (const ch of text) this.chars.push({ ch, flags: sorted });
  }

  /** Code blocks: the text as written, no flags. */
  raw(): string {
    return this.chars.map((c) => c.ch).join("");
  }

  /** Whitespace runs collapse to one space, none at the ends; a space takes the flags its neighbours share. */
  marked(): string {
    const out: Segment[] = [];
    let space = false;
    let previous: string[] | undefined;
    const push = (flags: readonly string[], ch: string) => {
      const key = flags.join(" ");
      const last = out[out.length - 1];
      if (last && last[0] === key) last[1] += ch;
      else out.push([key, ch]);
    };
    for (const { ch, flags } of this.chars) {
      if (/\s/.test(ch)) {
        space = true;
        continue;
      }
      if (space && previous)
        push(
          previous.filter((f) => flags.includes(f)),
          " ",
        );
      space = false;
      push(flags, ch);
      previous = flags;
    }
    return out.map(([flags, text]) => (flags ? `⟦${flags}:${text}⟧` : text)).join("");
  }
}
