// A document as HTML for people (the owner's application and a share link's page, docs/app.md):
// the same markdown-it parse the .docx is rendered from (./markdown.ts, with its GFM tables,
// emoji and footnotes) and the same front matter table, written as HTML. Raw HTML in the markdown
// is never passed through as it is: each fragment is re-written from htmlparser2's events with an
// allow-list of tags and attributes (no script, style, event handlers, `style`, `id` or `class`;
// links only through markdown-it's own link check), so a preview can never run script even
// before the page's Content-Security-Policy is applied.
import MarkdownIt, { type Token } from "markdown-it";
import footnote from "markdown-it-footnote";
import { Parser } from "htmlparser2";
import { splitFrontMatter } from "./front-matter.ts";
import type { GfmTable } from "./gfm-table.ts";
import { HIDDEN_TAGS } from "./inline.ts";
import { parseMarkdown, safeLink } from "./markdown.ts";

const ALLOWED_TAGS = new Set(
  (
    "a abbr b bdi bdo blockquote br caption cite code dd del details dfn div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i " +
    "img ins kbd li mark ol p pre q rp rt ruby s samp small span strike strong sub summary sup table tbody td tfoot th thead time " +
    "tr tt u ul var"
  ).split(" "),
);
const VOID_TAGS = new Set(["br", "hr", "img"]);
/** Attributes kept on any allowed tag; links and image sources are checked separately. */
const PLAIN_ATTRIBUTES = new Set([
  "title",
  "alt",
  "align",
  "dir",
  "lang",
  "colspan",
  "rowspan",
  "start",
  "open",
  "width",
  "height",
  "datetime",
]);

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

function attributesOf(tag: string, attributes: Record<string, string>): string {
  let out = "";
  for (const [name, value] of Object.entries(attributes)) {
    const lower = name.toLowerCase();
    let kept: string | undefined;
    if ((lower === "href" && tag === "a") || (lower === "src" && tag === "img")) kept = safeLink(value);
    else if (PLAIN_ATTRIBUTES.has(lower)) kept = value;
    if (kept !== undefined) out += ` ${lower}="${escapeHtml(kept)}"`;
  }
  return tag === "a" && attributes["href"] !== undefined ? `${out} rel="noopener noreferrer"` : out;
}

/**
 * Raw HTML, fragment by fragment as markdown-it hands it over (an element may open in one
 * fragment and close in a later one): each re-written with the allow-list, other tags dropped
 * (their text kept), hidden ones (script, style…) with their content. The open elements are
 * remembered across fragments, so a closing tag alone closes them and `close()` ends what the
 * markdown left open: the HTML never spills past the preview.
 */
export class HtmlSanitizer {
  private readonly open: string[] = [];

  write(fragment: string): string {
    const closing = /^<\/([A-Za-z][A-Za-z0-9-]*)\s*>$/.exec(fragment.trim());
    if (closing) return this.closeTag(closing[1]!.toLowerCase());
    let out = "";
    let hidden = 0;
    const parser = new Parser(
      {
        onopentag: (name, attributes) => {
          if (HIDDEN_TAGS.has(name)) hidden++;
          else if (hidden === 0 && ALLOWED_TAGS.has(name)) {
            out += `<${name}${attributesOf(name, attributes)}>`;
            if (!VOID_TAGS.has(name)) this.open.push(name);
          }
        },
        ontext: (text) => {
          if (hidden === 0) out += escapeHtml(text);
        },
        onclosetag: (name, implied) => {
          if (HIDDEN_TAGS.has(name)) hidden = Math.max(0, hidden - 1);
          else if (hidden === 0 && !implied) out += this.closeTag(name);
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
    );
    parser.write(fragment);
    parser.end();
    return out;
  }

  /** Closes `name` and what opened after it, when it is open; nothing otherwise. */
  private closeTag(name: string): string {
    const at = this.open.lastIndexOf(name);
    if (at < 0) return "";
    return this.open
      .splice(at)
      .reverse()
      .map((tag) => `</${tag}>`)
      .join("");
  }

  /** Closes every element still open. */
  close(): string {
    return this.closeTag(this.open[0] ?? "");
  }
}

interface PreviewEnv {
  html: HtmlSanitizer;
}

const alignClass = (align: GfmTable["aligns"][number]) => (align ? ` class="align-${align}"` : "");

type Rule = NonNullable<MarkdownIt["renderer"]["rules"]["text"]>;

/** A GFM table (one token, ./gfm-table.ts); the inline tokens of its rich cells follow it and are consumed here. */
const gfmTable: Rule = (tokens, idx, options, env, self) => {
  const table = tokens[idx]!.meta as GfmTable;
  const columns = table.aligns.length;
  const rich = new Map<number, Token>();
  table.inline.forEach((cell, i) => {
    const token = tokens[idx + 1 + i];
    if (token?.type !== "inline") return;
    rich.set(cell, token);
    token.type = "gfm_cell_consumed";
  });
  const cell = (row: number, column: number, tag: "th" | "td") => {
    const token = rich.get(row * columns + column);
    const content = token ? self.renderInline(token.children ?? [], options, env) : escapeHtml(table.rows[row]?.[column] ?? "");
    return `<${tag}${alignClass(table.aligns[column])}>${content}</${tag}>`;
  };
  const rowHtml = (row: number, tag: "th" | "td") => `<tr>${table.aligns.map((_, column) => cell(row, column, tag)).join("")}</tr>\n`;
  let body = "";
  for (let row = 1; row < table.rows.length; row++) body += rowHtml(row, "td");
  return `<table>\n<thead>\n${rowHtml(0, "th")}</thead>\n${body ? `<tbody>\n${body}</tbody>\n` : ""}</table>\n`;
};

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt("default", { html: true });
  // markdown-it-footnote's render rules for the footnote tokens the shared parser makes.
  md.use(footnote as unknown as (md: MarkdownIt) => void);
  const rules = md.renderer.rules;
  rules.html_block = (tokens, idx, _options, env: PreviewEnv) => env.html.write(tokens[idx]!.content);
  rules.html_inline = (tokens, idx, _options, env: PreviewEnv) => env.html.write(tokens[idx]!.content);
  rules.emoji = (tokens, idx) => escapeHtml(tokens[idx]!.content);
  rules.gfm_table = gfmTable;
  rules.gfm_cell_consumed = () => "";
  return md;
}

const renderer = createRenderer();

/** The document's markdown as sanitised HTML: what its reader sees, and the editor's preview. */
export function renderPreviewHtml(markdown: string): string {
  const front = splitFrontMatter(markdown);
  const tokens = parseMarkdown(front ? front.body : markdown);
  const env: PreviewEnv = { html: new HtmlSanitizer() };
  const html = renderer.renderer.render(tokens, renderer.options, env) + env.html.close();
  if (!front || front.rows.length === 0) return html;
  const rows = front.rows.map(([key, value]) => `<tr><th scope="row">${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`).join("\n");
  return `<table class="front-matter">\n<tbody>\n${rows}\n</tbody>\n</table>\n${html}`;
}
