// One paragraph's children (runs, hyperlinks, images) and its text, from markdown-it's inline
// tokens and from raw HTML's inline tags (docs/api.md "Markdown to .docx", the raw-HTML row).
//
// markdown-it splits inline HTML into separate html_inline tokens (`<b>` and `</b>` apart, the
// text between them as ordinary text tokens). Each paragraph that has any keeps one htmlparser2
// parser, fed every html_inline token in order: its tag events open and close run properties, so
// the open-tag state spans the token sequence. Comments and anything that is not a tag give no
// text; <script>/<style> hide everything up to their end tag. No tag ever reaches the text.
import { Parser } from "htmlparser2";
import { ExternalHyperlink, ImageRun, type ParagraphChild } from "docx";
import { isRightToLeft } from "./direction.ts";
import { decodeDataImage, imageLabel, IMAGE_MARK } from "./images.ts";
import { safeLink, type Token } from "./markdown.ts";
import {
  BOLD,
  CODE,
  IMAGE,
  ITALIC,
  LINK,
  RTL,
  STRIKE,
  SUBSCRIPT,
  SUPERSCRIPT,
  UNDERLINE,
  breakRun,
  noteReferenceRun,
  textRun,
} from "./runs.ts";
import { runText, xmlSafe } from "./text.ts";

interface Format {
  bold: number;
  italics: number;
  strike: number;
  underline: number;
  code: number;
  sub: number;
  sup: number;
}

type FormatKey = keyof Format;

/** HTML inline tags that are run properties, and the counter each one raises. */
const FORMAT_TAGS: Record<string, FormatKey> = {
  b: "bold",
  strong: "bold",
  i: "italics",
  em: "italics",
  u: "underline",
  ins: "underline",
  s: "strike",
  del: "strike",
  strike: "strike",
  code: "code",
  kbd: "code",
  samp: "code",
  tt: "code",
  sub: "sub",
  sup: "sup",
};

/** HTML tags one paragraph interprets (see inlineHtml). */
const MAX_INLINE_TAGS = 5_000;

/** Elements whose content is never shown. */
export const HIDDEN_TAGS = new Set(["script", "style", "template", "title", "textarea", "noscript"]);

/**
 * An e-mail address as CommonMark's autolink takes it. Inside an HTML block, `<tj@vision-media.ca>`
 * reaches htmlparser2 as a start tag of that name; it is written as the mailto: link it was meant as.
 */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Text that needs no space before it after an image's placeholder. */
const SPACE_OR_PUNCTUATION = /^[\s\p{P}]/u;

/** HTML whitespace (not U+00A0, which `&nbsp;` gives and which must stay). */
const HTML_SPACE = /[ \t\n\r\f]+/g;

/** Builds the children of one paragraph from an inline token stream and/or HTML events, and the paragraph's text. */
export class InlineBuilder {
  readonly children: ParagraphChild[] = [];
  text = "";
  private target: ParagraphChild[] = this.children;
  private linkHref: string | undefined;
  private pending = "";
  private pendingKey = -1;
  private readonly format: Format = { bold: 0, italics: 0, strike: 0, underline: 0, code: 0, sub: 0, sup: 0 };
  /** For each open <a>: whether it opened a hyperlink. */
  private readonly anchors: boolean[] = [];
  private html: Parser | undefined;
  private hidden = 0;
  /** HTML text: a collapsed space waits here until more text follows in the same paragraph. */
  private spaceDue = false;
  /** Markdown text right after HTML, at the paragraph's start or after a space, loses its leading spaces. */
  private trimStart = false;
  private sawHtml = false;
  private htmlTags = 0;
  /** The text being appended is an image's placeholder. */
  private inImage = false;
  /** The last thing written is an image (the next one is kept apart by a space). */
  private lastWasImage = false;

  constructor(private readonly forceBold = false) {}

  build(tokens: readonly Token[]): this {
    for (const token of tokens) this.token(token);
    return this.finish();
  }

