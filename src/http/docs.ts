// GET /docs/<name>.md: the documentation shipped with the gateway (docs/*.md), served read-only as
// text/markdown, so the links of the index (GET /, ./index-page.ts) work from any install, not
// only next to a clone. Only the files found at start-up are served: a name is looked up, never
// joined into a path.
import { readdirSync, readFileSync } from "node:fs";

export interface DocFile {
  /** The file name, e.g. "api.md"; also the last segment of its URL. */
  name: string;
  /** Its first "# " heading (the file name when it has none). */
  title: string;
  text: string;
}

/** docs/ beside src/ in a clone, or beside dist/src/ in a build (scripts/build.mjs copies it there). */
export const DOCS_DIR = new URL("../../docs/", import.meta.url);

/** Every docs/*.md, read once: they are small (about 130 KB in all) and fixed for the life of the process. */
export function loadDocs(dir: URL = DOCS_DIR): DocFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^[a-z0-9][a-z0-9-]*\.md$/.test(name));
  } catch {
    return []; // an image or install without docs/: the index then lists none
  }
  return names.sort().map((name) => {
    const text = readFileSync(new URL(name, dir), "utf8");
    const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? name;
    return { name, title, text };
  });
}

/** The path a doc is served at (without PUBLIC_URL). */
export const docPath = (doc: Pick<DocFile, "name">): string => `/docs/${doc.name}`;

/** The response for one doc, or undefined for a name that is not one of them (then 404). */
export function docResponse(docs: readonly DocFile[], name: string): Response | undefined {
  const doc = docs.find((d) => d.name === name);
  if (!doc) return undefined;
  return new Response(doc.text, {
    headers: {
      "Content-Type": "text/markdown; charset=utf-8",
      // Shown as text, never sniffed into HTML.
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=300",
    },
  });
}
