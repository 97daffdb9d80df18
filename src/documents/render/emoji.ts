// GitHub's emoji shortcodes (:book:, :u6708:) as the emoji themselves, from gemoji's list, the
// one GitHub's own gemoji data is published as (MIT). A markdown-it core rule after linkify: text
// outside autolinks is split into text and `emoji` tokens (content the emoji, markup the name),
// which InlineBuilder writes as text. Unknown names, and shortcodes in code, stay as written;
// emoticons (":-)") are not shortcodes, as on GitHub. One scan per text token and a map lookup
// per candidate: markdown-it-emoji tested a 1,900-way alternation at every colon and copied a
// paragraph's tokens once per text token it split.
import { gemoji } from "gemoji";
import type { Token } from "markdown-it";
import { splitTexts, textToken, type StateCore } from "./text-split.ts";

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

/** Counts the autolinks a token opens or closes: their text is an address, not shortcodes. */
function insideAutolinks(): (token: Token) => boolean {
  let autolink = 0;
  return (token) => {
    if ((token.type === "link_open" || token.type === "link_close") && token.info === "auto") autolink += token.nesting;
    return autolink !== 0;
  };
}

/** The core rule: every inline token's text, outside autolinks (whose text is an address). */
export function emojiRule(state: StateCore): void {
  splitTexts(state, ":", insideAutolinks, (content) => split(content, state));
}
