// Which tiles changed since the model was last saved: input tiles (constants, formulas, formats)
// and value tiles (computed values of formula cells), per sheet id; and whether the list of sheets
// itself changed (names, order), which only the manifest records.
import { tileKeyOf } from "./grid.ts";

export class Dirt {
  readonly input = new Map<number, Set<number>>();
  readonly values = new Map<number, Set<number>>();
  /** Sheets whose tiles must all be written again (a structure edit moved their cells). */
  readonly rewritten = new Set<number>();
  sheetsChanged = false;
  /** While a model is loaded from its own tiles nothing is dirty. */
  paused = false;

  markInput(sid: number, row: number, col: number): void {
    if (!this.paused) add(this.input, sid, tileKeyOf(row, col));
  }

  markValue(sid: number, row: number, col: number): void {
    if (!this.paused) add(this.values, sid, tileKeyOf(row, col));
  }

  rewrite(sid: number): void {
    this.rewritten.add(sid);
    this.sheetsChanged = true;
  }

  get empty(): boolean {
    return this.input.size === 0 && this.values.size === 0 && this.rewritten.size === 0 && !this.sheetsChanged;
  }

  clear(): void {
    this.input.clear();
    this.values.clear();
    this.rewritten.clear();
    this.sheetsChanged = false;
  }
}

function add(map: Map<number, Set<number>>, sid: number, key: number): void {
  let set = map.get(sid);
  if (!set) map.set(sid, (set = new Set()));
  set.add(key);
}
