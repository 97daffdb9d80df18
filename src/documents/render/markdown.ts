// The one markdown-it parser: CommonMark + GFM tables, strikethrough and autolinks. `html: true`
// only so raw HTML arrives as html_block / html_inline tokens, which the renderer writes out as
// literal text; nothing ever renders markdown-it's HTML output.
import MarkdownIt, { type Token } from "markdown-it";

export type { Token };

interface LinkifySelf {
  re: Record<string, unknown> & { src_auth: string; src_host_port_strict: string; src_path: string };
}

function createParser(): MarkdownIt {
  const md = new MarkdownIt("default", { html: true, linkify: true, typographer: false, breaks: false });
  // GFM's extended autolinks are http(s)://…, www.… and e-mail addresses. linkify-it's fuzzy mode
  // would also link bare domains ("README.md" is a Moldovan domain), so it is off and "www." is
  // added back as a prefix that must be followed by a valid host and path.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: true });
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
  return md;
}

const parser = createParser();

export function parseMarkdown(markdown: string): Token[] {
  return parser.parse(markdown, {});
}
