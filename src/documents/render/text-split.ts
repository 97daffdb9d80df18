// What the markdown-it core rules that split text tokens share (email-autolink.ts, emoji.ts): the
// walk over each paragraph's inline tokens, which copies a paragraph's tokens only once one of its
// text tokens is split, and leaves alone the text inside links each rule names.
import type MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";

export type StateCore = Parameters<MarkdownIt["core"]["process"]>[0] & { tokens: Token[] };

export function textToken(state: StateCore, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

/**
 * Each text token holding `mark`, in a paragraph whose content holds it, replaced by what `split`
 * makes of it (undefined: kept). `inside` makes one tracker per paragraph, told every token in
 * order, answering whether that token stands inside a link the rule leaves alone.
 */
export function splitTexts(
  state: StateCore,
  mark: string,
  inside: () => (token: Token) => boolean,
  split: (content: string) => Token[] | undefined,
): void {
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== "inline" || !children || !block.content.includes(mark)) continue;
    const isInside = inside();
    let out: Token[] | undefined;
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      const skip = isInside(token);
      const pieces = token.type === "text" && !skip && token.content.includes(mark) ? split(token.content) : undefined;
      if (pieces) {
        out ??= children.slice(0, i);
        for (const piece of pieces) out.push(piece);
      } else {
        out?.push(token);
      }
    }
    if (out) block.children = out;
  }
}
