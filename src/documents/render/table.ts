// Tables as one XML string instead of docx's object graph.
//
// docx builds a Table as a tree of components per cell (cell, its properties, width, paragraph,
// paragraph properties, …), turns every one into an xml object, then into a tree of resolved
// elements, then into strings. A 200 × 1,000 table is 200,000 cells: that graph took ~20 s of
// CPU and over 1 GB, mostly in the garbage collector (docs/rendering-limits.md). A table whose
// cells hold only text runs (./runs.ts) and hyperlinks of them is written here straight to the
// XML docx would write for it, byte for byte (test/documents/render/table.test.ts compares the
// two), its links registered as the body's paragraphs register theirs; a table with an image in a
// cell still goes through docx, which owns media.
import type { ParagraphChild } from "docx";
import { isRightToLeft } from "./direction.ts";
import { childrenXml, writableChildren } from "./paragraph-xml.ts";
import { RawXml, type PartContext } from "./raw-xml.ts";
import { BOLD, RTL, TEXT_RUN_CLOSE_XML, escapeXml, textRunOpenXml, textRunXml } from "./runs.ts";

export type CellAlignment = "left" | "center" | "right" | undefined;

export interface TableCellInput {
  children: readonly ParagraphChild[];
  alignment: CellAlignment;
  /** A right-to-left paragraph (w:bidi): its first strong character is Arabic, Hebrew, …. */
  bidi?: boolean;
  /** Further paragraphs of the same cell: the cells of a table too wide for Word, folded (foldColumns). */
  more?: readonly TableCellInput[];
}

/** Word opens at most 63 columns (and LibreOffice stalls for minutes on 50,000). */
export const MAX_TABLE_COLUMNS = 63;

/**
 * A row wider than MAX_TABLE_COLUMNS keeps its first 62 cells; the last column holds the rest,
 * one paragraph per cell in order. Mammoth reads every paragraph of a cell on its own line, so
 * the document's text is the same as if the table had all its columns.
 */
export function foldColumns<T extends TableCellInput>(cells: readonly T[]): readonly TableCellInput[] {
  if (cells.length <= MAX_TABLE_COLUMNS) return cells;
  const kept = cells.slice(0, MAX_TABLE_COLUMNS - 1);
  const [first, ...rest] = cells.slice(MAX_TABLE_COLUMNS - 1);
  return [...kept, { ...first!, more: rest }];
}

export interface TableInput {
  rows: readonly { header: boolean; cells: readonly TableCellInput[] }[];
  columnWidth: number;
  columns: number;
  /** Left indent of the table (list items, quotes), in twips; 0 for none. */
  indent: number;
}

const BORDER = 'w:val="single" w:color="auto" w:sz="4"';
const BORDERS = `<w:tblBorders><w:top ${BORDER}/><w:left ${BORDER}/><w:bottom ${BORDER}/><w:right ${BORDER}/><w:insideH ${BORDER}/><w:insideV ${BORDER}/></w:tblBorders>`;

/** A finished w:tbl, from `<w:tbl>` to `</w:tbl>`, as its parts in order. */
class RawTable extends RawXml {
  constructor(private readonly parts: readonly string[]) {
    super();
  }

  override chunks(): readonly string[] {
    return this.parts;
  }
}

function tableStart(columnWidth: number, columns: number, indent: number): string[] {
  return [
    `<w:tbl><w:tblPr><w:tblW w:type="dxa" w:w="${columnWidth * columns}"/>`,
    indent > 0 ? `<w:tblInd w:type="dxa" w:w="${indent}"/>` : "",
    `${BORDERS}</w:tblPr><w:tblGrid>`,
    `<w:gridCol w:w="${columnWidth}"/>`.repeat(columns),
    "</w:tblGrid>",
  ];
}

/** A right-to-left paragraph's jc reads left and right the other way round (docx swaps them, as here). */
const SWAPPED = { left: "right", right: "left", center: "center" } as const;

const paragraphProperties = (alignment: CellAlignment, bidi = false) => {
  const jc = alignment ? `<w:jc w:val="${bidi ? SWAPPED[alignment] : alignment}"/>` : "";
  return bidi ? `<w:pPr><w:bidi/>${jc}</w:pPr>` : jc ? `<w:pPr>${jc}</w:pPr>` : "";
};

const cellParagraph = (alignment: CellAlignment, runs: string, bidi = false) => {
  const properties = paragraphProperties(alignment, bidi);
  return properties || runs ? `<w:p>${properties}${runs}</w:p>` : "<w:p/>";
};

/** A GFM table whose every cell is plain text (or empty): its cells' text (runText'd), not yet runs. */
export interface PlainTableInput {
  /** Row 0 is the header row. */
  rows: readonly (readonly string[])[];
  /** Per column. */
  aligns: readonly CellAlignment[];
  columnWidth: number;
  columns: number;
  indent: number;
}

