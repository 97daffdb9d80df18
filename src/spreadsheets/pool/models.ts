// The models a worker keeps between jobs: by workbook id, at the version they are, bounded by the
// cells they hold (least recently used go first). A change works on the held model in place, so it
// takes the model out; the pool tells the worker afterwards whether the store kept the change
// (commit: the model is held again at the new version) or not (forget: it is dropped).
import type { Workbook } from "../workbook/workbook.ts";

export interface Held {
  workbookId: string;
  version: number;
  workbook: Workbook;
  /** Sizes of the tiles the model's manifest names, by hash (pages carry them). */
  sizes: Map<string, number>;
  /** Pages the store has: their children need no new refs. */
  pages: Set<string>;
  /** The hash of the report blob the store has for this model's version, if any. */
  report?: string | undefined;
}

export class Models {
  private readonly held = new Map<string, Held>();
  private readonly pending = new Map<number, Held>();

  constructor(private readonly maxCells: number) {}

  /** The model of `workbookId` at `version`, taken out for a change (it is changed in place). */
  take(workbookId: string, version: number): Held | undefined {
    const found = this.held.get(workbookId);
    if (!found || found.version !== version) return undefined;
    this.held.delete(workbookId);
    return found;
  }

  /** The model for a read-only job, left where it is (and made the most recently used). */
  peek(workbookId: string, version: number): Held | undefined {
    const found = this.held.get(workbookId);
    if (!found || found.version !== version) return undefined;
    this.held.delete(workbookId);
    this.held.set(workbookId, found);
    return found;
  }

  keep(model: Held): void {
    this.held.delete(model.workbookId);
    this.held.set(model.workbookId, model);
    let cells = 0;
    for (const held of this.held.values()) cells += held.workbook.cells;
    // Oldest first; the newest stays even when it alone is over the bound (the next job wants it).
    for (const [id, held] of this.held) {
      if (cells <= this.maxCells || id === model.workbookId) break;
      this.held.delete(id);
      cells -= held.workbook.cells;
    }
  }

  /** A changed model, until the pool says whether the store kept its change. */
  hold(token: number, model: Held): void {
    this.pending.set(token, model);
  }

  commit(token: number, version: number): void {
    const model = this.pending.get(token);
    this.pending.delete(token);
    if (model) this.keep({ ...model, version });
  }

  forget(token: number): void {
    this.pending.delete(token);
  }
}
