// Every page's frame: the document head (the stylesheet and at most one script, both files of
// the gateway's own), a skip link, the bar with the way home, the trash and sign-out, and a
// notice. Written with hono/html, which escapes every value put into it; `raw` marks HTML the
// gateway made itself (a sanitised preview).
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ClientEntry } from "./bundle.ts";
import type { AppAssets } from "./assets.ts";
import type { Paths } from "./paths.ts";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface Notice {
  kind: "ok" | "error" | "info";
  text: string;
}

export interface Chrome {
  title: string;
  paths: Paths;
  assets: AppAssets;
  /** The session's CSRF token: present on a signed-in person's pages (the bar then has Trash and Sign out). */
  csrf?: string | undefined;
  script?: ClientEntry;
  notice?: Notice | undefined;
}

/** The hidden field every state-changing form carries. */
export const csrfField = (token: string | undefined): Html => html`<input type="hidden" name="_csrf" value="${token ?? ""}" />`;

/** A button that POSTs to `action` (with the CSRF token and any hidden fields). */
export function postButton(
  action: string,
  label: string,
  csrf: string | undefined,
  options: { className?: string; fields?: Record<string, string> } = {},
): Html {
  const fields = Object.entries(options.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`);
  return html`<form method="post" action="${action}">
    ${csrfField(csrf)}${fields}<button type="submit" class="${options.className ?? ""}">${label}</button>
  </form>`;
}

export const noticeOf = (notice: Notice | undefined): Html =>
  notice ? html`<p class="notice ${notice.kind}" role="${notice.kind === "error" ? "alert" : "status"}">${notice.text}</p>` : html``;

export function page(chrome: Chrome, body: Html): Html {
  const { paths, assets } = chrome;
  const script = assets.of(chrome.script ?? "page");
  const bar = chrome.csrf
    ? html`<nav aria-label="Workspace"><a href="${paths.app}/trash">Trash</a></nav>
        <form method="post" action="${paths.app}/sign-out">${csrfField(chrome.csrf)}<button type="submit">Sign out</button></form>`
    : html``;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${chrome.title} · Workspace</title>
        <link rel="stylesheet" href="${paths.asset(assets.of("styles").file)}" />
        ${chrome.csrf ? html`<meta name="csrf-token" content="${chrome.csrf}" />` : ""}
        <script type="module" src="${paths.asset(script.file)}"></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="bar"><a class="brand" href="${paths.app}">Workspace</a>${bar}</header>
        <main id="main">${noticeOf(chrome.notice)} ${body}</main>
      </body>
    </html>`;
}

/** An instant as people read it, in a <time> that keeps the exact value. */
export const when = (iso: string): Html => html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;

/** Bytes as people read them. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
