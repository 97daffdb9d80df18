// Raw HTML blocks as Word structure (docs/api.md "Markdown to .docx", the raw-HTML row).
//
// markdown-it gives each HTML block (up to a blank line) as one html_block token; an element may
// open in one block and close in a later one, with markdown between (`<details>`, blank line,
// markdown, `</details>`). So one htmlparser2 parser per document is fed every html_block in
// order, and keeps its open elements between them; this class turns its events into blocks
// through a BlockSink (the document builder): headings, aligned paragraphs, lists, quotes, simple
// tables, code blocks, rules. Inline tags go to the open paragraph's InlineBuilder. Comments,
// <script> and <style> (with their content) give nothing; any other tag is dropped and its text
// kept. Text never carries a tag: htmlparser2 has already taken the markup apart.
import { Parser } from "htmlparser2";
import { HIDDEN_TAGS, InlineBuilder } from "./inline.ts";
import type { CellAlignment } from "./table.ts";

export type ParagraphAlign = "left" | "center" | "right" | "both";

export interface ParagraphKind {
  /** 1…6 for <h1>…<h6>. */
  heading?: number;
  align?: ParagraphAlign;
  /** An HTML `dir` of rtl or ltr around the paragraph (otherwise its first strong character decides). */
  dir?: TextDir;
}

export type TextDir = "rtl" | "ltr";

export interface HtmlCell {
  inline: InlineBuilder;
  align: CellAlignment;
  /** A <th>. */
  header: boolean;
}

export interface HtmlRow {
  header: boolean;
  cells: HtmlCell[];
}

/** What the document builder offers HTML blocks: the same structures markdown makes. */
export interface BlockSink {
  paragraph(inline: InlineBuilder, kind: ParagraphKind): void;
  code(content: string): void;
  rule(): void;
  openList(ordered: boolean, start: number): void;
  closeList(): void;
  openItem(): void;
  closeItem(): void;
  openQuote(): void;
  closeQuote(): void;
  table(rows: HtmlRow[]): void;
}

type FrameKind =
  | "hidden"
  | "pre"
  | "table"
  | "nested-table"
  | "cell-list"
  | "thead"
  | "row"
  | "cell"
  | "block"
  | "summary"
  | "list"
  | "item"
  | "quote"
  | "inline"
  | "other";

interface Frame {
  name: string;
  kind: FrameKind;
  heading?: number;
  align?: ParagraphAlign;
  /** list / item / quote: whether a container was opened in the sink (and must be closed there). */
  opened?: boolean;
  /** inline: the builder whose formatting the tag changed. */
  target?: InlineBuilder;
  /** The element's `dir` attribute, when rtl or ltr. */
  dir?: TextDir;
}

interface OpenTable {
  rows: HtmlRow[];
  inHead: boolean;
}

/** HTML lists, items and quotes nested deeper than this are written flat (their text kept). */
const MAX_CONTAINERS = 32;

const HEADING = /^h([1-6])$/;

/** Elements that end a paragraph and start another (their text kept, the tag itself dropped). */
const BLOCK_TAGS = new Set([
  "p",
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
  "dl",
  "dt",
  "dd",
  "address",
  "hgroup",
  "fieldset",
  "form",
  "caption",
]);

/** Inside a table cell these only separate words (a cell is one paragraph). */
const CELL_SEPARATORS = new Set([
  ...BLOCK_TAGS,
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "blockquote",
  "summary",
  "hr",
  "pre",
  "tr",
  "td",
  "th",
]);

function dirOf(value: string | undefined): TextDir | undefined {
  const dir = value?.trim().toLowerCase();
  return dir === "rtl" || dir === "ltr" ? dir : undefined;
}

function alignOf(value: string | undefined): ParagraphAlign | undefined {
  switch (value?.trim().toLowerCase()) {
    case "left":
      return "left";
    case "center":
    case "middle":
      return "center";
    case "right":
      return "right";
    case "justify":
      return "both";
    default:
      return undefined;
  }
}

export class HtmlBlocks {
  private readonly parser: Parser;
  private readonly frames: Frame[] = [];
  private readonly tables: OpenTable[] = [];
  private current: { inline: InlineBuilder; kind: ParagraphKind } | undefined;
  private cell: HtmlCell | undefined;
  private pre: string | undefined;
  /** A tag (<code>, say) came before any text of the open <pre>: its first newline is content then. */
  private preTagFirst = false;
  private hidden = 0;
  private nestedTables = 0;
  /** Lists open inside the current table cell: their items are lines of the cell's one paragraph. */
  private readonly cellLists: { ordered: boolean; next: number }[] = [];
  private containers = 0;

