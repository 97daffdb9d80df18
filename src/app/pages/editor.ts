// The editor (docs/app.md "Editor"): the markdown beside its live preview (rendered by the
// server), saved with the version it was opened at (If-Match). A save that meets a newer version
// shows both texts and lets the owner keep either: nothing is lost.
import { html, raw } from "hono/html";
import { csrfField, type Html } from "../layout.ts";
import type { Paths } from "../paths.ts";

/** A textarea's content: HTML drops the newline right after <textarea>, so one is put there for a text that starts with its own. */
const textareaText = (text: string): string => `\n${text}`;

export interface EditorView {
  paths: Paths;
  csrf: string | undefined;
  id: string;
  name: string;
  version: number;
  markdown: string;
  preview: string;
}

export function editorPage(view: EditorView): Html {
  const { paths, id } = view;
  return html`<h1>Edit “${view.name}”</h1>
    <form
      method="post"
      action="${paths.document(id, "edit")}"
      id="editor"
      data-version="${view.version}"
      data-preview="${paths.app}/preview"
    >
      ${csrfField(view.csrf)}
      <input type="hidden" name="version" value="${view.version}" />
      <div class="field">
        <label for="name">Name</label>
        <input type="text" id="name" name="name" value="${view.name}" required maxlength="255" />
      </div>
      <div class="editor">
        <div>
          <label for="markdown">Markdown</label>
          <textarea id="markdown" name="markdown" spellcheck="true">${textareaText(view.markdown)}</textarea>
        </div>
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading" class="pane-label">Preview</h2>
          <div class="document" id="preview" aria-live="polite">${raw(view.preview)}</div>
        </section>
      </div>
      <div class="toolbar">
        <button type="submit" class="primary">Save</button>
        <a href="${paths.document(id)}">Cancel</a>
        <span class="status" id="editor-status" role="status"></span>
      </div>
    </form>`;
}

export interface ConflictView {
  paths: Paths;
  csrf: string | undefined;
  id: string;
  /** What the owner tried to save, and the name they gave. */
  mine: { name: string; markdown: string; basedOn: number };
  /** What is there now. */
  theirs: { name: string; markdown: string; version: number };
}

export function conflictPage(view: ConflictView): Html {
  const { paths, id, mine, theirs } = view;
  return html`<h1>This document changed while you edited it</h1>
    <p>You opened version ${mine.basedOn}; version ${theirs.version} was saved since. Nothing is lost: keep your text or theirs.</p>
    <div class="conflict">
      <section aria-labelledby="mine-heading">
        <h2 id="mine-heading">Your version</h2>
        <pre tabindex="0" aria-labelledby="mine-heading">${mine.markdown}</pre>
        <form method="post" action="${paths.document(id, "edit")}">
          ${csrfField(view.csrf)}
          <input type="hidden" name="version" value="${theirs.version}" />
          <input type="hidden" name="name" value="${mine.name}" />
          <textarea name="markdown" hidden>${textareaText(mine.markdown)}</textarea>
          <button type="submit" class="primary">Keep mine</button>
        </form>
      </section>
      <section aria-labelledby="theirs-heading">
        <h2 id="theirs-heading">Their version (version ${theirs.version})</h2>
        <pre tabindex="0" aria-labelledby="theirs-heading">${theirs.markdown}</pre>
        <form method="get" action="${paths.document(id)}">
          <input type="hidden" name="notice" value="kept-theirs" />
          <button type="submit">Keep theirs</button>
        </form>
      </section>
    </div>`;
}
