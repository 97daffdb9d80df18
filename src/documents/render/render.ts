// markdown-it's tokens → the document's blocks and its text, in one pass (packed by ./package.ts).
//
// Every construct of docs/api.md "Markdown to .docx" becomes Word structure (styles, run properties, hyperlinks with
// external relationships, numbering, tables, borders, images). While each paragraph is built, its
// text is appended following mammoth's raw-text rules (see ./text.ts), so the text never has to be
// extracted from the .docx again.
import { AlignmentType, BorderStyle, HeadingLevel, type ParagraphChild } from "docx";
import { docxTable } from "./docx-table.ts";
import { HtmlBlocks, type BlockSink, type HtmlRow, type ParagraphKind } from "./html.ts";
import { InlineBuilder } from "./inline.ts";
import { listNumber, markTask, type ItemFrame, type ListFrame } from "./lists.ts";
import type { GfmTable } from "./gfm-table.ts";
import { type Token } from "./markdown.ts";
import { BOLD, CODE, textRun } from "./runs.ts";
import { textDirection } from "./direction.ts";
import {
  BULLET_REFERENCE,
  CODE_STYLE,
  HANGING,
  INDENT_STEP,
  MAX_WORD_LEVEL,
  PARAGRAPH_AFTER,
  QUOTE_STYLE,
  decimalDefinition,
} from "./styles.ts";
import { isParagraph, type Block, type ParagraphProps } from "./blocks.ts";
import { Footnotes, type NoteParagraphs, type Output } from "./footnotes.ts";
import { MAX_TABLE_COLUMNS, foldColumns, plainTable, rawTable, type CellAlignment, type TableInput } from "./table.ts";
import { runText } from "./text.ts";

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

const RULE_BORDER = { bottom: { style: BorderStyle.SINGLE, size: 6, color: "auto", space: 1 } } as const;

const PARAGRAPH_ALIGNMENTS = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  both: AlignmentType.JUSTIFIED,
} as const;

/** markdown-it's container tokens, each open matched by its close in the token stream. */
const CONTAINERS = new Set([
  "bullet_list_open",
  "bullet_list_close",
  "ordered_list_open",
  "ordered_list_close",
  "list_item_open",
  "list_item_close",
  "blockquote_open",
  "blockquote_close",
]);

export class DocumentBuilder implements BlockSink {
  private blocks: Block[] = [];
  private textParts: string[] = [];
  private readonly footnotes = new Footnotes();
  private readonly lists: ListFrame[] = [];
  private readonly items: ItemFrame[] = [];
  private quoteDepth = 0;
  private nextInstance = 1;
  /** Raw HTML blocks, made on the first one (docs/api.md, the raw-HTML row). */
  private html: HtmlBlocks | undefined;
  /** For each open markdown container: how many HTML elements were open when it opened. */
  private readonly marks: number[] = [];

  constructor(private readonly tokens: Token[]) {}

