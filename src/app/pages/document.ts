// A document as its reader sees it (docs/app.md "Documents"): the HTML of its markdown (from the
// .docx's own parser, sanitised: services.preview), and what can be done with it.
import { html, raw } from "hono/html";
import { postButton, when, type Html } from "../layout.ts";
import { itemButtons, type ItemVersionView, type ItemView } from "./parts.ts";

export interface DocumentView extends ItemView {
  /** The sanitised HTML of its markdown. */
  body: string;
  /** The text was longer than one read gives (never for a document within the markdown limit). */
  truncated: boolean;
}

export function documentPage(view: DocumentView): Html {
  const { paths, id } = view;
  return html`<h1>${view.name}</h1>
    <p class="meta">Version ${view.version} · updated ${when(view.updatedAt)}</p>
    <div class="toolbar">
      <a class="button primary" href="${paths.document(id, "edit")}">Edit</a>
      ${itemButtons((page) => paths.document(id, page), view.csrf, view.version)}
    </div>
    ${view.truncated ? html`<p class="notice">Only the start of this document is shown; download it for the rest.</p>` : ""}
    <article class="document" aria-label="${view.name}">${raw(view.body)}</article>`;
}

export interface DocumentVersionView extends ItemVersionView {
  body: string;
}

export function documentVersionPage(view: DocumentVersionView): Html {
  const { paths, id, version } = view;
  return html`<h1>${view.name} — version ${version}</h1>
    <p class="meta">The document as it was at version ${version}; the current version is ${view.current}.</p>
    <div class="toolbar">
      <a class="button" href="${paths.document(id, "history")}">History</a>
      <a class="button" href="${paths.documentVersion(id, version)}/download" download>Download this version</a>
      ${postButton(`${paths.documentVersion(id, version)}/restore`, "Restore", view.csrf, {
        className: "primary",
        fields: { current: String(view.current) },
      })}
    </div>
    <article class="document" aria-label="${view.name}, version ${version}">${raw(view.body)}</article>`;
}
