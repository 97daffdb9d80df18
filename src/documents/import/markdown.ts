// mammoth's HTML → markdown for our renderer (CommonMark + GFM, as ../render/markdown.ts reads it):
// headings, paragraphs, nested bullet and ordered lists, GFM pipe tables, fenced code blocks,
// quotes and footnotes; inline content by ./inline.ts. Written with htmlparser2 rather than a
// general HTML→markdown library because mammoth's HTML is a small fixed vocabulary and the
// markdown must survive a second render exactly (escaping, list and table shapes, footnotes).
import { parseHtml, startsList, textContent, type HtmlElement, type HtmlNode } from "./html-tree.ts";
import { escapeLineStarts, escapeText, InlineWriter, noteLabel, type InlineContext } from "./inline.ts";

interface Block {
  kind: "paragraph" | "heading" | "bullets" | "numbers" | "table" | "code" | "quote" | "note";
  markdown: string;
}

const INLINE = new Set(["a", "strong", "b", "em", "i", "s", "del", "strike", "u", "code", "sup", "sub", "br", "img", "span"]);
const isInline = (node: HtmlNode): boolean => typeof node === "string" || INLINE.has(node.tag);

const inline = (nodes: readonly HtmlNode[], context: InlineContext = "paragraph"): string => new InlineWriter(context).write(nodes).trim();

/** Leading whitespace of a paragraph would be dropped or start a code block: kept as character references. */
function paragraphText(nodes: readonly HtmlNode[]): string {
  const writer = new InlineWriter("paragraph");
  let text = writer
    .write(nodes)
    .replace(/(\\\n)+$/, "")
    .trimEnd();
  text = text.replace(/^[ \t]+/, (ws) => ws.replace(/ /g, "&#32;").replace(/\t/g, "&#9;"));
  return escapeLineStarts(text.replace(/\n[ \t]+/g, "\n"));
}

export function htmlToMarkdown(html: string): string {
  const nodes = parseHtml(html);
  const body: Block[] = [];
  const notes: Block[] = [];
  for (const block of blocks(nodes)) (block.kind === "note" ? notes : body).push(block);
  return join([...body, ...notes]);
}

/** Blocks joined by a blank line; two lists of one kind in a row are kept apart by an HTML comment. */
function join(list: readonly Block[]): string {
  let out = "";
  list.forEach((block, i) => {
    const previous = list[i - 1];
    if (previous)
      out += previous.kind === block.kind && (block.kind === "bullets" || block.kind === "numbers") ? "\n\n<!-- -->\n\n" : "\n\n";
    out += block.markdown;
  });
  return out ? `${out}\n` : "";
}

function blocks(nodes: readonly HtmlNode[]): Block[] {
  const out: Block[] = [];
  let run: HtmlNode[] = [];
  const flush = () => {
    const text = paragraphText(run);
    if (text.trim()) out.push({ kind: "paragraph", markdown: text });
    run = [];
  };
  for (const node of nodes) {
    if (isInline(node)) {
      run.push(node);
      continue;
    }
    flush();
    out.push(...block(node as HtmlElement));
  }
  flush();
  return out;
}

