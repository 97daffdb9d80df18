// The blocks (./blocks.ts) a browser shows for an HTML fragment: the CommonMark spec's expected
// output, parsed with htmlparser2. Raw HTML passes through the spec's output; it is read as the
// renderer's contract reads raw HTML (docs/api.md, the raw-HTML row): headings, paragraphs, lists,
// quotes, tables, <pre>, hidden elements gone, any other tag dropped with its text kept.
import { Parser } from "htmlparser2";
import { TextCollector, type Block } from "./blocks.ts";

const HIDDEN = new Set(["script", "style", "template", "title", "textarea", "noscript"]);
const LEAVES = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "td", "th"]);
/** Block elements that only end the paragraph before them (their content is paragraphs of its own). */
const BOUNDARIES = new Set([
  "div",
  "center",
  "section",
  "article",
  "aside",
  "header",
  "footer",
  "main",
  "nav",
  "figure",
  "figcaption",
  "details",
  "summary",
  "dl",
  "dt",
  "dd",
  "address",
  "hgroup",
  "fieldset",
  "form",
  "caption",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
]);
const FORMATS: Record<string, string> = {
  strong: "b",
  b: "b",
  em: "i",
  i: "i",
  del: "s",
  s: "s",
  strike: "s",
  code: "c",
  kbd: "c",
  samp: "c",
  tt: "c",
};

interface List {
  ordered: boolean;
  next: number;
}

export function htmlBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  const lists: List[] = [];
  const formats: string[] = [];
  let quotes = 0;
  let items = 0;
  let hidden = 0;
  let cells = 0;
  /** The marker the open item's first block carries, until that block starts. */
  let pendingMarker = "";
  let current: { block: Block; text: TextCollector; code: boolean } | undefined;

  const start = (kind: string) => {
    end();
    const cell = kind === "cell";
    // Word has one paragraph style: a heading or code line in a quote is that, indented (see ./blocks.ts).
    const block: Block = {
      kind,
      depth: cell ? 0 : quotes + items,
      quote: (kind === "p" || kind === "hr") && quotes > 0,
      marker: cell ? "" : pendingMarker,
      text: "",
    };
    if (!cell) pendingMarker = "";
    current = { block, text: new TextCollector(), code: kind === "code" };
  };
  const end = () => {
    if (!current) return;
    const { block, text, code } = current;
    current = undefined;
    if (code) {
      let content = text.raw();
      if (content.endsWith("\n")) content = content.slice(0, -1);
      content.split("\n").forEach((line, i) => blocks.push({ ...block, marker: i === 0 ? block.marker : "", text: line }));
      return;
    }
    block.text = text.marked();
    // An implicit paragraph of whitespace only (between block tags) is no block.
    if (block.kind === "p" && block.text === "" && !block.marker) return;
    blocks.push(block);
  };
  /**
   * An item whose first block is a nested list: Word cannot put two markers on one line, so the
   * item's marker is a block of its own before the nested list (the renderer writes it so).
   */
  const settleMarker = () => {
    if (!pendingMarker) return;
    blocks.push({ kind: "p", depth: quotes + items, quote: quotes > 0, marker: pendingMarker, text: "" });
    pendingMarker = "";
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (hidden > 0 || HIDDEN.has(name)) {
          hidden++;
          return;
        }
        if (current?.code) return;
        if (cells > 0 && name !== "td" && name !== "th" && !FORMATS[name] && name !== "a" && name !== "img" && name !== "br") return;
        if (name === "blockquote") {
          // A quote as an item's first block carries the item's marker on its first paragraph.
          end();
          quotes++;
        } else if (name === "ul" || name === "ol") {
          end();
          settleMarker();
          const first = Number(attribs["start"] ?? "1");
          lists.push({ ordered: name === "ol", next: Number.isFinite(first) ? first : 1 });
        } else if (name === "li") {
          end();
          items++;
          const list = lists[lists.length - 1];
          pendingMarker = list?.ordered ? `${list.next++}.` : "•";
        } else if (name === "hr") {
          start("hr");
          const rule = current!.block;
          current = undefined;
          blocks.push(rule);
        } else if (LEAVES.has(name)) {
          if (name === "td" || name === "th") cells++;
          start(name === "pre" ? "code" : name === "td" || name === "th" ? "cell" : /^h\d$/.test(name) ? name : "p");
        } else if (BOUNDARIES.has(name)) {
          end();
        } else if (FORMATS[name]) {
          formats.push(FORMATS[name]);
        } else if (name === "a") {
          formats.push(attribs["href"] !== undefined ? `a<${attribs["href"]}>` : "");
        } else if (name === "img") {
          // The renderer shows an image it does not embed as a placeholder (docs/api.md): its
          // mark, then the alt text or, without one, the source's file name.
          const alt = (attribs["alt"] ?? "").trim();
          text(`\u{1F5BC}\uFE0F ${alt || (attribs["src"] ?? "").split(/[?#]/)[0]!.split("/").pop() || "image"}`);
        } else if (name === "br") {
          text(" ");
        }
      },
      onclosetag(name) {
        if (hidden > 0) {
          hidden--;
          return;
        }
        if (current?.code && name !== "pre") return;
        if (cells > 0 && name !== "td" && name !== "th" && !FORMATS[name] && name !== "a") return;
        if (name === "blockquote") {
          end();
          quotes--;
        } else if (name === "ul" || name === "ol") {
          end();
          lists.pop();
        } else if (name === "li") {
          end();
          settleMarker(); // an empty item still shows its marker
          items--;
        } else if (LEAVES.has(name)) {
          if (name === "td" || name === "th") cells--;
          end();
        } else if (BOUNDARIES.has(name)) {
          end();
        } else if (FORMATS[name] || name === "a") {
          formats.pop();
        }
      },
      ontext(data) {
        if (hidden > 0) return;
        text(data);
      },
    },
    { decodeEntities: true },
  );

  function text(data: string): void {
    if (!current) {
      if (/^\s*$/.test(data)) return;
      start("p");
    }
    current!.text.add(
      data,
      formats.filter((f) => f !== ""),
    );
  }

  parser.write(html);
  parser.end();
  end();
  return blocks;
}