  constructor(private readonly sink: BlockSink) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name) => this.close(name),
        ontext: (text) => this.text(text),
      },
      { decodeEntities: true },
    );
  }

  /** One html_block token's content. */
  write(html: string): void {
    this.parser.write(html);
  }

  /** Before a markdown block: the open HTML paragraph (if any) is written first. */
  endParagraph(): void {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    current.inline.finish();
    if (!current.inline.isEmpty()) this.sink.paragraph(current.inline, current.kind);
  }

  /** The `dir` of the innermost open element that has one: markdown between HTML blocks takes it too. */
  direction(): TextDir | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const dir = this.frames[i]!.dir;
      if (dir) return dir;
    }
    return undefined;
  }

  /** How many HTML elements are open (a mark for closeFrom). */
  depth(): number {
    return this.frames.length;
  }

  /**
   * When a markdown container (a list, an item, a quote) closes: HTML elements opened inside it
   * and never closed close with it, so the builder's stacks stay nested; the open paragraph ends.
   */
  closeFrom(mark: number): void {
    this.endParagraph();
    if (mark < this.frames.length) this.popTo(mark);
    this.endParagraph();
  }

  /** At the document's end: every element still open is closed (lists, tables written). */
  end(): void {
    this.parser.end();
    this.popTo(0);
    this.endParagraph();
  }

  /** An element's start: its frame, with its `dir` (which the paragraphs inside it take). */
  private open(name: string, attribs: Record<string, string>): void {
    const depth = this.frames.length;
    this.openElement(name, attribs);
    const dir = attribs["dir"] === undefined ? undefined : dirOf(attribs["dir"]);
    if (dir && this.frames.length > depth) this.frames[this.frames.length - 1]!.dir = dir;
  }

  private openElement(name: string, attribs: Record<string, string>): void {
    if (this.hidden > 0) {
      this.frames.push({ name, kind: "other" });
      return;
    }
    if (HIDDEN_TAGS.has(name)) {
      this.hidden++;
      this.frames.push({ name, kind: "hidden" });
      return;
    }
    if (this.pre !== undefined) {
      if (this.pre === "") this.preTagFirst = true;
      if (name === "br") this.pre += "\n";
      this.frames.push({ name, kind: "other" });
      return;
    }
    const cell = this.cell;
    if (cell) {
      if (name === "table") {
        this.nestedTables++;
        cell.inline.htmlSpace();
        this.frames.push({ name, kind: "nested-table" });
      } else if (name === "ul" || name === "ol") {
        const start = Number(attribs["start"] ?? "1");
        this.cellLists.push({ ordered: name === "ol", next: Number.isSafeInteger(start) ? start : 1 });
        cell.inline.htmlSpace();
        this.frames.push({ name, kind: "cell-list" });
      } else if (name === "li") {
        this.cellItem(cell.inline);
        this.frames.push({ name, kind: "other" });
      } else if (CELL_SEPARATORS.has(name)) {
        cell.inline.htmlSpace();
        this.frames.push({ name, kind: "other" });
      } else {
        cell.inline.openTag(name, attribs);
        this.frames.push({ name, kind: "inline", target: cell.inline });
      }
      return;
    }
    const table = this.tables[this.tables.length - 1];
    if (table && (name === "thead" || name === "tbody" || name === "tfoot" || name === "tr" || name === "td" || name === "th")) {
      this.tablePart(table, name, attribs);
      return;
    }
    const heading = HEADING.exec(name);
    if (heading) {
      this.endParagraph();
      this.frames.push({ name, kind: "block", heading: Number(heading[1]), align: alignOf(attribs["align"]) });
      return;
    }
    if (BLOCK_TAGS.has(name)) {
      this.endParagraph();
      const align = name === "p" || name === "div" ? alignOf(attribs["align"]) : name === "center" ? "center" : undefined;
      this.frames.push({ name, kind: "block", ...(align ? { align } : {}) });
      return;
    }
    switch (name) {
      case "summary":
        this.endParagraph();
        this.frames.push({ name, kind: "summary" });
        return;
      case "pre":
        this.endParagraph();
        this.pre = "";
        this.preTagFirst = false;
        this.frames.push({ name, kind: "pre" });
        return;
      case "table":
        this.endParagraph();
        this.tables.push({ rows: [], inHead: false });
        this.frames.push({ name, kind: "table" });
        return;
      case "hr":
        this.endParagraph();
        this.sink.rule();
        this.frames.push({ name, kind: "other" });
        return;
      case "ul":
      case "ol": {
        this.endParagraph();
        const opened = this.containers < MAX_CONTAINERS;
        if (opened) {
          this.containers++;
          const start = Number(attribs["start"] ?? "1");
          this.sink.openList(name === "ol", Number.isSafeInteger(start) && start >= 0 ? start : 1);
        }
        this.frames.push({ name, kind: "list", opened });
        return;
      }
      case "li": {
        this.endParagraph();
        const list = this.nearest("list");
        const opened = list?.opened === true && this.containers < MAX_CONTAINERS;
        if (opened) {
          this.containers++;
          this.sink.openItem();
        }
        this.frames.push({ name, kind: "item", opened });
        return;
      }
      case "blockquote": {
        this.endParagraph();
        const opened = this.containers < MAX_CONTAINERS;
        if (opened) {
          this.containers++;
          this.sink.openQuote();
        }
        this.frames.push({ name, kind: "quote", opened });
        return;
      }
    }
    // Inline tags (and unknown ones, which InlineBuilder drops) belong to a paragraph.
    const inline = this.paragraph();
    inline.openTag(name, attribs);
    this.frames.push({ name, kind: "inline", target: inline });
  }

  /**
   * An <li> in a table cell (a cell is one paragraph): a line of its own, after a line break,
   * starting with its bullet or number as a browser shows it ("1. Getting Started").
   */
  private cellItem(inline: InlineBuilder): void {
    const list = this.cellLists[this.cellLists.length - 1];
    if (!inline.isEmpty()) inline.lineBreak();
    inline.htmlText(list?.ordered ? `${list.next++}. ` : "• ");
  }

  private tablePart(table: OpenTable, name: string, attribs: Record<string, string>): void {
    if (name === "thead") {
      table.inHead = true;
      this.frames.push({ name, kind: "thead" });
    } else if (name === "tr") {
      table.rows.push({ header: table.inHead, cells: [] });
      this.frames.push({ name, kind: "row" });
    } else if (name === "td" || name === "th") {
      if (table.rows.length === 0) table.rows.push({ header: table.inHead, cells: [] });
      const align = alignOf(attribs["align"]);
      const cell: HtmlCell = {
        inline: new InlineBuilder(name === "th"),
        align: align === "both" ? undefined : align,
        header: name === "th",
      };
      table.rows[table.rows.length - 1]!.cells.push(cell);
      this.cell = cell;
      this.frames.push({ name, kind: "cell" });
    } else {
      this.frames.push({ name, kind: "other" });
    }
  }

  private close(name: string): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      if (this.frames[i]!.name === name) {
        this.popTo(i);
        return;
      }
    }
    // An end tag whose element is not open (closed already by a markdown container): nothing.
  }

  /** Closes frames from the top down to and including `index`. */
  private popTo(index: number): void {
    while (this.frames.length > index) this.closeFrame(this.frames.pop()!);
  }

  private closeFrame(frame: Frame): void {
    switch (frame.kind) {
      case "hidden":
        this.hidden--;
        break;
      case "pre": {
        let content = this.pre ?? "";
        this.pre = undefined;
        // As in HTML, a newline right after <pre> (not after <pre><code>) is not content; nor is the one before </pre>.
        if (this.preTagFirst) this.preTagFirst = false;
        else if (content.startsWith("\r\n")) content = content.slice(2);
        else if (content.startsWith("\n")) content = content.slice(1);
        if (content.endsWith("\n")) content = content.slice(0, -1);
        this.sink.code(content);
        break;
      }
      case "cell-list":
        this.cellLists.pop();
        this.cell?.inline.htmlSpace();
        break;
      case "nested-table":
        this.nestedTables--;
        this.cell?.inline.htmlSpace();
        break;
      case "cell":
        this.cell?.inline.finish();
        this.cell = undefined;
        break;
      case "thead": {
        const table = this.tables[this.tables.length - 1];
        if (table) table.inHead = false;
        break;
      }
      case "table": {
        const table = this.tables.pop()!;
        this.endParagraph();
        for (const row of table.rows) {
          // A row of <th> cells only is a header row too (the common way READMEs write one).
          if (!row.header && row.cells.length > 0 && row === table.rows[0] && row.cells.every((cell) => cell.header)) row.header = true;
        }
        if (table.rows.some((row) => row.cells.length > 0)) this.sink.table(table.rows);
        break;
      }
      case "block":
      case "summary":
        this.endParagraph();
        break;
      case "list":
      case "item":
      case "quote":
        if (frame.opened) this.closeContainer(frame.kind);
        break;
      case "inline":
        frame.target?.closeTag(frame.name);
        break;
      default:
        break;
    }
  }

  /** The end of a list, item or quote that was opened (past MAX_CONTAINERS, none is). */
  private closeContainer(kind: "list" | "item" | "quote"): void {
    this.endParagraph();
    this.containers--;
    if (kind === "list") this.sink.closeList();
    else if (kind === "item") this.sink.closeItem();
    else this.sink.closeQuote();
  }

  private text(text: string): void {
    if (this.hidden > 0) return;
    if (this.pre !== undefined) {
      this.pre += text;
      return;
    }
    if (this.cell) {
      this.cell.inline.htmlText(text);
      return;
    }
    // Whitespace between blocks (indentation, line ends) is not a paragraph.
    if (!this.current && /^[ \t\n\r\f]*$/.test(text)) return;
    this.paragraph().htmlText(text);
  }

  /** The open paragraph, started when its first content arrives. */
  private paragraph(): InlineBuilder {
    if (this.current) return this.current.inline;
    const kind: ParagraphKind = {};
    let bold = false;
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!;
      if (frame.kind === "summary") bold = true;
      if (frame.heading !== undefined && kind.heading === undefined) kind.heading = frame.heading;
      if (frame.align !== undefined && kind.align === undefined) kind.align = frame.align;
      if (frame.dir !== undefined && kind.dir === undefined) kind.dir = frame.dir;
    }
    const inline = new InlineBuilder(bold);
    this.current = { inline, kind };
    return inline;
  }

  private nearest(kind: FrameKind): Frame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) if (this.frames[i]!.kind === kind) return this.frames[i];
    return undefined;
  }
}
