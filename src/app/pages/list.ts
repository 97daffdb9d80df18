// The owner's items (docs/app.md "The list"): documents and spreadsheets together, newest first,
// a search by name, pages of 50; new document or spreadsheet, import by file picker or by
// dropping a file on the page.
import { html } from "hono/html";
import type { WorkspaceItem } from "../../services/index.ts";
import { csrfField, postButton, sizeOf, when, type Html } from "../layout.ts";
import { listTable } from "./parts.ts";
import type { Paths } from "../paths.ts";

export interface ListView {
  paths: Paths;
  csrf: string | undefined;
  query: string;
  items: WorkspaceItem[];
  nextCursor: string | null;
  /** A later page: the list says so and links back to the first. */
  paged: boolean;
}

const kindName = { document: "Document", spreadsheet: "Spreadsheet" } as const;

function row(paths: Paths, item: WorkspaceItem): Html {
  return html`<tr>
    <td><a href="${paths.item(item.kind, item.id)}">${item.name}</a></td>
    <td class="kind">${kindName[item.kind]}</td>
    <td>${when(item.updatedAt)}</td>
    <td>${sizeOf(item.sizeBytes)}</td>
  </tr>`;
}

function pager(view: ListView): Html {
  const { paths, query } = view;
  const q = query ? `q=${encodeURIComponent(query)}&` : "";
  const first = view.paged ? html`<a href="${paths.app}${query ? `?q=${encodeURIComponent(query)}` : ""}">First page</a>` : "";
  const next = view.nextCursor ? html`<a href="${paths.app}?${q}cursor=${encodeURIComponent(view.nextCursor)}">Next page</a>` : "";
  return view.paged || view.nextCursor ? html`<nav class="pager" aria-label="Pages">${first}${next}</nav>` : html``;
}

function toolbar(view: ListView): Html {
  const { paths, csrf } = view;
  return html`<div class="toolbar">
    <form role="search" method="get" action="${paths.app}" class="search">
      <label for="search" class="visually-hidden">Search</label>
      <input type="search" id="search" name="q" value="${view.query}" placeholder="Search by name" />
      <button type="submit">Find</button>
    </form>
    ${postButton(`${paths.app}/documents`, "New document", csrf, { className: "primary" })}
    ${postButton(`${paths.app}/spreadsheets`, "New spreadsheet", csrf)}
    <form method="post" action="${paths.app}/import" enctype="multipart/form-data" class="import" data-import>
      ${csrfField(csrf)}
      <label for="import-file">Import</label>
      <input type="file" id="import-file" name="file" accept=".docx,.xlsx,.csv" required data-auto-submit />
      <button type="submit" data-no-js>Upload</button>
    </form>
  </div>`;
}

export function listPage(view: ListView): Html {
  const empty = view.query
    ? html`<p>Nothing is named like “${view.query}”.</p>`
    : html`<p>Nothing here yet: create a document or import a file.</p>`;
  const table =
    view.items.length === 0
      ? empty
      : listTable(
          "Documents and spreadsheets, newest first",
          ["Name", "Kind", "Modified", "Size"],
          view.items.map((item) => row(view.paths, item)),
        );
  return html`<h1>${view.query ? `Search: ${view.query}` : "Your documents"}</h1>
    ${toolbar(view)}
    <p class="dropzone" data-dropzone>Drop a .docx, .xlsx or .csv file on this page to import it.</p>
    ${table} ${pager(view)}`;
}
