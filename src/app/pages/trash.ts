// The trash (docs/app.md "Trash"): documents and spreadsheets deleted in the last 30 days, each
// restorable or deleted for good.
import { html } from "hono/html";
import { postButton, when, type Html } from "../layout.ts";
import { listTable, nextPageLink } from "./parts.ts";
import type { Paths } from "../paths.ts";

export interface TrashRow {
  kind: "document" | "spreadsheet";
  id: string;
  name: string;
  deletedAt: string;
}

export interface TrashView {
  paths: Paths;
  csrf: string | undefined;
  entries: TrashRow[];
  nextCursor: string | null;
}

export function trashPage(view: TrashView): Html {
  const { paths } = view;
  const rows = view.entries.map(
    (entry) =>
      html`<tr>
        <td>${entry.name}</td>
        <td class="kind">${entry.kind === "document" ? "Document" : "Spreadsheet"}</td>
        <td>${when(entry.deletedAt)}</td>
        <td>
          ${postButton(`${paths.app}/trash/${encodeURIComponent(entry.id)}/restore`, "Restore", view.csrf)}
          ${postButton(`${paths.app}/trash/${encodeURIComponent(entry.id)}/delete`, "Delete forever", view.csrf, { className: "danger" })}
        </td>
      </tr>`,
  );
  const more = nextPageLink(`${paths.app}/trash`, view.nextCursor, "Next page");
  const body =
    view.entries.length === 0
      ? html`<p>The trash is empty.</p>`
      : listTable("Deleted documents and spreadsheets, newest first", ["Name", "Kind", "Deleted", "Actions"], rows);
  return html`<h1>Trash</h1>
    <p class="meta">Deleted items are kept 30 days, then deleted for good.</p>
    ${body} ${more}`;
}
