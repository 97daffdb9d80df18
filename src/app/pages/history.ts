// Versions of a document or a spreadsheet (docs/app.md "History"): each a row with what made it,
// when and by whom, a way to look at it and a button to restore it as the newest version.
import { html } from "hono/html";
import { postButton, sizeOf, when, type Html } from "../layout.ts";
import { listTable, nextPageLink } from "./parts.ts";
import type { Paths } from "../paths.ts";

export interface VersionRow {
  version: number;
  createdAt: string;
  createdBy: string;
  source: string;
  sizeBytes: number;
}

export interface HistoryView {
  paths: Paths;
  csrf: string | undefined;
  kind: "document" | "spreadsheet";
  id: string;
  name: string;
  current: number;
  versions: VersionRow[];
  nextCursor: string | null;
}

const what: Record<string, string> = {
  markdown: "Edited",
  docx: "Uploaded .docx",
  rename: "Renamed",
  restore: "Restored",
  create: "Created",
  import: "Imported",
  write: "Cells written",
  append: "Rows added",
  edit: "Structure edited",
};

export function historyPage(view: HistoryView): Html {
  const { paths, id, kind } = view;
  const itemPath = paths.item(kind, id);
  const versionPath = (version: number) =>
    kind === "document" ? paths.documentVersion(id, version) : paths.spreadsheetVersion(id, version);
  const rows = view.versions.map(
    (v) =>
      html`<tr>
        <td><a href="${versionPath(v.version)}">Version ${v.version}</a>${v.version === view.current ? " (current)" : ""}</td>
        <td>${when(v.createdAt)}</td>
        <td>${what[v.source] ?? v.source}</td>
        <td>${v.createdBy}</td>
        <td>${sizeOf(v.sizeBytes)}</td>
        <td>${postButton(`${versionPath(v.version)}/restore`, "Restore", view.csrf, { fields: { current: String(view.current) } })}</td>
      </tr>`,
  );
  const more = nextPageLink(`${itemPath}/history`, view.nextCursor, "Older versions");
  return html`<h1>History of “${view.name}”</h1>
    <p class="meta"><a href="${itemPath}">Back to the ${kind}</a> · versions are kept 30 days, and at least the last 10.</p>
    ${listTable("Versions, newest first", ["Version", "Saved", "What", "By", "Size", "Actions"], rows)}
    ${more}`;
}
