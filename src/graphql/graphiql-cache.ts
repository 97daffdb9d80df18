// GraphiQL's page is 9 MB (its assets inlined, no CDN). It leaves compressed (~2 MB of br,
// src/http/compression.ts) and is rendered once per process; an ETag with `Cache-Control: no-cache`
// then lets a browser keep it: a reload revalidates and gets a 304 with no body.
import { createHash } from "node:crypto";
import type { Plugin, YogaServerOptions } from "graphql-yoga";

type GraphiQLOptions = Parameters<NonNullable<YogaServerOptions<object, object>["renderGraphiQL"]>>[0];
type RenderGraphiQL = (options: GraphiQLOptions) => Promise<string>;

export function cachedGraphiQL(render: RenderGraphiQL): { renderGraphiQL: RenderGraphiQL; plugin: Plugin } {
  // By the options yoga passes (the same for every request of this process).
  const pages = new Map<string, Promise<string>>();
  const etags = new Set<string>();
  const renderGraphiQL: RenderGraphiQL = (options) => {
    const key = JSON.stringify(options ?? {});
    const cached = pages.get(key);
    if (cached) return cached;
    const page = render(options).then((html) => {
      etags.add(etagOf(html));
      return html;
    });
    page.catch(() => pages.delete(key));
    pages.set(key, page);
    return page;
  };
  // yoga's own GraphiQL hook answers before any plugin's onRequest: the page is known by its response.
  const plugin: Plugin = {
    onResponse({ request, response, setResponse }) {
      if (request.method !== "GET" || !response.headers.get("content-type")?.startsWith("text/html")) return;
      const [etag] = etags;
      if (etags.size !== 1 || !etag) return;
      const asked = request.headers
        .get("if-none-match")
        ?.split(",")
        .map((tag) => tag.trim());
      if (asked?.includes(etag)) {
        setResponse(new Response(null, { status: 304, headers: { etag, "cache-control": "no-cache" } }));
        return;
      }
      response.headers.set("etag", etag);
      response.headers.set("cache-control", "no-cache");
    },
  };
  return { renderGraphiQL, plugin };
}

const etagOf = (html: string) => `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
