// The script of every page that has no heavier one (./common.ts).
import { startPage } from "./common.ts";

startPage();
