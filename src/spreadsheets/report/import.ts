// After an .xlsx is imported and computed: each formula cell's value against the one the file's
// writer saved (Excel's, LibreOffice's…), read again from the reader's compact store rather than
// kept beside the model. The cells that differ are followed with the writer's value (up to
// MAX_TRACKED, then counted); the facts of the import become warnings that stay with the workbook.
import type { Book } from "../workbook/book.ts";
import { slotOf } from "../cells/grid.ts";
import type { WorkbookData } from "../cells/types.ts";
import { agrees, unstable } from "./agree.ts";
import { factWarnings } from "./facts.ts";
import { First, MAX_TRACKED } from "./report.ts";
import { FIRST_CELLS } from "./types.ts";

export function reviewImport(book: Book, data: WorkbookData): void {
  const report = book.report;
  let unchecked = 0;
  const firstUnchecked = new First<string>(FIRST_CELLS);
  data.sheets.forEach((source, index) => {
    const sheet = book.sheets[index];
    const values = sheet && source.formulaValues?.();
    if (!sheet || !values) return;
    for (const [row, col, expected] of values) {
      const cell = sheet.grid.tile(row, col)?.formulas?.get(slotOf(row, col));
      // A formula kept as its value (./kept.ts) is no formula here.
      if (!cell) continue;
      if (expected === null) {
        firstUnchecked.add(unchecked++, () => book.where(sheet.sid, row, col));
        continue;
      }
      report.checked++;
      if (agrees(expected, cell.value) || unstable(cell.text)) continue;
      if (report.distrusted.size < MAX_TRACKED) report.distrusted.set(cell, expected);
      else report.untracked++;
    }
  });
  report.facts = factWarnings(data.facts, report.kept, { count: unchecked, cells: firstUnchecked.list });
  report.kept = null;
}
