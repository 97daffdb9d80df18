// What every page's script does (the client layer, bundled by esbuild: src/app/bundle.ts). Pages
// work without it — forms post, links navigate — and it adds: the import starts as soon as a file
// is chosen or dropped on the page, share links copy with one click.

/** The session's CSRF token, for the client layer's own requests. */
export const csrfToken = (): string => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";

/** A JSON request to the application, with the CSRF token; the answer's JSON, or an Error with its message. */
export async function requestJson<T>(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: { accept: "application/json", "content-type": "application/json", "x-csrf-token": csrfToken(), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    credentials: "same-origin",
  });
  const body = (await response.json().catch(() => ({}))) as T & { error?: { code?: string; message?: string } };
  if (!response.ok)
    throw Object.assign(new Error(body.error?.message ?? `HTTP ${response.status}`), { status: response.status, code: body.error?.code });
  return body;
}

function importOnChoose(): void {
  const form = document.querySelector<HTMLFormElement>("form[data-import]");
  const input = form?.querySelector<HTMLInputElement>("input[type=file]");
  if (!form || !input) return;
  form.querySelector("[data-no-js]")?.remove();
  input.addEventListener("change", () => {
    if (input.files?.length) form.requestSubmit();
  });
  const zone = document.querySelector<HTMLElement>("[data-dropzone]");
  const over = (on: boolean) => zone?.classList.toggle("over", on);
  document.addEventListener("dragover", (event) => {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    over(true);
  });
  document.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) over(false);
  });
  document.addEventListener("drop", (event) => {
    const files = event.dataTransfer?.files;
    if (!files?.length) return;
    event.preventDefault();
    over(false);
    const chosen = new DataTransfer();
    chosen.items.add(files[0]!);
    input.files = chosen.files;
    form.requestSubmit();
  });
}

function copyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", () => {
      const field = document.getElementById(button.dataset["copy"] ?? "");
      if (!(field instanceof HTMLInputElement)) return;
      field.select();
      navigator.clipboard.writeText(field.value).then(
        () => (button.textContent = "Copied"),
        () => (button.textContent = "Press Ctrl+C to copy"),
      );
    });
  }
}

export function startPage(): void {
  importOnChoose();
  copyButtons();
}
