// The editor's script: every page's, and the live preview and the conditional save (./editor-live.ts).
import { startPage } from "./common.ts";
import { startEditor } from "./editor-live.ts";

startPage();
startEditor();
