// Inline HTML from mammoth → markdown that our renderer's markdown-it reads back as the same
// runs: emphasis, strike, code spans, links, footnote references, hard breaks. Text is escaped so
// that nothing in it becomes markup (markdown-it, GFM tables, emoji shortcodes, entities).
import { LIST_START } from "./lists.ts";
import { textContent, type HtmlElement, type HtmlNode } from "./html-tree.ts";

/** Where the inline content goes: a hard break differs in a paragraph, a heading and a table cell. */
export type InlineContext = "paragraph" | "heading" | "cell";

const DELIMITERS: Record<string, string> = { strong: "**", b: "**", em: "*", i: "*", s: "~~", del: "~~", strike: "~~" };

/** ASCII punctuation that is markup anywhere in a line. */
const ALWAYS = /[\\`*_[\]<>|~]/g;

export function escapeText(text: string): string {
  return text
    .replaceAll(LIST_START, "")
    .replace(ALWAYS, "\\$&")
    .replace(/&(?=#?[a-z0-9]+;)/gi, "\\&")
    .replace(/:(?=[a-z0-9_+-]+:)/gi, "\\:");
}

/**
 * What would start a block if it began a line: a heading, quote, list item, setext underline or
 * thematic break. Applied to each line of a paragraph (lines follow hard breaks).
 */
export function escapeLineStarts(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) => line.replace(/^(\d{1,9})([.)])/, "$1\\$2").replace(/^([#=+-])/, "\\$1"))
    .join("\n");
}

/** A code span whose fence is longer than any backtick run inside it. */
export function codeSpan(code: string): string {
  const text = code.replace(/\r?\n/g, " ");
  if (text === "") return "";
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function destination(href: string): string {
  return href.replace(/[\s()<>\\]/g, (c) => encodeURIComponent(c));
}

/** Adjacent siblings with the same emphasis tag are one run (mammoth splits runs Word split). */
function mergeAdjacent(nodes: readonly HtmlNode[]): HtmlNode[] {
  const out: HtmlNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (typeof node !== "string" && last && typeof last !== "string" && DELIMITERS[node.tag] && last.tag === node.tag) {
      out[out.length - 1] = { ...last, children: [...last.children, ...node.children] };
    } else {
      out.push(node);
    }
  }
  return out;
}

/** The footnote or endnote a mammoth note reference points at ("#footnote-3" → "3"). */
export function noteLabel(href: string | undefined): string | undefined {
  const match = href ? /^#(footnote|endnote)-(.+)$/.exec(href) : null;
  return match ? `${match[1] === "endnote" ? "e" : ""}${match[2]}` : undefined;
}

export class InlineWriter {
  constructor(private readonly context: InlineContext) {}

  write(nodes: readonly HtmlNode[], inLink = false): string {
    let out = "";
    for (const node of mergeAdjacent(nodes)) out += this.node(node, inLink);
    return out;
  }

  private node(node: HtmlNode, inLink: boolean): string {
    if (typeof node === "string") return escapeText(node.replace(/[\r\n]+/g, " "));
    switch (node.tag) {
      case "br":
        if (this.context === "paragraph") return "\\\n";
        return this.context === "cell" ? "<br>" : " ";
      case "code": {
        // A pipe inside a code span would still end a table cell.
        const span = codeSpan(textContent(node));
        return this.context === "cell" ? span.replace(/\|/g, "\\|") : span;
      }
      case "a":
        return this.link(node, inLink);
      case "img":
        return escapeText(node.attrs["alt"] ?? "");
      case "sup":
      case "sub": {
        const note = onlyNoteReference(node);
        if (note) return `[^${note}]`;
        const inner = this.write(node.children, inLink);
        return inner.trim() ? `<${node.tag}>${inner}</${node.tag}>` : inner;
      }
      default: {
        const delimiter = DELIMITERS[node.tag];
        const inner = this.write(node.children, inLink);
        return delimiter ? emphasis(inner, delimiter) : inner;
      }
    }
  }

  private link(node: HtmlElement, inLink: boolean): string {
    const href = node.attrs["href"];
    const note = noteLabel(href);
    if (note) return `[^${note}]`;
    const text = this.write(node.children, true);
    // Bookmarks, links inside links and links within the document keep only their text.
    if (!href || inLink || href.startsWith("#") || !text.trim()) return text;
    return `[${text}](${destination(href)})`;
  }
}

function onlyNoteReference(node: HtmlElement): string | undefined {
  const children = node.children.filter((c) => typeof c !== "string" || c.trim() !== "");
  const only = children.length === 1 ? children[0] : undefined;
  return only && typeof only !== "string" && only.tag === "a" ? noteLabel(only.attrs["href"]) : undefined;
}

/** Delimiters hug the text: spaces inside them would stop markdown-it reading them as emphasis. */
function emphasis(inner: string, delimiter: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner);
  const [, lead = "", core = "", trail = ""] = match ?? [];
  if (!core) return inner;
  return `${lead}${delimiter}${core}${delimiter}${trail}`;
}