  /** Ends the paragraph: pending text becomes a run, an open link is closed. */
  finish(): this {
    // A dropped tag or comment at the end ("Title <!-- omit in toc -->") leaves no trailing space.
    if (this.sawHtml) this.pending = this.pending.replace(/[ \t]+$/, "");
    this.flush();
    this.closeLink();
    return this;
  }

  /** Nothing written yet: no run, hyperlink or image. */
  isEmpty(): boolean {
    return this.pending === "" && this.children.length === 0 && this.target.length === 0;
  }

  private token(token: Token): void {
    if (this.hidden > 0 && token.type !== "html_inline") return;
    switch (token.type) {
      case "text":
        this.markdownText(token.content);
        break;
      case "footnote_ref":
        this.footnoteRef(token.meta as { id?: number; subId?: number } | null);
        break;
      case "footnote_anchor":
        // The note's back-link (↩) has no place in a Word footnote.
        break;
      case "emoji":
        // A GitHub shortcode (:book:) whose content is the emoji itself (./emoji.ts).
        this.markdownText(token.content);
        break;
      case "softbreak":
        this.append(" ");
        break;
      case "hardbreak":
        this.lineBreak();
        break;
      case "code_inline":
        this.trimStart = false;
        this.format.code++;
        this.append(token.content);
        this.format.code--;
        break;
      case "html_inline":
        this.inlineHtml(token.content);
        break;
      // Emphasis moves the counter its tag does in raw HTML (<strong>, <em>, <s>), by its nesting: 1 open, -1 close.
      case "strong_open":
      case "strong_close":
      case "em_open":
      case "em_close":
      case "s_open":
      case "s_close":
        this.format[FORMAT_TAGS[token.tag]!] += token.nesting;
        break;
      case "link_open":
        this.openLink(token.attrGet("href") ?? "");
        break;
      case "link_close":
        this.flush();
        this.closeLink();
        break;
      case "image":
        this.image(plainText(token.children ?? []), token.attrGet("src") ?? "", token.attrGet("title") ?? "");
        break;
      default:
        // Unknown inline tokens (none with this parser's rules) keep their literal content.
        if (token.content) this.markdownText(token.content);
    }
  }

  /**
   * markdown-it-footnote's reference: the first one to a note is Word's footnote reference (the
   * note's id + 1, see DocumentBuilder.openFootnote); a later reference to the same note, which
   * Word cannot point at twice, is the note's number in superscript.
   */
  private footnoteRef(meta: { id?: number; subId?: number } | null): void {
    const id = Number(meta?.id ?? 0) + 1;
    this.trimStart = false;
    if ((meta?.subId ?? 0) > 0) {
      this.format.sup++;
      this.append(String(id));
      this.format.sup--;
      return;
    }
    this.flush();
    this.lastWasBreak = false;
    this.lastWasImage = false;
    this.target.push(noteReferenceRun(id));
  }

  private markdownText(content: string): void {
    let text = content;
    if (this.trimStart) {
      text = text.replace(/^[ \t]+/, "");
      if (text === "") return;
      this.trimStart = false;
    }
    this.append(text);
  }

  /** One html_inline token (a tag, a comment, a declaration), through this paragraph's parser. */
  private inlineHtml(content: string): void {
    this.sawHtml = true;
    // htmlparser2 keeps its open elements with Array.unshift, so tens of thousands of unclosed
    // tags in one paragraph cost quadratic time. Past this many, tags are dropped unread: they
    // are markup, never text, so only their formatting is lost.
    if (++this.htmlTags > MAX_INLINE_TAGS) {
      if (this.isEmpty()) this.trimStart = true;
      return;
    }
    this.html ??= new Parser(
      {
        onopentag: (name, attribs) => this.openTag(name, attribs),
        onclosetag: (name) => this.closeTag(name),
        // Text only arrives here from inside a tag markdown-it did not split (rare); never from a comment.
        ontext: (text) => {
          if (this.hidden === 0) this.htmlText(text);
        },
      },
      { decodeEntities: true },
    );
    this.html.write(content);
    // A tag or comment that gave nothing leaves no doubled space ("an <!-- x --> inline" is "an inline").
    // (The last character only: a regex anchored at the end would scan the whole pending text.)
    const last = this.pending.charCodeAt(this.pending.length - 1);
    if (this.isEmpty() || last === 32 || last === 9) this.trimStart = true;
  }

