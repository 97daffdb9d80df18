// markdown → .docx, and the document's text, in one pass over markdown-it's tokens.
//
// Every construct of CONTRACT §5 becomes Word structure (styles, run properties, hyperlinks with
// external relationships, numbering, tables, borders, images). While each paragraph is built, its
// text is appended following mammoth's raw-text rules (see ./text.ts), so the text never has to be
// extracted from the .docx again.
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  WidthType,
  type IParagraphOptions,
  type NumberingDefinition,
  type ParagraphChild,
} from "docx";
import { decodeDataImage } from "./images.ts";
import { BOLD, CODE, ITALIC, LINK, STRIKE, breakRun, textRun } from "./runs.ts";
import { parseMarkdown, type Token } from "./markdown.ts";
import {
  BULLET_REFERENCE,
  CODE_STYLE,
  HANGING,
  INDENT_STEP,
  MAX_WORD_LEVEL,
  QUOTE_STYLE,
  decimalDefinition,
  numbering,
  styles,
} from "./styles.ts";
import { normalizeExtractedText, runText, xmlSafe } from "./text.ts";

export interface RenderOptions {
  /** The document's title, written to its core properties (docProps/core.xml). */
  title: string;
}

export interface RenderResult {
  /** The .docx package. */
  docx: Uint8Array;
  /** The document's text, equal to normalizeExtractedText(mammoth.extractRawText(docx).value). */
  text: string;
}

/** A4 with docx's default 1440-twip margins leaves this much width for text. */
const TEXT_WIDTH = 11906 - 2 * 1440;

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

const CHECKBOX_OPEN = "\u2610"; // ☐
const CHECKBOX_DONE = "\u2612"; // ☒
const TASK_MARKER = /^\[([ xX])\][ \t]+/;

const RULE_BORDER = { bottom: { style: BorderStyle.SINGLE, size: 6, color: "auto", space: 1 } } as const;

type Writable<T> = { -readonly [K in keyof T]: T[K] };
type Block = Paragraph | Table;

interface Format {
  bold: number;
  italics: number;
  strike: number;
}

/** Builds the children of one paragraph from an inline token stream, and the paragraph's text. */
class InlineBuilder {
  readonly children: ParagraphChild[] = [];
  text = "";
  private target: ParagraphChild[] = this.children;
  private linkHref: string | undefined;
  private pending = "";
  private pendingKey = -1;
  private readonly format: Format = { bold: 0, italics: 0, strike: 0 };

  constructor(private readonly forceBold = false) {}

  build(tokens: readonly Token[]): this {
    for (const token of tokens) this.token(token);
    this.flush();
    this.closeLink();
    return this;
  }

  private token(token: Token): void {
    switch (token.type) {
      case "text":
        this.append(token.content, false);
        break;
      case "softbreak":
        this.append(" ", false);
        break;
      case "hardbreak":
        this.endWithSpace();
        this.flush();
        this.target.push(breakRun());
        break;
      case "code_inline":
        this.append(token.content, true);
        break;
      case "html_inline":
        this.append(token.content, false);
        break;
      case "strong_open":
        this.format.bold++;
        break;
      case "strong_close":
        this.format.bold--;
        break;
      case "em_open":
        this.format.italics++;
        break;
      case "em_close":
        this.format.italics--;
        break;
      case "s_open":
        this.format.strike++;
        break;
      case "s_close":
        this.format.strike--;
        break;
      case "link_open":
        this.flush();
        this.closeLink();
        this.linkHref = token.attrGet("href") ?? "";
        this.target = [];
        break;
      case "link_close":
        this.flush();
        this.closeLink();
        break;
      case "image":
        this.image(token);
        break;
      default:
        // Unknown inline tokens (none with this parser's rules) keep their literal content.
        if (token.content) this.append(token.content, false);
    }
  }

