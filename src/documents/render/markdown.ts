// The one markdown-it parser: CommonMark + GFM tables, strikethrough and autolinks. `html: true`
// only so raw HTML arrives as html_block / html_inline tokens, which the renderer interprets with
// htmlparser2 (./html.ts, ./inline.ts); nothing ever renders markdown-it's HTML output.
import MarkdownIt, { type Token } from "markdown-it";
import footnote from "markdown-it-footnote";
import { emailAutolinks } from "./email-autolink.ts";
import { emojiRule } from "./emoji.ts";
import { footnoteTail } from "./footnote-tail.ts";
import { compactTableRule } from "./gfm-table.ts";
import { shortcutPlainUrls } from "./plain-url.ts";

export type { Token };

interface LinkifySelf {
  re: Record<string, unknown> & { src_auth: string; src_host_port_strict: string; src_path: string };
}

/** The schemas linkify-it knows (http:, https:, ftp:, mailto:, //) and the "www." added below. */
const SCHEMA_HINT = /https?:|ftp:|mailto:|\/\/|www\./i;

function createParser(): MarkdownIt {
  const md = new MarkdownIt("default", { html: true, linkify: true, typographer: false, breaks: false });
  // GFM's extended autolinks are http(s)://…, www.… and e-mail addresses. linkify-it's fuzzy mode
  // would also link bare domains ("README.md" is a Moldovan domain), so it is off and "www." is
  // added back as a prefix that must be followed by a valid host and path. Its e-mail addresses
  // are not GFM's (it wants a known top-level domain, takes non-ASCII ones): ./email-autolink.ts
  // finds those.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
  // Without fuzzy links and e-mails, linkify-it only finds a link at a schema name; its tests look
  // for one with a regex of every Unicode space and punctuation mark that may precede it, on every
  // text token of a paragraph that has a link. A substring test says no first (most text).
  const linkify = md.linkify;
  const { test, pretest } = linkify;
  linkify.test = (text) => SCHEMA_HINT.test(text) && test.call(linkify, text);
  linkify.pretest = (text) => SCHEMA_HINT.test(text) && pretest.call(linkify, text);
  let wwwTail: RegExp | undefined;
  md.linkify.add("www.", {
    validate(text, pos, self) {
      const re = (self as unknown as LinkifySelf).re;
      wwwTail ??= new RegExp(`^${re.src_auth}${re.src_host_port_strict}${re.src_path}`, "i");
      const match = wwwTail.exec(`www.${text.slice(pos)}`);
      return match ? Math.max(0, match[0].length - 4) : 0;
    },
    normalize(match) {
      match.url = `http://${match.url}`;
    },
  });
  // Most links' URLs come out of normalisation as they went in: those skip it (./plain-url.ts).
  shortcutPlainUrls(md);
  md.core.ruler.before("linkify", "join_entities", joinEntities);
  md.core.ruler.after("linkify", "gfm_email", emailAutolinks);
  // GitHub's emoji shortcodes (:book:, :warning:) as the emoji themselves (docs/api.md): an
  // emoji token whose content InlineBuilder writes as text (./emoji.ts).
  md.core.ruler.after("gfm_email", "emoji", emojiRule);
  // Footnotes ([^label] and ^[inline]) as Word footnotes (docs/api.md): markdown-it-footnote's
  // footnote_ref tokens in the text, its footnote_open … footnote_close blocks at the end.
  // (@types/markdown-it-footnote types it against markdown-it's CommonJS types; the plugin is the same function.)
  md.use(footnote as unknown as (md: MarkdownIt) => void);
  // The plugin's footnote_tail copies the token stream once per note; ./footnote-tail.ts does not.
  md.core.ruler.at("footnote_tail", footnoteTail);
  // GFM tables as one token with their cells' text (./gfm-table.ts). A cell needs no inline token
  // when it would parse to one text token that linkify leaves alone.
  md.block.ruler.at(
    "table",
    compactTableRule((content) => PLAIN_INLINE.test(content) && !md.linkify.pretest(content)),
    { alt: ["paragraph", "reference"] },
  );
  md.block.ruler.before("table", "flatten_deep", flattenDeep);
  md.core.ruler.at("inline", inlinePlainFast);
  return md;
}

type StateCore = Parameters<MarkdownIt["core"]["process"]>[0] & { tokens: Token[] };

/**
 * GFM links an e-mail address written between entities, `TJ &lt;tj@vision-media.ca&gt;` (a
 * licence line in many READMEs). markdown-it's linkify skips a match at the start of a text token
 * that follows an escape or entity token (its guard against `http\://`), so the address stayed
 * text. Decoded entities are plain text: merged into the text around them before linkify runs,
 * they no longer hide the address. Backslash escapes stay separate, so the guard still holds.
 */
