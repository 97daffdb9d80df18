// The application's addresses (docs/app.md), as links inside its pages: under PUBLIC_URL's path
// prefix when the gateway sits behind a proxy at one, so every link a page holds is one the
// browser can follow. Absolute URLs (a share link to copy) start with PUBLIC_URL, or with the
// origin the request came to.
export interface Paths {
  /** "/app" or "<prefix>/app". */
  readonly app: string;
  /** PUBLIC_URL without a trailing slash, or "". */
  readonly publicUrl: string;
  readonly prefix: string;
  signIn(next?: string): string;
  document(id: string, page?: "edit" | "history" | "share" | "download" | "trash"): string;
  documentVersion(id: string, version: number): string;
  spreadsheet(id: string, page?: "history" | "share" | "download" | "trash" | "cells"): string;
  spreadsheetVersion(id: string, version: number): string;
  item(kind: "document" | "spreadsheet", id: string): string;
  asset(name: string): string;
  /**
   * An absolute URL for a link the operations gave (a share link's `url`): already absolute when
   * PUBLIC_URL is set, else the request's own origin before it.
   */
  absolute(url: string, requestOrigin: string): string;
}

const enc = encodeURIComponent;

export function createPaths(publicUrl: string): Paths {
  const prefix = publicUrl ? new URL(publicUrl).pathname.replace(/\/+$/, "") : "";
  const app = `${prefix}/app`;
  return {
    app,
    publicUrl,
    prefix,
    signIn: (next) => `${app}/sign-in${next ? `?next=${enc(next)}` : ""}`,
    document: (id, page) => `${app}/documents/${enc(id)}${page ? `/${page}` : ""}`,
    documentVersion: (id, version) => `${app}/documents/${enc(id)}/history/${version}`,
    spreadsheet: (id, page) => `${app}/spreadsheets/${enc(id)}${page ? `/${page}` : ""}`,
    spreadsheetVersion: (id, version) => `${app}/spreadsheets/${enc(id)}/history/${version}`,
    item: (kind, id) => `${app}/${kind === "document" ? "documents" : "spreadsheets"}/${enc(id)}`,
    asset: (name) => `${app}/assets/${name}`,
    absolute: (url, requestOrigin) => (/^https?:\/\//.test(url) ? url : `${requestOrigin}${url}`),
  };
}

/** Where a sign-in may send the browser afterwards: a path of the application, nothing else. */
export function safeNext(paths: Paths, next: string | undefined): string {
  if (!next || !next.startsWith(`${paths.app}`) || next.startsWith("//") || /[\\\r\n]/.test(next)) return paths.app;
  const rest = next.slice(paths.app.length);
  return rest === "" || rest.startsWith("/") || rest.startsWith("?") ? next : paths.app;
}