  /** Adjacent text with the same formatting goes into one run. */
  private append(raw: string, code: boolean): void {
    const key = this.formatKey(code);
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
      this.append(" ", false);
    }
  }

  private formatKey(code: boolean): number {
    const f = this.format;
    return (f.bold > 0 || this.forceBold ? BOLD : 0) | (f.italics > 0 ? ITALIC : 0) | (f.strike > 0 ? STRIKE : 0) | (code ? CODE : 0);
  }

  private flush(): void {
    if (this.pending === "") return;
    const text = runText(this.pending);
    this.pending = "";
    this.text += text;
    this.target.push(textRun(text, this.pendingKey | (this.linkHref !== undefined ? LINK : 0)));
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

  private image(token: Token): void {
    const alt = plainText(token.children ?? []);
    const embedded = decodeDataImage(token.attrGet("src") ?? "");
    if (!embedded) {
      // Never fetched: the alt text stands in place of the image.
      this.append(alt, false);
      return;
    }
    this.flush();
    const description = xmlSafe(alt);
    this.target.push(
      new ImageRun({
        type: embedded.type,
        data: embedded.data,
        transformation: { width: embedded.width, height: embedded.height },
        altText: { name: description || "image", description, title: xmlSafe(token.attrGet("title") ?? "") },
      }),
    );
  }
}

/** The plain text of inline tokens (an image's alt text): what the HTML renderer would put in alt="". */
function plainText(tokens: readonly Token[]): string {
  let out = "";
  for (const token of tokens) {
    if (token.type === "text" || token.type === "code_inline" || token.type === "html_inline") out += token.content;
    else if (token.type === "softbreak" || token.type === "hardbreak") out += " ";
    else if (token.type === "image") out += plainText(token.children ?? []);
  }
  return out;
}

interface ListFrame {
  reference: string | NumberingDefinition;
  instance: number;
  level: number;
  /** Ordered lists: the number the previous item was written with. */
  written?: number;
}

interface ItemFrame {
  list: ListFrame;
  /** Whether the item's first paragraph (the one carrying the bullet or number) was written. */
  numbered: boolean;
}

type ParagraphProps = Writable<IParagraphOptions>;

class DocumentBuilder {
  readonly blocks: Block[] = [];
  private readonly textParts: string[] = [];
  private readonly lists: ListFrame[] = [];
  private readonly items: ItemFrame[] = [];
  private quoteDepth = 0;
  private nextInstance = 1;

  constructor(private readonly tokens: Token[]) {}

