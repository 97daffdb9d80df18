// GitHub's emoji shortcodes (:book:, :u6708:) as the emoji themselves, from gemoji's list, the
// one GitHub's own gemoji data is published as (MIT). A markdown-it core rule after linkify: text
// outside autolinks is split into text and `emoji` tokens (content the emoji, markup the name),
// which InlineBuilder writes as text. Unknown names, and shortcodes in code, stay as written;
// emoticons (":-)") are not shortcodes, as on GitHub. One scan per text token and a map lookup
// per candidate: markdown-it-emoji tested a 1,900-way alternation at every colon and copied a
// paragraph's tokens once per text token it split.
import { gemoji } from "gemoji";
import type MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";

type StateCore = Parameters<MarkdownIt["core"]["process"]>[0] & { tokens: Token[] };

/** Every name GitHub knows (gemoji's `names`, aliases included) → its emoji. */
export const EMOJI: ReadonlyMap<string, string> = new Map(
  gemoji.flatMap((entry) => entry.names.map((name) => [name, entry.emoji] as const)),
);

/** A shortcode candidate: a colon, the characters names are made of, a colon. */
const CANDIDATE = /:([a-z0-9_+-]+):/g;

/** `text` split at its known shortcodes, or undefined when it has none. */
function split(text: string, state: StateCore): Token[] | undefined {
  let out: Token[] | undefined;
  let last = 0;
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match; match = CANDIDATE.exec(text)) {
    const emoji = EMOJI.get(match[1]!);
    if (emoji === undefined) {
      // The closing colon may open the next shortcode (":not:smile:").
      CANDIDATE.lastIndex = match.index + match[0].length - 1;
      continue;
    }
    out ??= [];
    if (match.index > last) out.push(textToken(state, text.slice(last, match.index)));
    const token = new state.Token("emoji", "", 0);
    token.markup = match[1]!;
    token.content = emoji;
    out.push(token);
    last = match.index + match[0].length;
  }
  if (out && last < text.length) out.push(textToken(state, text.slice(last)));
  return out;
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

/** The core rule: every inline token's text, outside autolinks (whose text is an address). */
export function emojiRule(state: StateCore): void {
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== "inline" || !children || !block.content.includes(":")) continue;
    let out: Token[] | undefined;
    let autolink = 0;
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if ((token.type === "link_open" || token.type === "link_close") && token.info === "auto") autolink += token.nesting;
      const pieces = token.type === "text" && autolink === 0 && token.content.includes(":") ? split(token.content, state) : undefined;
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
