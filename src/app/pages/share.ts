// Sharing a document or a spreadsheet (docs/app.md "Sharing"): a new link with an expiry, shown
// once as an absolute URL to copy; the links that still work, each revocable.
import { html } from "hono/html";
import { csrfField, postButton, when, type Html } from "../layout.ts";
import { listTable } from "./parts.ts";
import type { Paths } from "../paths.ts";

export interface ShareView {
  paths: Paths;
  csrf: string | undefined;
  kind: "document" | "spreadsheet";
  id: string;
  name: string;
  /** The link just created: its absolute URL (shown this once) and expiry. */
  created?: { url: string; expiresAt: string } | undefined;
  shares: { id: string; createdAt: string; expiresAt: string }[];
}

export const EXPIRY_CHOICES = [
  { seconds: 3_600, label: "1 hour" },
  { seconds: 86_400, label: "1 day" },
  { seconds: 604_800, label: "7 days" },
  { seconds: 2_592_000, label: "30 days" },
  { seconds: 31_536_000, label: "1 year" },
] as const;
const DEFAULT_EXPIRY = 604_800;

export function sharePage(view: ShareView): Html {
  const { paths, id, kind } = view;
  const base = kind === "document" ? paths.document(id, "share") : paths.spreadsheet(id, "share");
  const created = view.created
    ? html`<div class="notice ok" role="status">
        <p>Anyone with this link can read the ${kind} until ${when(view.created.expiresAt)}. It is shown only now: copy it.</p>
        <div class="share-link">
          <label for="share-link">Share link</label>
          <input type="text" id="share-link" readonly value="${view.created.url}" />
          <button type="button" data-copy="share-link" hidden>Copy</button>
        </div>
      </div>`
    : "";
  const options = EXPIRY_CHOICES.map(
    (choice) => html`<option value="${choice.seconds}" ${choice.seconds === DEFAULT_EXPIRY ? " selected" : ""}>${choice.label}</option>`,
  );
  const rows = view.shares.map(
    (share) =>
      html`<tr>
        <td>${when(share.createdAt)}</td>
        <td>${when(share.expiresAt)}</td>
        <td>${postButton(`${base}/${encodeURIComponent(share.id)}/revoke`, "Revoke", view.csrf)}</td>
      </tr>`,
  );
  const list =
    view.shares.length === 0
      ? html`<p>No links work for this ${kind} now.</p>`
      : listTable("Links that work now", ["Created", "Expires", "Actions"], rows);
  return html`<h1>Share “${view.name}”</h1>
    <p class="meta"><a href="${paths.item(kind, id)}">Back to the ${kind}</a></p>
    ${created}
    <form method="post" action="${base}" class="toolbar">
      ${csrfField(view.csrf)}
      <label for="expires-in">Expires in</label>
      <select id="expires-in" name="expiresIn">
        ${options}
      </select>
      <button type="submit" class="primary">Create link</button>
    </form>
    <h2>Links</h2>
    ${list}`;
}
