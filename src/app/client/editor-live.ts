// The editor (docs/app.md "Editor"): the preview follows the markdown as it is typed (rendered by
// the server, which sanitises it: the same HTML a reader sees), and Save sends the version the
// editor was opened at as If-Match. A conflicting save answers with a page that shows both texts;
// it replaces this one, so nothing typed is lost.
import { csrfToken, requestJson } from "./common.ts";

const PREVIEW_DELAY_MS = 250;

function livePreview(url: string, markdown: HTMLTextAreaElement, preview: HTMLElement, status: HTMLElement | null): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  const render = async () => {
    const turn = ++latest;
    try {
      const { html } = await requestJson<{ html: string }>(url, { method: "POST", body: { markdown: markdown.value } });
      // The server's sanitised HTML; a slower answer to older text is dropped.
      if (turn === latest) preview.innerHTML = html;
    } catch (error) {
      if (status) status.textContent = `Preview unavailable: ${(error as Error).message}`;
    }
  };
  markdown.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void render(), PREVIEW_DELAY_MS);
  });
}

function conditionalSave(form: HTMLFormElement, status: HTMLElement | null): void {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (status) status.textContent = "Saving…";
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string") body.append(name, value);
    fetch(form.action, {
      method: "POST",
      headers: { accept: "text/html", "if-match": `"v${form.dataset["version"]}"`, "x-csrf-token": csrfToken() },
      body,
      credentials: "same-origin",
    })
      .then(async (response) => {
        if (response.ok && response.redirected) return location.assign(response.url);
        // A conflict (or an error) is a page of its own: show it in place of this one.
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        document.title = page.title;
        document.body.replaceWith(document.adoptNode(page.body));
        const heading = document.querySelector<HTMLElement>("h1");
        heading?.setAttribute("tabindex", "-1");
        heading?.focus();
      })
      .catch((error: unknown) => {
        if (status) status.textContent = `Not saved: ${(error as Error).message}. Your text is still here; try again.`;
      });
  });
}

export function startEditor(): void {
  const form = document.querySelector<HTMLFormElement>("form#editor");
  const markdown = document.querySelector<HTMLTextAreaElement>("#markdown");
  const preview = document.querySelector<HTMLElement>("#preview");
  if (!form || !markdown || !preview) return;
  const status = document.querySelector<HTMLElement>("#editor-status");
  livePreview(form.dataset["preview"] ?? "", markdown, preview, status);
  conditionalSave(form, status);
}
