// GFM tables as one token. markdown-it's own table rule pushes open/inline/close tokens per cell
// (about 3 per cell, 600,000 for the 200 × 1,000 table, ~146 MB held until the render
// ends). This rule is markdown-it 14's table rule (same lines, same limits, same splitting of
// escaped pipes) but pushes one `gfm_table` token whose meta holds the cells' text as strings.
// Only a cell that an inline rule could change gets an `inline` token, pushed right after the
// table in cell order, so the core rules (inline, linkify, emoji, footnotes) see it where they
// would have seen markdown-it's, in the same order. test/documents/render/gfm-table.test.ts checks
// the cells against markdown-it's own rule.
import type MarkdownIt from "markdown-it";
import type { CellAlignment } from "./table.ts";

type StateBlock = Parameters<MarkdownIt["block"]["tokenize"]>[0];

export interface GfmTable {
  /** Per column; markdown-it's header row sets the column count, every row has that many cells. */
  aligns: CellAlignment[];
  /** Row 0 is the header row; each cell its trimmed text (escaped pipes unescaped, as markdown-it). */
  rows: string[][];
  /** Flat indices (row × columns + column) of the cells whose inline token follows, ascending. */
  inline: number[];
}

/** markdown-it's limit on cells added to short rows (its issue 1000). */
const MAX_AUTOCOMPLETED_CELLS = 0x10000;

const isSpace = (code: number) => code === 0x09 || code === 0x20;

function getLine(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

/** markdown-it's escapedSplit: cells split on unescaped pipes; `\|` becomes `|`. */
function escapedSplit(str: string): string[] {
  const result: string[] = [];
  const max = str.length;
  let pos = 0;
  let ch = str.charCodeAt(pos);
  let isEscaped = false;
  let lastPos = 0;
  let current = "";
  while (pos < max) {
    if (ch === 0x7c) {
      if (!isEscaped) {
        result.push(current + str.substring(lastPos, pos));
        current = "";
        lastPos = pos + 1;
      } else {
        current += str.substring(lastPos, pos - 1);
        lastPos = pos;
      }
    }
    isEscaped = ch === 0x5c;
    pos++;
    ch = str.charCodeAt(pos);
  }
  result.push(current + str.substring(lastPos));
  return result;
}

function cellsOf(lineText: string): string[] {
  const columns = escapedSplit(lineText);
  if (columns.length && columns[0] === "") columns.shift();
  if (columns.length && columns[columns.length - 1] === "") columns.pop();
  return columns;
}

/** The alignments of a delimiter row, or undefined when the line is not one. */
function delimiterRow(state: StateBlock, line: number): CellAlignment[] | undefined {
  let pos = state.bMarks[line]! + state.tShift[line]!;
  const end = state.eMarks[line]!;
  if (pos >= end) return undefined;
  const firstCh = state.src.charCodeAt(pos++);
  if (firstCh !== 0x7c && firstCh !== 0x2d && firstCh !== 0x3a) return undefined;
  if (pos >= end) return undefined;
  const secondCh = state.src.charCodeAt(pos++);
  if (secondCh !== 0x7c && secondCh !== 0x2d && secondCh !== 0x3a && !isSpace(secondCh)) return undefined;
  // "- " would be a list item.
  if (firstCh === 0x2d && isSpace(secondCh)) return undefined;
  for (; pos < end; pos++) {
    const ch = state.src.charCodeAt(pos);
    if (ch !== 0x7c && ch !== 0x2d && ch !== 0x3a && !isSpace(ch)) return undefined;
  }
  const columns = getLine(state, line).split("|");
  const aligns: CellAlignment[] = [];
  for (let i = 0; i < columns.length; i++) {
    const t = columns[i]!.trim();
    if (!t) {
      // Empty columns only before and after the table.
      if (i === 0 || i === columns.length - 1) continue;
      return undefined;
    }
    if (!/^:?-+:?$/.test(t)) return undefined;
    if (t.charCodeAt(t.length - 1) === 0x3a) aligns.push(t.charCodeAt(0) === 0x3a ? "center" : "right");
    else aligns.push(t.charCodeAt(0) === 0x3a ? "left" : undefined);
  }
  return aligns;
}

/**
 * The block rule, in place of markdown-it's "table". `plain` says whether a cell's text is one
 * text token after the inline parser and the core rules (then it needs no inline token).
 */
export function compactTableRule(plain: (content: string) => boolean) {
  return function compactTable(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
    if (startLine + 2 > endLine) return false;
    let nextLine = startLine + 1;
    if (state.sCount[nextLine]! < state.blkIndent) return false;
    if (state.sCount[nextLine]! - state.blkIndent >= 4) return false;
    const aligns = delimiterRow(state, nextLine);
    if (!aligns) return false;

    let lineText = getLine(state, startLine).trim();
    if (lineText.indexOf("|") === -1) return false;
    if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
    const header = cellsOf(lineText);
    const columnCount = header.length;
    if (columnCount === 0 || columnCount !== aligns.length) return false;
    if (silent) return true;

    const oldParentType = state.parentType;
    state.parentType = "table" as typeof state.parentType;
    const terminatorRules = state.md.block.ruler.getRules("blockquote");
    const table = state.push("gfm_table", "table", 0);
    table.block = true;
    const meta: GfmTable = { aligns, rows: [header.map((cell) => cell.trim())], inline: [] };
    table.meta = meta;

    let autocompletedCells = 0;
    for (nextLine = startLine + 2; nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine]! < state.blkIndent) break;
      let terminate = false;
      for (const rule of terminatorRules) {
        if (rule(state, nextLine, endLine, true)) {
          terminate = true;
          break;
        }
      }
      if (terminate) break;
      lineText = getLine(state, nextLine).trim();
      if (!lineText) break;
      if (state.sCount[nextLine]! - state.blkIndent >= 4) break;
      const columns = cellsOf(lineText);
      autocompletedCells += columnCount - columns.length;
      if (autocompletedCells > MAX_AUTOCOMPLETED_CELLS) break;
      // Extra cells are dropped and missing ones are empty, as markdown-it does.
      const row = new Array<string>(columnCount);
      for (let i = 0; i < columnCount; i++) row[i] = columns[i] ? columns[i]!.trim() : "";
      meta.rows.push(row);
    }

    // The inline tokens of the cells that need the inline parser, in document order.
    for (let r = 0; r < meta.rows.length; r++) {
      const row = meta.rows[r]!;
      for (let c = 0; c < columnCount; c++) {
        const content = row[c]!;
        if (content === "" || plain(content)) continue;
        const inline = state.push("inline", "", 0);
        inline.content = content;
        inline.children = [];
        meta.inline.push(r * columnCount + c);
      }
    }
    table.map = [startLine, nextLine];
    state.parentType = oldParentType;
    state.line = nextLine;
    return true;
  };
}