  /** An HTML start tag inside this paragraph: run properties, links, line breaks, images; others are dropped. */
  openTag(name: string, attribs: Record<string, string>): void {
    this.sawHtml = true;
    if (HIDDEN_TAGS.has(name)) {
      this.hidden++;
      return;
    }
    if (this.hidden > 0) return;
    const key = FORMAT_TAGS[name];
    if (key) {
      this.format[key]++;
      return;
    }
    if (name.includes("@") && EMAIL.test(name)) {
      this.htmlEmail(name);
      return;
    }
    switch (name) {
      case "br":
        this.lineBreak();
        break;
      case "img":
        this.image(attribs["alt"] ?? "", attribs["src"] ?? "", attribs["title"] ?? "");
        break;
      case "a": {
        const href = attribs["href"] === undefined ? undefined : safeLink(attribs["href"]);
        this.anchors.push(href !== undefined);
        if (href !== undefined) {
          this.settleSpace();
          this.openLink(href);
        }
        break;
      }
    }
  }

  closeTag(name: string): void {
    if (HIDDEN_TAGS.has(name)) {
      if (this.hidden > 0) this.hidden--;
      return;
    }
    if (this.hidden > 0) return;
    const key = FORMAT_TAGS[name];
    if (key) {
      if (this.format[key] > 0) this.format[key]--;
      return;
    }
    if (name === "a" && this.anchors.pop()) {
      this.flush();
      this.closeLink();
    }
  }

  private htmlEmail(address: string): void {
    const href = safeLink(`mailto:${address}`);
    if (href === undefined) {
      this.htmlText(address);
      return;
    }
    const outer = this.linkHref;
    this.settleSpace();
    if (outer === undefined) this.openLink(href);
    this.htmlText(address);
    if (outer === undefined) {
      this.flush();
      this.closeLink();
    }
  }

  /** HTML text: runs of HTML whitespace collapse to one space, none at the paragraph's start or end. */
  htmlText(raw: string): void {
    this.sawHtml = true;
    const collapsed = raw.replace(HTML_SPACE, " ");
    if (collapsed === " " || collapsed === "") {
      if (collapsed === " ") this.htmlSpace();
      return;
    }
    const lead = collapsed.startsWith(" ");
    const body = collapsed.slice(lead ? 1 : 0, collapsed.endsWith(" ") ? -1 : undefined);
    if ((lead || this.spaceDue) && !this.atLineStart()) this.append(" ");
    this.spaceDue = false;
    this.trimStart = false;
    this.append(body);
    if (collapsed.length > 1 && collapsed.endsWith(" ")) this.spaceDue = true;
  }

  /** A space due before a link starts is written outside it. */
  private settleSpace(): void {
    if (this.spaceDue && !this.atLineStart()) this.append(" ");
    this.spaceDue = false;
  }

  /** A separator between HTML words (a dropped block boundary inside a table cell, say). */
  htmlSpace(): void {
    if (!this.atLineStart()) this.spaceDue = true;
  }

  private atLineStart(): boolean {
    if (this.isEmpty()) return true;
    if (this.pending !== "") return /\s/.test(this.pending.charAt(this.pending.length - 1));
    return this.lastWasBreak;
  }

  private lastWasBreak = false;

  /** A line break (w:br): a markdown hard break or an HTML <br>. */
  lineBreak(): void {
    this.spaceDue = false;
    this.endWithSpace();
    this.flush();
    this.target.push(breakRun());
    this.lastWasBreak = true;
    this.lastWasImage = false;
  }

  /** Adjacent text with the same formatting goes into one run. */
  private append(raw: string): void {
    if (raw === "") return;
    this.lastWasBreak = false;
    if (this.lastWasImage) {
      // A placeholder is text: a word or another image right after it is kept apart by a space.
      this.lastWasImage = false;
      if (!SPACE_OR_PUNCTUATION.test(raw)) this.append(" ");
    }
    const key = this.formatKey();
    if (key !== this.pendingKey) {
      this.flush();
      this.pendingKey = key;
    }
    this.pending += raw;
  }

