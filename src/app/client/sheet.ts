// The spreadsheet page's script: every page's, and the grid (./grid.ts).
import { startPage } from "./common.ts";
import { startGrid } from "./grid.ts";

startPage();
startGrid();