  build(): { blocks: Block[]; text: string } {
    const tokens = this.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      switch (token.type) {
        case "heading_open": {
          const level = Number(token.tag.slice(1)) - 1;
          const inline = tokens[++i]!;
          i++; // heading_close
          const props = this.props();
          props.heading = HEADINGS[level] ?? HeadingLevel.HEADING_6;
          delete props.style;
          this.paragraph(new InlineBuilder().build(inline.children ?? []), props);
          break;
        }
        case "paragraph_open": {
          const inline = tokens[++i]!;
          i++; // paragraph_close
          this.paragraph(new InlineBuilder().build(inline.children ?? []), this.props());
          break;
        }
        case "bullet_list_open":
        case "ordered_list_open": {
          const level = this.lists.length;
          if (token.type === "bullet_list_open") {
            // Bullets do not count, so every bullet list can be the one Word list (as Word does).
            this.lists.push({ reference: BULLET_REFERENCE, instance: 0, level });
          } else {
            // Each ordered list is a list of its own (its own w:num), so it restarts at its own start.
            this.lists.push({ reference: decimalDefinition(listNumber(token.attrGet("start"))), instance: this.nextInstance++, level });
          }
          break;
        }
        case "bullet_list_close":
        case "ordered_list_close":
          this.lists.pop();
          break;
        case "list_item_open":
          this.restartIfRenumbered(token);
          this.items.push({ list: this.lists[this.lists.length - 1]!, numbered: false });
          markTask(tokens, i);
          break;
        case "list_item_close": {
          const item = this.items[this.items.length - 1]!;
          // An empty item still shows its bullet or number.
          if (!item.numbered) this.emit(new Paragraph(this.props()), "");
          this.items.pop();
          break;
        }
        case "blockquote_open":
          this.quoteDepth++;
          break;
        case "blockquote_close":
          this.quoteDepth--;
          break;
        case "fence":
        case "code_block":
          this.code(token.content);
          break;
        case "html_block":
          for (const line of splitLines(token.content)) {
            const inline = new InlineBuilder();
            const text = runText(line);
            if (text) inline.children.push(textRun(text, 0));
            inline.text = text;
            this.paragraph(inline, this.props());
          }
          break;
        case "hr": {
          const props = this.props();
          props.border = RULE_BORDER;
          this.emit(new Paragraph(props), "");
          break;
        }
        case "table_open":
          i = this.table(i);
          break;
        default:
          // *_close tokens of hidden paragraphs and anything without content of its own.
          break;
      }
    }
    // Word wants a paragraph before the end of the body (after a final table), and at least one.
    if (this.blocks.length === 0 || !(this.blocks[this.blocks.length - 1] instanceof Paragraph)) {
      this.emit(new Paragraph({}), "");
    }
    return { blocks: this.blocks, text: this.textParts.join("") };
  }

  /**
   * CommonMark keeps "3. 4. ⏎⏎ 1." one list (numbered 3, 4, 5), though whoever wrote "1." meant a
   * new list. An ordered item written with a number below the next one due, and not the same as
   * the previous item's (so lazy "1. 1. 1." still counts 1, 2, 3), starts a new numbering instance
   * at its written number.
   */
  private restartIfRenumbered(token: Token): void {
    const list = this.lists[this.lists.length - 1];
    if (!list || list.reference === BULLET_REFERENCE) return;
    const written = listNumber(token.info);
    const previous = list.written;
    list.written = written;
    if (previous === undefined || written >= previous + 1 || written === previous) return;
    // Items already written keep the old instance: their paragraphs captured it when built.
    list.reference = decimalDefinition(written);
    list.instance = this.nextInstance++;
  }

  private emit(block: Paragraph, text: string): void {
    this.blocks.push(block);
    this.textParts.push(text, "\n\n");
  }

  private paragraph(inline: InlineBuilder, props: ParagraphProps): void {
    props.children = inline.children;
    this.emit(new Paragraph(props), inline.text);
  }

  /** Left indent of the current container (quotes and list item bodies), in twips. */
  private containerIndent(): number {
    return (this.quoteDepth + this.items.length) * INDENT_STEP;
  }

  /**
   * Paragraph properties for the next paragraph in the current container: the Quote style in
   * quotes, the item's numbering on an item's first paragraph, the container's indent otherwise.
   */
  private props(): ParagraphProps {
    const props: ParagraphProps = {};
    if (this.quoteDepth > 0) props.style = QUOTE_STYLE;
    const item = this.items[this.items.length - 1];
    if (item && !item.numbered) {
      item.numbered = true;
      const { reference, instance, level } = item.list;
      const wordLevel = Math.min(level, MAX_WORD_LEVEL);
      props.numbering = { reference, instance, level: wordLevel };
      // The numbering level already indents by INDENT_STEP per level; quotes and levels past 8 add to it.
      const left = this.containerIndent();
      if (left !== INDENT_STEP * (wordLevel + 1)) props.indent = { left, hanging: HANGING };
    } else if (this.items.length > 0 || this.quoteDepth > 1) {
      props.indent = { left: this.containerIndent() };
    }
    return props;
  }

  /** Code blocks: one shaded monospace paragraph per line, every space kept. */
  private code(content: string): void {
    const lines = splitLines(content);
    if (lines.length === 0) lines.push("");
    for (const raw of lines) {
      const props = this.props();
      // The Source Code style carries the font, the shading and the tight spacing.
      props.style = CODE_STYLE;
      const inline = new InlineBuilder();
      const text = runText(raw);
      if (text) inline.children.push(textRun(text, CODE));
      inline.text = text;
      this.paragraph(inline, props);
    }
  }

  /** A GFM table, from table_open at `start`; returns the index of its table_close. */
  private table(start: number): number {
    const tokens = this.tokens;
    const rows: { header: boolean; cells: { align: string | undefined; inline: Token[] }[] }[] = [];
    let i = start + 1;
    let inHead = false;
    for (; i < tokens.length && tokens[i]!.type !== "table_close"; i++) {
      const token = tokens[i]!;
      if (token.type === "thead_open") inHead = true;
      else if (token.type === "thead_close") inHead = false;
      else if (token.type === "tr_open") rows.push({ header: inHead, cells: [] });
      else if (token.type === "th_open" || token.type === "td_open") {
        const style = token.attrGet("style") ?? "";
        const align = /text-align:(left|center|right)/.exec(style)?.[1];
        const inline = tokens[i + 1]?.type === "inline" ? (tokens[i + 1]!.children ?? []) : [];
        rows[rows.length - 1]?.cells.push({ align, inline });
      }
    }
    // An item whose first block is a table still gets its bullet/number on a paragraph of its own.
    const item = this.items[this.items.length - 1];
    if (item && !item.numbered) this.emit(new Paragraph(this.props()), "");

    const columns = Math.max(1, ...rows.map((row) => row.cells.length));
    const indent = this.containerIndent();
    const width = Math.max(INDENT_STEP * 2, TEXT_WIDTH - indent);
    const columnWidth = Math.floor(width / columns);
    const tableRows: TableRow[] = [];
    for (const row of rows) {
      const cells: TableCell[] = [];
      for (const cell of row.cells) {
        const inline = new InlineBuilder(row.header).build(cell.inline);
        const alignment =
          cell.align === "center" ? AlignmentType.CENTER : cell.align === "right" ? AlignmentType.RIGHT : cell.align === "left" ? AlignmentType.LEFT : undefined;
        const paragraph = new Paragraph({ children: inline.children, ...(alignment ? { alignment } : {}) });
        this.textParts.push(inline.text, "\n\n");
        cells.push(new TableCell({ children: [paragraph], width: { size: columnWidth, type: WidthType.DXA } }));
      }
      if (cells.length === 0) continue;
      tableRows.push(new TableRow({ children: cells, ...(row.header ? { tableHeader: true } : {}) }));
    }
    if (tableRows.length > 0) {
      this.blocks.push(
        new Table({
          rows: tableRows,
          width: { size: columnWidth * columns, type: WidthType.DXA },
          columnWidths: Array.from({ length: columns }, () => columnWidth),
          ...(indent > 0 ? { indent: { size: indent, type: WidthType.DXA } } : {}),
        }),
      );
    }
    return i;
  }
}

