// GET /: what this server is and where to go next, for a person who opens the base URL in a
// browser (HTML) or a program that asks for JSON (anything else). See docs/api.md.
import { docPath, type DocFile } from "./docs.ts";

export interface IndexInfo {
  version: string;
  /** PUBLIC_URL, or "" for links relative to this server. */
  publicUrl: string;
}

const links = (base: string) => ({
  app: { href: `${base}/app`, title: "The owner's application: open, edit and share documents and spreadsheets in a browser" },
  graphql: { href: `${base}/graphql`, title: "GraphQL endpoint; GraphiQL in a browser" },
  openapi: { href: `${base}/api/v1/openapi.json`, title: "OpenAPI 3.1 description of the REST API" },
  rest: { href: `${base}/api/v1/documents`, title: "REST documents interface (bearer credential)" },
  trpc: { href: `${base}/trpc`, title: "tRPC API (use the package's typed client, workspace-gateway/client)" },
  mcp: { href: `${base}/mcp`, title: "MCP over Streamable HTTP (POST, bearer credential)" },
  health: { href: `${base}/healthz`, title: "Liveness" },
  ready: { href: `${base}/readyz`, title: "Readiness (store reachable; degraded reasons)" },
  metrics: { href: `${base}/metrics`, title: "Prometheus metrics (needs METRICS_TOKEN when set; on METRICS_PORT instead when set)" },
});

/** The documentation this server serves (./docs.ts), by name without ".md": api, configuration, … */
const docLinks = (base: string, docs: readonly Pick<DocFile, "name" | "title">[]) =>
  Object.fromEntries(docs.map((d) => [d.name.replace(/\.md$/, ""), { href: base + docPath(d), title: d.title }]));

/** The weight `accept` gives a media type (exact match, then type/*, then *\/*); 0 when absent. */
function quality(accept: string, type: string): number {
  const [major] = type.split("/");
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (specificity < best.specificity || specificity < 0) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    best = { specificity, q: q === undefined ? 1 : Number(q) || 0 };
  }
  return best.q;
}

/** HTML when the caller prefers text/html to application/json (a browser); JSON otherwise. */
export const prefersHtml = (accept: string | undefined): boolean =>
  accept !== undefined && quality(accept, "text/html") > quality(accept, "application/json");

export function indexJson(info: IndexInfo, docs: readonly Pick<DocFile, "name" | "title">[] = []): Record<string, unknown> {
  return { name: "workspace-gateway", version: info.version, links: links(info.publicUrl), docs: docLinks(info.publicUrl, docs) };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const linkItems = (list: { href: string; title: string }[]) =>
  list.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.href)}</a> — ${escapeHtml(l.title)}</li>`).join("\n");

export function indexHtml(info: IndexInfo, docs: readonly Pick<DocFile, "name" | "title">[] = []): string {
  const items = linkItems(Object.values(links(info.publicUrl)));
  const docItems = linkItems(Object.values(docLinks(info.publicUrl, docs)));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>workspace-gateway</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; line-height: 1.5">
<h1>workspace-gateway <small>${escapeHtml(info.version)}</small></h1>
<p>One front door on the workspace suite: GraphQL, REST, tRPC and MCP over the same documents and products.</p>
<ul>
${items}
</ul>
${docItems ? `<p>Documentation (Markdown):</p>\n<ul>\n${docItems}\n</ul>` : ""}
</body></html>
`;
}
