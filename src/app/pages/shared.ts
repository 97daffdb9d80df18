// A share link's page, for its recipient (docs/app.md "The recipient's page"): the document as
// its reader sees it, or the spreadsheet's first sheet as a read-only grid, with a download link.
// No sign-in: the link is the credential.
import { html, raw } from "hono/html";
import { rectOf } from "../a1.ts";
import { when, type Html } from "../layout.ts";
import type { GridCell } from "../cells.ts";
import { gridTable } from "./grid.ts";

export function sharedDocumentPage(view: { name: string; updatedAt: string; body: string; downloadHref: string }): Html {
  return html`<h1>${view.name}</h1>
    <p class="meta">Shared with you · updated ${when(view.updatedAt)}</p>
    <div class="toolbar"><a class="button primary" href="${view.downloadHref}" download>Download</a></div>
    <article class="document" aria-label="${view.name}">${raw(view.body)}</article>`;
}

export function sharedSheetPage(view: {
  name: string;
  updatedAt: string;
  range: string;
  values: GridCell[][];
  truncated: boolean;
  downloadHref: string;
}): Html {
  const rect = rectOf(view.range);
  const sheet = view.range.includes("!") ? view.range.slice(0, view.range.lastIndexOf("!")).replace(/^'|'$/g, "") : "";
  return html`<h1>${view.name}</h1>
    <p class="meta">Shared with you · updated ${when(view.updatedAt)}${sheet ? html` · sheet ${sheet}` : ""}</p>
    <div class="toolbar"><a class="button primary" href="${view.downloadHref}" download>Download</a></div>
    ${view.truncated ? html`<p class="notice">Only the first cells are shown; download the spreadsheet for all of them.</p>` : ""}
    ${rect && view.values.length > 0 ? gridTable({ rect, values: view.values, editable: false, label: sheet || view.name }) : html`<p>This sheet is empty.</p>`}`;
}