function block(element: HtmlElement): Block[] {
  const heading = /^h([1-6])$/.exec(element.tag);
  if (heading) {
    const text = inline(element.children, "heading").replace(/#+$/, (hashes) => hashes.replace(/#/g, "\\#"));
    return text ? [{ kind: "heading", markdown: `${"#".repeat(Number(heading[1]))} ${text}` }] : [];
  }
  switch (element.tag) {
    case "p": {
      const text = paragraphText(element.children);
      return text.trim() ? [{ kind: "paragraph", markdown: text }] : [];
    }
    case "ul":
    case "ol":
      return notesOf(element) ?? list(element);
    case "table":
      return table(element);
    case "pre":
      return [{ kind: "code", markdown: fence(textContent(element)) }];
    case "blockquote": {
      const inner = join(blocks(element.children)).trimEnd();
      return inner ? [{ kind: "quote", markdown: prefix(inner, "> ", "> ", ">") }] : [];
    }
    default:
      return blocks(element.children);
  }
}

function prefix(text: string, first: string, rest: string, blank: string): string {
  return text
    .split("\n")
    .map((line, i) => (i === 0 ? first + line : line ? rest + line : blank))
    .join("\n");
}

function fence(code: string): string {
  const body = code.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  let longest = 0;
  for (const run of body.match(/^ {0,3}`{3,}/gm) ?? []) longest = Math.max(longest, run.trim().length);
  const marks = "`".repeat(Math.max(3, longest + 1));
  return `${marks}\n${body}\n${marks}`;
}

/** A list, or several where ./lists.ts marked an item as the start of a new Word list. */
function list(element: HtmlElement): Block[] {
  const ordered = element.tag === "ol";
  const lists: HtmlElement[][] = [];
  for (const child of element.children) {
    if (typeof child === "string" || child.tag !== "li") continue;
    if (lists.length === 0 || startsList(child)) lists.push([]);
    lists[lists.length - 1]!.push(child);
  }
  return lists.map((items) => {
    const lines = items.map((item, i) => {
      const marker = ordered ? `${i + 1}.` : "-";
      const content = itemContent(item.children);
      return content ? prefix(content, `${marker} `, " ".repeat(marker.length + 1), "") : marker;
    });
    return { kind: ordered ? "numbers" : "bullets", markdown: lines.join("\n") };
  });
}

/** An item's blocks: a nested list follows its text on the next line, anything else after a blank line. */
function itemContent(nodes: readonly HtmlNode[]): string {
  const parts = blocks(nodes);
  let out = "";
  parts.forEach((part, i) => {
    if (i > 0)
      out += part.kind === "bullets" || part.kind === "numbers" ? (parts[i - 1]!.kind === part.kind ? "\n\n<!-- -->\n\n" : "\n") : "\n\n";
    out += part.markdown;
  });
  return out;
}

/** mammoth's notes list (items with id footnote-N / endnote-N) as markdown footnote definitions. */
function notesOf(element: HtmlElement): Block[] | undefined {
  const items = element.children.filter((c): c is HtmlElement => typeof c !== "string");
  const labels = items.map((item) => noteLabel(`#${item.attrs["id"] ?? ""}`));
  if (items.length === 0 || items.some((item) => item.tag !== "li") || labels.some((l) => !l)) return undefined;
  return items.map((item, i) => {
    const content = itemContent(withoutBackLinks(item.children)) || escapeText(" ");
    return { kind: "note", markdown: prefix(content, `[^${labels[i]!}]: `, "    ", "") };
  });
}

/** mammoth ends each note with a link back to its reference ("↑"): not part of the note. */
function withoutBackLinks(nodes: readonly HtmlNode[]): HtmlNode[] {
  return nodes
    .filter((n) => typeof n === "string" || !(n.tag === "a" && /^#(footnote|endnote)-ref-/.test(n.attrs["href"] ?? "")))
    .map((n) => (typeof n === "string" ? n : { ...n, children: withoutBackLinks(n.children) }));
}

interface Cell {
  text: string;
  header: boolean;
}

function table(element: HtmlElement): Block[] {
  const rows: HtmlElement[] = [];
  const collect = (nodes: readonly HtmlNode[]) => {
    for (const node of nodes) {
      if (typeof node === "string") continue;
      if (node.tag === "tr") rows.push(node);
      else if (node.tag === "thead" || node.tag === "tbody" || node.tag === "tfoot") collect(node.children);
    }
  };
  collect(element.children);
  // A grid, so that merged cells (colspan, rowspan) leave empty cells where they reach.
  const grid: (Cell | undefined)[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row.children) {
      if (typeof cell === "string" || (cell.tag !== "td" && cell.tag !== "th")) continue;
      while (grid[r]![c]) c++;
      const across = span(cell.attrs["colspan"]);
      const down = span(cell.attrs["rowspan"]);
      for (let dr = 0; dr < down && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < across; dc++)
          grid[r + dr]![c + dc] =
            dr === 0 && dc === 0
              ? { text: cellText(cell.children, cell.tag === "th"), header: cell.tag === "th" }
              : { text: "", header: false };
      }
      c += across;
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  if (width === 0) return [];
  const line = (row: (Cell | undefined)[]) => `| ${Array.from({ length: width }, (_, c) => row[c]?.text ?? "").join(" | ")} |`;
  // GFM tables need a header row: a table without one gets its first row as the header.
  const lines = [line(grid[0]!), `|${" --- |".repeat(width)}`, ...grid.slice(1).map(line)];
  return [{ kind: "table", markdown: lines.join("\n") }];
}

function span(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isSafeInteger(n) && n >= 1 ? Math.min(n, 1000) : 1;
}

/**
 * A cell's blocks on one line: paragraphs and list items separated by <br>. A header cell's
 * bold is the header's own look (our renderer and Word make header rows bold), not emphasis.
 */
function cellText(nodes: readonly HtmlNode[], header = false): string {
  const parts: string[] = [];
  const walk = (children: readonly HtmlNode[]) => {
    let run: HtmlNode[] = [];
    const flush = () => {
      const text = inline(run, "cell");
      if (text) parts.push(text);
      run = [];
    };
    for (const node of children) {
      if (isInline(node)) run.push(node);
      else {
        flush();
        walk((node as HtmlElement).children);
      }
    }
    flush();
  };
  walk(nodes);
  const text = parts.join("<br>");
  const bold = header ? /^\*\*([^*]*)\*\*$/.exec(text) : null;
  return bold ? bold[1]! : text;
}