  build(): { blocks: Block[]; text: string; footnotes: NoteParagraphs } {
    const tokens = this.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.type !== "html_block") {
        // An HTML paragraph left open comes before this markdown; HTML elements left open inside
        // a markdown container (a list, an item, a quote) close with it.
        if (CONTAINERS.has(token.type)) {
          if (token.nesting === 1) this.marks.push(this.html?.depth() ?? 0);
          else this.html?.closeFrom(this.marks.pop() ?? 0);
        } else {
          this.html?.endParagraph();
        }
      }
      switch (token.type) {
        case "heading_open": {
          const level = Number(token.tag.slice(1)) - 1;
          const inline = tokens[++i]!;
          i++; // heading_close
          this.paragraph(new InlineBuilder().build(inline.children ?? []), { heading: level + 1 });
          break;
        }
        case "paragraph_open": {
          const inline = tokens[++i]!;
          i++; // paragraph_close
          this.paragraph(new InlineBuilder().build(inline.children ?? []), {});
          break;
        }
        case "bullet_list_open":
        case "ordered_list_open":
          // CommonMark (docs/api.md): only a list's first item's number sets its start; markdown-it
          // already ends a list where CommonMark does (another delimiter or bullet character, a
          // block between), so each ordered_list token is one Word list, numbered on from its start.
          this.openList(token.type === "ordered_list_open", listNumber(token.attrGet("start")));
          break;
        case "bullet_list_close":
        case "ordered_list_close":
          this.closeList();
          break;
        case "list_item_open":
          this.openItem();
          markTask(tokens, i);
          break;
        case "list_item_close":
          this.closeItem();
          break;
        case "blockquote_open":
          this.openQuote();
          break;
        case "blockquote_close":
          this.closeQuote();
          break;
        case "fence":
        case "code_block":
          this.code(token.content);
          break;
        case "html_block":
          this.html ??= new HtmlBlocks(this);
          this.html.write(token.content);
          break;
        case "hr":
          this.rule();
          break;
        case "gfm_table":
          i = this.gfmTable(i);
          break;
        case "footnote_open":
          this.write(this.footnotes.start(Number((token.meta as { id?: number } | null)?.id ?? 0) + 1, this.output()));
          break;
        case "footnote_close":
          this.write(this.footnotes.end(this.output()));
          break;
        default:
          // *_close tokens of hidden paragraphs and anything without content of its own.
          break;
      }
    }
    this.html?.end();
    // Word wants a paragraph before the end of the body (after a final table), and at least one.
    if (this.blocks.length === 0 || !isParagraph(this.blocks[this.blocks.length - 1]!)) {
      this.emit({}, "");
    }
    return { blocks: this.blocks, text: this.textParts.join(""), footnotes: this.footnotes.notes };
  }

  private output(): Output {
    return { blocks: this.blocks, textParts: this.textParts };
  }

  /** Writes blocks and text into `output` from now on (the body, or a footnote: ./footnotes.ts). */
  private write(output: Output): void {
    this.blocks = output.blocks;
    this.textParts = output.textParts;
  }

  openList(ordered: boolean, start: number): void {
    // A list as an item's first block (`- - foo`): Word has one number per paragraph, so the outer
    // item's bullet or number gets an empty paragraph of its own, before the nested list, not after it.
    const item = this.items[this.items.length - 1];
    if (item && !item.numbered) this.emit(this.props(), "");
    const level = this.lists.length;
    if (!ordered) {
      // Bullets do not count, so every bullet list can be the one Word list (as Word does).
      this.lists.push({ reference: BULLET_REFERENCE, instance: 0, level });
    } else {
      // Each ordered list is a list of its own (its own w:num), so it restarts at its own start.
      this.lists.push({ reference: decimalDefinition(start), instance: this.nextInstance++, level });
    }
  }

  closeList(): void {
    this.lists.pop();
  }

  openItem(): void {
    const list = this.lists[this.lists.length - 1];
    // An HTML <li> outside any list open here is written as a plain paragraph.
    if (list) this.items.push({ list, numbered: false });
  }

  closeItem(): void {
    const item = this.items[this.items.length - 1];
    if (!item) return;
    // An empty item still shows its bullet or number.
    if (!item.numbered) this.emit(this.props(), "");
    this.items.pop();
  }

  openQuote(): void {
    this.quoteDepth++;
  }

  closeQuote(): void {
    if (this.quoteDepth > 0) this.quoteDepth--;
  }

  rule(): void {
    const props = this.props();
    props.border = RULE_BORDER;
    this.emit(props, "");
  }

  private emit(block: ParagraphProps, text: string): void {
    this.blocks.push(block);
    this.textParts.push(text, "\n\n");
  }

  /**
   * A paragraph of the current container; a heading and an alignment when `kind` says so. Its
   * direction is the `dir` of the HTML element around it when one has it (`<div dir="rtl">` …
   * markdown … `</div>`), else its first strong character's (GitHub's `dir="auto"`):
   * right-to-left is a w:bidi paragraph.
   */
  paragraph(inline: InlineBuilder, kind: ParagraphKind): void {
    const props = this.props();
    if (kind.heading !== undefined) {
      props.heading = HEADINGS[kind.heading - 1] ?? HeadingLevel.HEADING_6;
      this.ownStyle(props);
      delete props.style;
    }
    if ((kind.dir ?? this.html?.direction() ?? textDirection(inline.text)) === "rtl") props.bidirectional = true;
    if (kind.align) props.alignment = PARAGRAPH_ALIGNMENTS[kind.align];
    this.written(inline, props);
  }

  /** YAML front matter (./front-matter.ts): a two-column table, keys in bold, before the body. */
  frontMatter(rows: readonly (readonly [string, string])[]): void {
    this.emitTable(
      rows.map(([key, value]) => ({
        header: false,
        cells: [
          { inline: textCell(key, true), align: undefined },
          { inline: textCell(value, false), align: undefined },
        ],
      })),
    );
  }

  private written(inline: InlineBuilder, props: ParagraphProps): void {
    props.children = inline.children;
    this.emit(props, inline.text);
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

  /**
   * A heading or code line in a quote takes its own style in place of Quote, whose indent it would
   * lose (one level of quote has no indent of its own, the style gives it): it keeps it directly.
   */
  private ownStyle(props: ParagraphProps): void {
    if (props.style === QUOTE_STYLE && props.indent === undefined) props.indent = { left: this.containerIndent() };
  }

  /**
   * Code blocks: one shaded monospace paragraph per line, every space kept; the last line has a
   * paragraph's space after it, as GitHub's stylesheet gives a code block (its style has none).
   */
  code(content: string): void {
    const lines = splitLines(content);
    if (lines.length === 0) lines.push("");
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i]!;
      const props = this.props();
      // The Source Code style carries the font, the shading and the tight spacing.
      this.ownStyle(props);
      props.style = CODE_STYLE;
      if (i === lines.length - 1) props.spacing = { after: PARAGRAPH_AFTER };
      const inline = new InlineBuilder();
      const text = runText(raw);
      if (text) inline.children.push(textRun(text, CODE));
      inline.text = text;
      this.written(inline, props);
    }
  }

  /**
   * A GFM table, from its gfm_table token at `start` (./gfm-table.ts), followed by the inline
   * tokens of its cells that needed the inline parser; returns the index of the last of them.
   */
  private gfmTable(start: number): number {
    const { aligns, rows, inline } = this.tokens[start]!.meta as GfmTable;
    const columns = aligns.length;
    const parsed = new Map<number, Token[]>();
    let plain = true;
    inline.forEach((at, k) => {
      const children = this.tokens[start + 1 + k]!.children ?? [];
      // A cell the parser left as one text token (`a-b`, `a\|b`) is as plain as any.
      if (children.length > 1 || (children.length === 1 && children[0]!.type !== "text")) plain = false;
      parsed.set(at, children);
    });
    if (plain) {
      // The token's rows become the cells' text in place: no object per cell.
      for (const [at, children] of parsed)
        rows[Math.floor(at / columns)]![at % columns] = children.length === 0 ? "" : children[0]!.content;
      this.plainGfmTable(rows, aligns);
      return start + inline.length;
    }
    this.emitTable(
      rows.map((row, r) => ({
        header: r === 0,
        cells: row.map((raw, c) => {
          const children = parsed.get(r * columns + c);
          return {
            inline: children ? (plainCell(children, r === 0) ?? new InlineBuilder(r === 0).build(children)) : textCell(raw, r === 0),
            align: aligns[c],
          };
        }),
      })),
    );
    return start + inline.length;
  }

  /** An HTML <table> (./html.ts): cells already built. */
  table(rows: HtmlRow[]): void {
    this.emitTable(rows);
  }

  /** A GFM table whose every cell is text or empty, written from the cells' text (plainTable). */
  private plainGfmTable(rows: string[][], aligns: CellAlignment[]): void {
    const geometry = this.tableGeometry(aligns.length);
    for (const row of rows) {
      for (let c = 0; c < row.length; c++) row[c] = runText(row[c]!);
      // The text of a cell is a paragraph's: its text and "\n\n" (./text.ts).
      if (row.length > 0) this.textParts.push(row.join("\n\n"), "\n\n");
    }
    if (rows.some((row) => row.length > 0)) this.blocks.push(plainTable({ ...geometry, rows, aligns }));
  }

  /**
   * Column count and width of a table in the current container. An item whose first block is a
   * table still gets its bullet/number on a paragraph of its own, written here first.
   */
  private tableGeometry(widest: number): { columns: number; columnWidth: number; indent: number } {
    const item = this.items[this.items.length - 1];
    if (item && !item.numbered) this.emit(this.props(), "");
    const columns = Math.max(1, Math.min(widest, MAX_TABLE_COLUMNS));
    const indent = this.containerIndent();
    const width = Math.max(INDENT_STEP * 2, TEXT_WIDTH - indent);
    return { columns, columnWidth: Math.floor(width / columns), indent };
  }

  private emitTable(rows: readonly { header: boolean; cells: readonly { inline: CellContent; align: CellAlignment }[] }[]): void {
    const input: TableInput = {
      ...this.tableGeometry(rows.reduce((widest, row) => Math.max(widest, row.cells.length), 0)),
      rows: rows.map((row) => ({
        header: row.header,
        cells: foldColumns(
          row.cells.map((cell) => {
            this.textParts.push(cell.inline.text, "\n\n");
            const bidi = textDirection(cell.inline.text) === "rtl";
            return { children: cell.inline.children, alignment: cell.align, ...(bidi ? { bidi } : {}) };
          }),
        ),
      })),
    };
    if (input.rows.some((row) => row.cells.length > 0)) this.blocks.push(rawTable(input) ?? docxTable(input));
  }
}

/** What a table cell holds: InlineBuilder's result, or plainCell's. */
interface CellContent {
  readonly children: readonly ParagraphChild[];
  readonly text: string;
}

/**
 * A cell of one plain text token (most cells of most tables) as its run, without an InlineBuilder:
 * the same run and text InlineBuilder would make, at a fraction of the allocation per cell.
 */
function plainCell(inline: readonly Token[], header: boolean): CellContent | undefined {
  if (inline.length === 0) return { children: [], text: "" };
  const token = inline[0]!;
  if (inline.length !== 1 || token.type !== "text") return undefined;
  return textCell(token.content, header);
}

function textCell(content: string, header: boolean): CellContent {
  const text = runText(content);
  return { children: text ? [textRun(text, header ? BOLD : 0)] : [], text };
}

/** The lines of a code or HTML block; the block's final line ending ends its last line. */
function splitLines(content: string): string[] {
  const body = content.endsWith("\n") ? content.slice(0, -1) : content;
  return body === "" && content === "" ? [] : body.split("\n");
}
