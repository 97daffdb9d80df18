// GFM's extended e-mail autolink (https://github.github.com/gfm/#extended-email-autolink), as
// cmark-gfm, GitHub's renderer, finds it in text: a name of ASCII letters, digits and `.+-_`, an
// `@`, then a domain of ASCII letters, digits and `-_` with at least one period followed by a
// letter or digit, ending in a letter (`a.b-c_d@a.b.` links `a.b-c_d@a.b`; `a@b.c-`, `a@b_` and
// `hello@mail+xyz.example` do not link). One exception (README.md, "API notes"): a package
// version is not an address, so `send@1.0.0`, `express@4.x` and `react@18.2.0-rc` stay text (the
// domain starts with digits, a period and a digit or `x`). A markdown-it core rule after linkify,
// on text outside links (markdown's and raw HTML's <a>).
import type { Token } from "markdown-it";
import { splitTexts, textToken, type StateCore } from "./text-split.ts";

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAlnum = (c: number) => isDigit(c) || isAlpha(c);
/** `.`, `+`, `-`, `_`: allowed in the name besides letters and digits. */
const isNameMark = (c: number) => c === 0x2e || c === 0x2b || c === 0x2d || c === 0x5f;

/** `name@1.2.3`, `name@2.x`: a version, not a domain. */
const VERSION = /^\d+\.(?:\d|[xX*](?![a-zA-Z0-9]))/;

/** The e-mail addresses in `text` as [start, end) pairs, in order (cmark-gfm's scan, ASCII only). */
export function findEmails(text: string): [number, number][] {
  const found: [number, number][] = [];
  // Nothing before `floor` can be part of the next address (it was scanned, or linked).
  let floor = 0;
  let at = text.indexOf("@");
  while (at !== -1) {
    let start = at;
    while (start > floor && (isAlnum(text.charCodeAt(start - 1)) || isNameMark(text.charCodeAt(start - 1)))) start--;
    if (start === at) {
      floor = at + 1;
      at = text.indexOf("@", floor);
      continue;
    }
    let end = at + 1;
    let periods = 0;
    let next = -1;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (isAlnum(c)) continue;
      if (c === 0x40) {
        // Another @: scan again from it, the name no further back than this one's @.
        next = end;
        break;
      }
      if (c === 0x2e && end + 1 < text.length && isAlnum(text.charCodeAt(end + 1))) periods++;
      else if (c !== 0x2d && c !== 0x5f) break;
    }
    if (next !== -1) {
      floor = at + 1;
      at = next;
      continue;
    }
    const domain = text.slice(at + 1, end);
    if (periods > 0 && isAlpha(text.charCodeAt(end - 1)) && !VERSION.test(domain)) {
      found.push([start, end]);
    }
    floor = end;
    at = text.indexOf("@", end);
  }
  return found;
}

const HTML_LINK_OPEN = /^<a[>\s]/i;
const HTML_LINK_CLOSE = /^<\/a\s*>/i;

function linkTokens(state: StateCore, address: string): Token[] | undefined {
  const href = state.md.normalizeLink(`mailto:${address}`);
  if (!state.md.validateLink(href)) return undefined;
  const open = new state.Token("link_open", "a", 1);
  open.attrs = [["href", href]];
  open.markup = "linkify";
  open.info = "auto";
  const text = textToken(state, address);
  const close = new state.Token("link_close", "a", -1);
  close.markup = "linkify";
  close.info = "auto";
  return [open, text, close];
}

/** `text` with its addresses as links, or undefined when it has none. */
function split(state: StateCore, content: string): Token[] | undefined {
  const emails = findEmails(content);
  if (emails.length === 0) return undefined;
  const out: Token[] = [];
  let last = 0;
  for (const [start, end] of emails) {
    const link = linkTokens(state, content.slice(start, end));
    if (!link) continue;
    if (start > last) out.push(textToken(state, content.slice(last, start)));
    out.push(...link);
    last = end;
  }
  if (last === 0) return undefined;
  if (last < content.length) out.push(textToken(state, content.slice(last)));
  return out;
}

/** Counts the links a token opens or closes (markdown's, and raw HTML's <a>): text inside one is not linked again. */
function insideLinks(): (token: Token) => boolean {
  let links = 0;
  return (token) => {
    if (token.type === "link_open") links++;
    else if (token.type === "link_close") links--;
    else if (token.type === "html_inline") {
      if (HTML_LINK_OPEN.test(token.content)) links++;
      else if (HTML_LINK_CLOSE.test(token.content) && links > 0) links--;
    }
    return links !== 0;
  };
}

export function emailAutolinks(state: StateCore): void {
  splitTexts(state, "@", insideLinks, (content) => split(state, content));
}
