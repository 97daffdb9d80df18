// Pieces that several pages draw alike: a list table (the items, history, trash and share pages),
// the link to a list's next page, and an item's buttons (the document and spreadsheet pages), so
// each is written once.
import { html } from "hono/html";
import { postButton, type Html } from "../layout.ts";
import type { Paths } from "../paths.ts";

/** What the document and spreadsheet pages both show of their item. */
export interface ItemView {
  paths: Paths;
  csrf: string | undefined;
  id: string;
  name: string;
  version: number;
  updatedAt: string;
}

/** What the document and spreadsheet version pages both show: the item as it was at `version`, and its current version. */
export interface ItemVersionView extends Omit<ItemView, "updatedAt"> {
  current: number;
}

/** A table of rows under a visually hidden caption (what screen readers announce) and column heads. */
export function listTable(caption: string, columns: readonly string[], rows: unknown): Html {
  return html`<table class="list">
    <caption class="visually-hidden">
      ${caption}
    </caption>
    <thead>
      <tr>
        ${columns.map((column) => html`<th scope="col">${column}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** The link to a list's next page (`path`?cursor=…), or nothing on its last page (the history and trash pages). */
export function nextPageLink(path: string, cursor: string | null, label: string): Html | "" {
  return cursor
    ? html`<nav class="pager" aria-label="Pages">
        <a href="${path}?cursor=${encodeURIComponent(cursor)}">${label}</a>
      </nav>`
    : "";
}

/** History, Download, Share and Move to trash for one item; `link` gives each page's address. */
export function itemButtons(
  link: (page: "history" | "download" | "share" | "trash") => string,
  csrf: string | undefined,
  version: number,
): Html {
  return html`<a class="button" href="${link("history")}">History</a>
    <a class="button" href="${link("download")}" download>Download</a>
    <form method="get" action="${link("share")}"><button type="submit">Share</button></form>
    ${postButton(link("trash"), "Move to trash", csrf, { className: "danger", fields: { version: String(version) } })}`;
}
