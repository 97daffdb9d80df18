// markdown-it-footnote's footnote_tail core rule (version 4.0.0), in linear time. The plugin's own
// rule appends each note's tokens with `state.tokens = state.tokens.concat(tokens)`, copying the
// whole token stream once per note: 15,000 notes took most of the 30 s render deadline. This is
// the same rule with the copies replaced by pushes; its output is token for token the same
// (test/documents/render/footnote-tail.test.ts compares them).
import type MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";

type StateCore = Parameters<MarkdownIt["core"]["process"]>[0] & { tokens: Token[] };

interface FootnoteEntry {
  label?: string;
  content?: string;
  tokens?: Token[];
  count: number;
}

interface FootnoteEnv {
  footnotes?: { list?: FootnoteEntry[] };
}

/**
 * The body's tokens without the definitions' blocks, which are returned by label (the plugin's
 * bookkeeping as it is, a definition nested in another included: the innermost label wins).
 */
function takeDefinitions(state: StateCore): Map<string, Token[]> {
  const byLabel = new Map<string, Token[]>();
  const kept: Token[] = [];
  let current: Token[] = [];
  let currentLabel = "";
  let inside = false;
  for (const token of state.tokens) {
    if (token.type === "footnote_reference_open") {
      inside = true;
      current = [];
      currentLabel = String((token.meta as { label?: string }).label);
    } else if (token.type === "footnote_reference_close") {
      inside = false;
      byLabel.set(currentLabel, current);
    } else if (inside) {
      current.push(token);
    } else {
      kept.push(token);
    }
  }
  state.tokens = kept;
  return byLabel;
}

export function footnoteTail(state: StateCore): void {
  const env = state.env as FootnoteEnv;
  if (!env.footnotes) return;
  const definitions = takeDefinitions(state);
  const list = env.footnotes.list;
  if (!list) return;
  const out = state.tokens;
  out.push(new state.Token("footnote_block_open", "", 1));
  // As in the plugin, a note with neither inline tokens nor a definition reuses the previous note's tokens.
  let tokens: Token[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const note = list[i]!;
    const open = new state.Token("footnote_open", "", 1);
    open.meta = { id: i, label: note.label };
    out.push(open);
    if (note.tokens) {
      const paragraphOpen = new state.Token("paragraph_open", "p", 1);
      paragraphOpen.block = true;
      const inline = new state.Token("inline", "", 0);
      inline.children = note.tokens;
      inline.content = note.content ?? "";
      const paragraphClose = new state.Token("paragraph_close", "p", -1);
      paragraphClose.block = true;
      tokens = [paragraphOpen, inline, paragraphClose];
    } else if (note.label) {
      tokens = definitions.get(note.label);
    }
    if (tokens) for (const token of tokens) out.push(token);
    const lastParagraph = out[out.length - 1]?.type === "paragraph_close" ? out.pop() : undefined;
    const anchors = note.count > 0 ? note.count : 1;
    for (let j = 0; j < anchors; j++) {
      const anchor = new state.Token("footnote_anchor", "", 0);
      anchor.meta = { id: i, subId: j, label: note.label };
      out.push(anchor);
    }
    if (lastParagraph) out.push(lastParagraph);
    out.push(new state.Token("footnote_close", "", -1));
  }
  out.push(new state.Token("footnote_block_close", "", -1));
}