/**
 * A plain table written straight from its cells' text: the XML rawTable writes for the same cells
 * as runs (table.test.ts compares them), without a run, cell or array object per cell. A
 * 200-column table has 200,000 cells, so a cell adds only its escaped text between markup strings
 * made once per table: no string per cell is built only to be joined.
 */
export function plainTable(table: PlainTableInput): RawXml {
  const { columnWidth, columns, indent } = table;
  const cellOpen = `<w:tc><w:tcPr><w:tcW w:type="dxa" w:w="${columnWidth}"/></w:tcPr>`;
  // The table's parts in one array sized up front (the table's start and end, per row 2, per cell up to 3, per column 2), filled
  // with "" so that it never grows: a string per part shared by many cells, each cell's own text
  // escaped. The packager streams the parts into document.xml; no row or cell string is made.
  const parts = new Array<string>(
    3 + table.rows.reduce((sum, cells) => sum + 2 + 3 * cells.length + 2 * Math.min(cells.length, MAX_TABLE_COLUMNS), 0),
  ).fill("");
  let n = 0;
  parts[n++] = tableStart(columnWidth, columns, indent).join("");
  // A text paragraph's markup before its text, by run flags (body 0 or header BOLD, each maybe
  // RTL, which also makes the paragraph w:bidi) and alignment.
  const opens: Partial<Record<string, string>>[] = [{}, {}, {}, {}];
  const paragraphOpen = (alignment: CellAlignment, flags: number) =>
    (opens[(flags & BOLD ? 1 : 0) + (flags & RTL ? 2 : 0)]![alignment ?? ""] ??=
      `<w:p>${paragraphProperties(alignment, (flags & RTL) !== 0)}${textRunOpenXml(flags)}`);
  const textClose = `${TEXT_RUN_CLOSE_XML}</w:p>`;
  table.rows.forEach((cells, r) => {
    if (cells.length === 0) return;
    const flags = r === 0 ? BOLD : 0;
    parts[n++] = r === 0 ? "<w:tr><w:trPr><w:tblHeader/></w:trPr>" : "<w:tr>";
    // Past Word's column limit, the last column holds the rest, a paragraph each (foldColumns).
    for (let j = 0; j < cells.length; j++) {
      if (j < MAX_TABLE_COLUMNS) parts[n++] = cellOpen;
      const text = cells[j]!;
      const alignment = table.aligns[j];
      const cellFlags = text && isRightToLeft(text) ? flags | RTL : flags;
      if (text && !text.includes("\t")) {
        parts[n++] = paragraphOpen(alignment, cellFlags);
        parts[n++] = escapeXml(text);
        parts[n++] = textClose;
      } else {
        parts[n++] = cellParagraph(alignment, text ? textRunXml(text, cellFlags) : "", cellFlags !== flags);
      }
      if (j < MAX_TABLE_COLUMNS - 1 || j === cells.length - 1) parts[n++] = "</w:tc>";
    }
    parts[n++] = "</w:tr>";
  });
  parts[n++] = "</w:tbl>";
  return new RawTable(parts);
}

/** A table of runs and hyperlinks, written when the document is (its links are registered then). */
class RunTable extends RawXml {
  constructor(private readonly table: TableInput) {
    super();
  }

  override chunks(part: PartContext): readonly string[] {
    const { columnWidth, columns, indent } = this.table;
    const cellOpen = `<w:tc><w:tcPr><w:tcW w:type="dxa" w:w="${columnWidth}"/></w:tcPr>`;
    const parts = tableStart(columnWidth, columns, indent);
    for (const row of this.table.rows) {
      if (row.cells.length === 0) continue;
      parts.push(row.header ? "<w:tr><w:trPr><w:tblHeader/></w:trPr>" : "<w:tr>");
      for (const cell of row.cells) {
        parts.push(cellOpen);
        for (const paragraph of [cell, ...(cell.more ?? [])])
          parts.push(cellParagraph(paragraph.alignment, childrenXml(paragraph.children, part), paragraph.bidi));
        parts.push("</w:tc>");
      }
      parts.push("</w:tr>");
    }
    parts.push("</w:tbl>");
    return parts;
  }
}

/** The table as one component, or undefined when a cell holds something other than text runs and hyperlinks of them. */
export function rawTable(table: TableInput): RawXml | undefined {
  for (const row of table.rows)
    for (const cell of row.cells) {
      if (!writableChildren(cell.children)) return undefined;
      for (const more of cell.more ?? []) if (!writableChildren(more.children)) return undefined;
    }
  return new RunTable(table);
}