  /**
   * mammoth's raw text gives a w:br no character, so the words either side of a hard break would
   * be glued together in the stored text ("follows:this line"). A real space before the w:br, in
   * the run and in the text alike, keeps them apart and keeps the text equal to mammoth's.
   */
  private endWithSpace(): void {
    if (this.pending !== "") {
      // Into the run being built, so the space carries the preceding text's formatting.
      // Tested as written to the run: runText turns \v and \f into U+FFFD, which is no space.
      if (!/\s$/.test(runText(this.pending))) this.pending += " ";
    } else if (this.text !== "" && !/\s$/.test(this.text)) {
      this.append(" ");
    }
  }

  private formatKey(): number {
    const f = this.format;
    return (
      (f.bold > 0 || this.forceBold ? BOLD : 0) |
      (f.italics > 0 ? ITALIC : 0) |
      (f.strike > 0 ? STRIKE : 0) |
      (f.code > 0 ? CODE : 0) |
      (f.underline > 0 ? UNDERLINE : 0) |
      (f.sup > 0 ? SUPERSCRIPT : f.sub > 0 ? SUBSCRIPT : 0) |
      (this.inImage ? IMAGE : 0)
    );
  }

  private flush(): void {
    if (this.pending === "") return;
    const text = runText(this.pending);
    this.pending = "";
    this.text += text;
    const flags = this.pendingKey | (this.linkHref !== undefined ? LINK : 0) | (isRightToLeft(text) ? RTL : 0);
    this.target.push(textRun(text, flags));
  }

  private openLink(href: string): void {
    this.flush();
    this.closeLink();
    // A link right after an image (a row of linked avatars) starts after a space, outside it.
    if (this.lastWasImage) {
      this.append(" ");
      this.flush();
    }
    this.linkHref = href;
    this.target = [];
  }

  private closeLink(): void {
    if (this.linkHref === undefined) return;
    const runs = this.target;
    const href = this.linkHref;
    this.target = this.children;
    this.linkHref = undefined;
    if (runs.length === 0) return;
    if (href === "") this.children.push(...runs);
    else this.children.push(new ExternalHyperlink({ link: href, children: runs }));
  }

  private image(alt: string, src: string, title: string): void {
    this.trimStart = false;
    const embedded = decodeDataImage(src);
    if (!embedded) {
      this.placeholder(alt, src);
      return;
    }
    this.flush();
    this.lastWasBreak = false;
    this.lastWasImage = true;
    const description = xmlSafe(alt);
    this.target.push(
      new ImageRun({
        type: embedded.type,
        data: embedded.data,
        transformation: { width: embedded.width, height: embedded.height },
        altText: { name: description || "image", description, title: xmlSafe(title) },
      }),
    );
  }

  /**
   * An image that is not embedded (never fetched) as "🖼️ alt text" in the Image Placeholder
   * style, linked to its source when that is a web address and no link holds it already. What
   * follows it is kept apart from it by a space (a row of avatars, of badges: see append).
   */
  private placeholder(alt: string, src: string): void {
    this.settleSpace();
    const href = this.linkHref === undefined ? imageHref(src) : undefined;
    if (href) this.openLink(href);
    this.inImage = true;
    this.append(`${IMAGE_MARK} ${imageLabel(alt, src)}`);
    this.inImage = false;
    if (href) {
      this.flush();
      this.closeLink();
    }
    this.lastWasImage = true;
  }
}

/** An image's source as a link target: a web address only (a relative one has nothing to resolve against). */
function imageHref(src: string): string | undefined {
  if (!/^https?:\/\//i.test(src)) return undefined;
  return safeLink(src);
}

/** The plain text of inline tokens (an image's alt text): what the HTML renderer would put in alt="". */
export function plainText(tokens: readonly Token[]): string {
  let out = "";
  for (const token of tokens) {
    if (token.type === "text" || token.type === "code_inline") out += token.content;
    else if (token.type === "softbreak" || token.type === "hardbreak") out += " ";
    else if (token.type === "image") out += plainText(token.children ?? []);
  }
  return out;
}
