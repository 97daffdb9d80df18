// The spreadsheet grid (docs/app.md "Spreadsheets"): a cell is selected by click or the arrow
// keys, the formula bar shows its formula (or its value), and Enter in the formula bar writes it
// with the version the page holds (If-Match), when it was changed. The answer carries the shown range recalculated, so
// dependents change in place. A write that meets a newer version refreshes the grid and keeps
// what was typed, to be sent again.
import { requestJson } from "./common.ts";

/** A cell as the server shows it (src/app/cells.ts's GridCell: text, alignment, formula bar, full value). */
interface Cell {
  text: string;
  kind: string;
  formula: string;
  full?: string;
}
interface CellsAnswer {
  version: number;
  values: Cell[][];
  warnings?: string[];
}

const EMPTY: Cell = { text: "", kind: "empty", formula: "" };

class Grid {
  private selected: HTMLTableCellElement | undefined;
  private readonly cells: HTMLTableCellElement[][];

  constructor(
    private readonly table: HTMLTableElement,
    private readonly bar: HTMLFormElement,
    private readonly formula: HTMLInputElement,
    private readonly address: HTMLInputElement,
    private readonly status: HTMLElement | null,
  ) {
    this.cells = [...table.tBodies[0]!.rows].map((row) => [...row.querySelectorAll<HTMLTableCellElement>("td[data-cell]")]);
  }

  start(): void {
    this.table.addEventListener("click", (event) => {
      const cell = (event.target as Element).closest<HTMLTableCellElement>("td[data-cell]");
      if (cell) this.select(cell, true);
    });
    this.table.addEventListener("keydown", (event) => this.onGridKey(event));
    this.formula.addEventListener("keydown", (event) => {
      // Enter writes (the bar has two fields and, with the script, no button: no implicit submission).
      if (event.key === "Enter") {
        event.preventDefault();
        void this.write();
      } else if (event.key === "Escape" && this.selected) {
        this.formula.value = this.selected.dataset["formula"] ?? "";
        this.selected.focus();
      }
    });
    this.address.addEventListener("change", () => {
      const cell = this.table.querySelector<HTMLTableCellElement>(`td[data-cell="${CSS.escape(this.address.value.trim().toUpperCase())}"]`);
      if (cell) this.select(cell, false);
    });
    this.bar.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.write();
    });
    const first = this.cells[0]?.[0];
    if (first) this.select(first, false);
  }

  private select(cell: HTMLTableCellElement, focus: boolean): void {
    if (this.selected) {
      this.selected.setAttribute("aria-selected", "false");
      this.selected.tabIndex = -1;
    }
    this.selected = cell;
    cell.setAttribute("aria-selected", "true");
    cell.tabIndex = 0;
    this.formula.value = cell.dataset["formula"] ?? "";
    this.address.value = cell.dataset["cell"] ?? "";
    if (focus) cell.focus();
  }

  private position(cell: HTMLTableCellElement): [number, number] {
    for (let r = 0; r < this.cells.length; r++) {
      const c = this.cells[r]!.indexOf(cell);
      if (c >= 0) return [r, c];
    }
    return [0, 0];
  }

  private move(rows: number, columns: number): void {
    if (!this.selected) return;
    const [r, c] = this.position(this.selected);
    const row = this.cells[Math.min(this.cells.length - 1, Math.max(0, r + rows))]!;
    this.select(row[Math.min(row.length - 1, Math.max(0, c + columns))]!, true);
  }

  private onGridKey(event: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      Tab: [0, 1],
    };
    const step = moves[event.key];
    if (step && !(event.key === "Tab" && event.shiftKey)) {
      event.preventDefault();
      this.move(...step);
    } else if (event.key === "Enter" || event.key === "F2") {
      event.preventDefault();
      this.formula.focus();
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Typing on a cell starts writing over it, as in a spreadsheet.
      event.preventDefault();
      this.formula.value = event.key;
      this.formula.focus();
    }
  }

  private say(text: string): void {
    if (this.status) this.status.textContent = text;
  }

  private fill(answer: CellsAnswer): void {
    this.bar.dataset["version"] = answer.version.toString();
    const version = document.getElementById("sheet-version");
    if (version) version.textContent = String(answer.version);
    this.cells.forEach((row, r) =>
      row.forEach((td, c) => {
        const cell = answer.values[r]?.[c] ?? EMPTY;
        td.textContent = cell.text;
        td.dataset["formula"] = cell.formula;
        td.className = cell.kind;
        if (cell.full === undefined) td.removeAttribute("title");
        else td.title = cell.full;
      }),
    );
  }

  private async write(): Promise<void> {
    const cell = this.selected;
    if (!cell) return;
    const text = this.formula.value;
    // Nothing changed: move on, as a spreadsheet does (a cell a dynamic array spills into shows its
    // value; writing it back would block the spill).
    if (text === (cell.dataset["formula"] ?? "")) {
      this.move(1, 0);
      return;
    }
    this.say("Writing…");
    try {
      const answer = await requestJson<CellsAnswer>(this.bar.action, {
        method: "POST",
        headers: { "if-match": `"v${this.bar.dataset["version"]}"` },
        body: { sheet: this.bar.dataset["sheet"], cell: cell.dataset["cell"], text, view: this.bar.dataset["view"] },
      });
      this.fill(answer);
      this.say(answer.warnings?.length ? answer.warnings.join(" ") : `Saved: version ${answer.version}.`);
      this.move(1, 0);
    } catch (error) {
      const conflict = (error as { status?: number }).status === 412;
      if (conflict) {
        // Someone else wrote meanwhile: show their values, keep what was typed.
        const url = `${this.bar.action}?range=${encodeURIComponent(this.bar.dataset["view"] ?? "")}`;
        this.fill(await requestJson<CellsAnswer>(url));
        this.formula.value = text;
        this.say("This spreadsheet changed since you opened it: its newest values are shown. Press Enter to write yours again.");
      } else this.say(`Not written: ${(error as Error).message}`);
      this.formula.focus();
    }
  }
}

export function startGrid(): void {
  const table = document.querySelector<HTMLTableElement>("table[role=grid]:not([aria-readonly])");
  const bar = document.querySelector<HTMLFormElement>("form#formula-bar");
  const formula = document.querySelector<HTMLInputElement>("#formula");
  const address = document.querySelector<HTMLInputElement>("#cell-address");
  if (!table || !bar || !formula || !address) return;
  bar.querySelector("[data-no-js]")?.remove();
  new Grid(table, bar, formula, address, document.getElementById("grid-status")).start();
}