function joinEntities(state: StateCore): void {
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== "inline" || !children || !block.content.includes("&")) continue;
    if (!children.some((t) => t.type === "text_special" && t.info === "entity")) continue;
    const out: Token[] = [];
    for (const token of children) {
      const entity = token.type === "text_special" && token.info === "entity";
      const previous = out[out.length - 1];
      if ((entity || token.type === "text") && previous?.type === "text") {
        previous.content += token.content;
      } else {
        if (entity) token.type = "text";
        out.push(token);
      }
    }
    block.children = out;
  }
}

/**
 * Inline content with no character any inline rule starts at (markdown-it's text terminators,
 * and line ends) parses to one text token: it is made here without running the inline parser.
 * A 200-column table has 200,000 such cells, and the parser's per-call state was a good part of
 * its render time. Core rules after this one (linkify, emoji) still see the text token.
 */
const PLAIN_INLINE = /^[^\n\r!#$%&*+\-:<=>@[\\\]^_`{}~|]*$/;

function inlinePlainFast(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== "inline") continue;
    if (PLAIN_INLINE.test(token.content)) {
      if (token.content === "") continue;
      const text = new state.Token("text", "", 0);
      text.content = token.content;
      (token.children ??= []).push(text);
    } else {
      state.md.inline.parse(token.content, state.md, state.env, (token.children ??= []));
    }
  }
}

/** markdown-it's block nesting limit (the "default" preset's maxNesting). */
export const MAX_NESTING = 100;
/** Block nesting (in tokens: a list and its item are two levels) beyond which content is written flat. */
export const FLATTEN_AT = MAX_NESTING - 4;

type StateBlock = Parameters<MarkdownIt["block"]["tokenize"]>[0];

/**
 * Beyond its nesting limit markdown-it drops a container's content without a trace (a list or
 * quote nested 100,000 deep is created with no text). This rule, tried first, takes over a few
 * levels before that limit: the rest of the container becomes plain paragraphs (one per run of
 * non-blank lines) with its list and quote markers removed, so every word is kept, flattened at
 * that depth.
 */
function flattenDeep(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.level < FLATTEN_AT || silent) return false;
  let next = startLine;
  while (next < endLine && (state.isEmpty(next) || state.sCount[next]! >= state.blkIndent)) next++;
  const groups: string[][] = [[]];
  for (const line of state.getLines(startLine, next, state.blkIndent, false).split("\n")) {
    const content = withoutContainerMarkers(line).trim();
    if (content !== "") groups[groups.length - 1]!.push(content);
    else if (groups[groups.length - 1]!.length > 0) groups.push([]);
  }
  state.line = next;
  for (const lines of groups) {
    if (lines.length === 0) continue;
    const open = state.push("paragraph_open", "p", 1);
    open.map = [startLine, next];
    const inline = state.push("inline", "", 0);
    inline.content = lines.join("\n");
    inline.map = [startLine, next];
    inline.children = [];
    state.push("paragraph_close", "p", -1);
  }
  return true;
}

/** A line without its leading `>` and list markers (`-`, `*`, `+`, `1.`, `1)`), in one linear scan. */
function withoutContainerMarkers(line: string): string {
  let i = 0;
  const n = line.length;
  const blank = (at: number) => at >= n || line[at] === " " || line[at] === "\t";
  for (;;) {
    while (i < n && (line[i] === " " || line[i] === "\t")) i++;
    if (line[i] === ">") {
      i++;
      continue;
    }
    if ((line[i] === "-" || line[i] === "*" || line[i] === "+") && blank(i + 1)) {
      i++;
      continue;
    }
    let digits = i;
    while (digits < n && digits - i < 9 && line.charCodeAt(digits) >= 48 && line.charCodeAt(digits) <= 57) digits++;
    if (digits > i && (line[digits] === "." || line[digits] === ")") && blank(digits + 1)) {
      i = digits + 1;
      continue;
    }
    return line.slice(i);
  }
}

const parser = createParser();

/**
 * A raw-HTML href as markdown-it would take a link destination: normalised, and undefined when
 * markdown-it refuses it (javascript:, vbscript:, file:, non-image data:), so it stays text.
 */
export function safeLink(href: string): string | undefined {
  const normalized = parser.normalizeLink(href.trim());
  return normalized !== "" && parser.validateLink(normalized) ? normalized : undefined;
}

export function parseMarkdown(markdown: string): Token[] {
  return parser.parse(markdown, {});
}
