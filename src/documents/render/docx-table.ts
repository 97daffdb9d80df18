// Tables whose cells hold images, through docx's own components (which own media); every other
// table is written as XML by ./table.ts (whose tests compare the two).
import { AlignmentType, Paragraph, Table, TableCell, TableRow, WidthType } from "docx";
import type { TableCellInput, TableInput } from "./table.ts";

const ALIGNMENTS = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const;

/** A table through docx's own components: for tables with images in their cells. */
export function docxTable({ rows, columnWidth, columns, indent }: TableInput): Table {
  const tableRows: TableRow[] = [];
  for (const row of rows) {
    if (row.cells.length === 0) continue;
    const paragraph = (p: TableCellInput) =>
      new Paragraph({
        children: [...p.children],
        ...(p.bidi ? { bidirectional: true } : {}),
        ...(p.alignment ? { alignment: ALIGNMENTS[p.alignment] } : {}),
      });
    const cells = row.cells.map(
      (cell) =>
        new TableCell({
          children: [cell, ...(cell.more ?? [])].map(paragraph),
          width: { size: columnWidth, type: WidthType.DXA },
        }),
    );
    tableRows.push(new TableRow({ children: cells, ...(row.header ? { tableHeader: true } : {}) }));
  }
  return new Table({
    rows: tableRows,
    width: { size: columnWidth * columns, type: WidthType.DXA },
    columnWidths: Array.from({ length: columns }, () => columnWidth),
    ...(indent > 0 ? { indent: { size: indent, type: WidthType.DXA } } : {}),
  });
}
