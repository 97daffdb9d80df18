// A sheet of the model: a stable id (what formulas and the graph hold on to across renames and
// moves), its name, and its grid of cells.
import { Grid } from "./grid.ts";

export class Sheet {
  readonly grid = new Grid();
  constructor(
    readonly sid: number,
    public name: string,
  ) {}
}