/** An ordered list's start or an item's written number (markdown-it caps it at 9 digits); 1 when unreadable. */
function listNumber(value: string | null | undefined): number {
  const n = value ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : 1;
}

/** The lines of a code or HTML block; the block's final line ending ends its last line. */
function splitLines(content: string): string[] {
  const body = content.endsWith("\n") ? content.slice(0, -1) : content;
  return body === "" && content === "" ? [] : body.split("\n");
}

/** `[ ] ` / `[x] ` at the start of a list item's first paragraph becomes ☐ / ☒. */
function markTask(tokens: Token[], itemOpen: number): void {
  if (tokens[itemOpen + 1]?.type !== "paragraph_open") return;
  const inline = tokens[itemOpen + 2];
  const first = inline?.children?.[0];
  if (!first || first.type !== "text") return;
  const match = TASK_MARKER.exec(first.content);
  if (!match) return;
  const glyph = match[1] === " " ? CHECKBOX_OPEN : CHECKBOX_DONE;
  first.content = `${glyph} ${first.content.slice(match[0].length)}`;
}

/** The docx model of a markdown document and its (normalised) text, before packing. Exported for benches. */
export function buildDocument(markdown: string, options: RenderOptions): { document: Document; text: string } {
  const { blocks, text } = new DocumentBuilder(parseMarkdown(markdown)).build();
  const document = new Document({
    title: xmlSafe(options.title),
    creator: "workspace-gateway",
    styles,
    numbering,
    sections: [{ children: blocks }],
  });
  return { document, text: normalizeExtractedText(text) };
}

/** markdown → { .docx bytes, its text }. Pure: no I/O, no network, no shared mutable state. */
export async function renderDocument(markdown: string, options: RenderOptions): Promise<RenderResult> {
  const { document, text } = buildDocument(markdown, options);
  const docx = await Packer.pack(document, "uint8array");
  return { docx, text };
}
