// Word fidelity on real-world markdown: the README.md files of the project's own node_modules,
// rendered by us and read back by pandoc, against pandoc's reading of the markdown as a reader
// sees it on GitHub. Shared by test/documents/render/corpus.test.ts and `npm run bench:fidelity:docs`.
//
// Method:
//   - reference: `pandoc -f gfm -t html` then `pandoc -f html -t plain`. Going through HTML renders
//     raw HTML (`<p align>`, `<details>`, `<img alt>`) as a reader sees it, tags gone; straight
//     `gfm → plain` would drop every raw HTML block, words and all.
//   - ours: the rendered .docx read by `pandoc -f docx -t plain`.
//     A footnote referenced several times is shown once, as on GitHub (./footnotes-once.lua).
//   - words: maximal runs of Unicode letters and digits (with their combining marks), lower-cased; punctuation, markup
//     glyphs, emoji and list bullets are not words (list numbers are: both sides print them).
//   - scores: multiset precision (our words also in the reference / our words) and recall
//     (reference words also in ours / reference words), each word counted min(ours, reference) times.
import { execFile } from "node:child_process";
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { imageLabel } from "../../../src/documents/render/images.ts";

export const NODE_MODULES = new URL("../../../node_modules/", import.meta.url).pathname;

/**
 * Every `README.md` of a top-level or scoped package in node_modules, sorted by path, then
 * `limit` of them evenly spaced across that list (so the pick is deterministic and spans the
 * alphabet rather than one scope). Files over `maxBytes` are skipped (time, not fidelity).
 */
export function corpusReadmes(limit: number, maxBytes = 120_000, statSize: (path: string) => number = () => 0): string[] {
  const found: string[] = [];
  for (const name of readdirSync(NODE_MODULES)) {
    if (name.startsWith(".")) continue;
    const dirs = name.startsWith("@") ? readdirSync(join(NODE_MODULES, name)).map((sub) => join(name, sub)) : [name];
    for (const dir of dirs) {
      const path = join(NODE_MODULES, dir, "README.md");
      if (existsSync(path) && statSize(path) <= maxBytes) found.push(path);
    }
  }
  found.sort();
  if (found.length <= limit) return found;
  const step = found.length / limit;
  return Array.from({ length: limit }, (_, i) => found[Math.floor(i * step)]!);
}

/** A letter or digit, then letters, combining marks and digits (a lone variation selector is no word). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** The words of a text (see the method above). */
export function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

export interface Score {
  precision: number;
  recall: number;
  /** Words in both, counted with multiplicity. */
  common: number;
  ours: number;
  reference: number;
  /** Up to 10 words we have more of than the reference, and up to 10 we lack, with the counts. */
  extra: [string, number][];
  missing: [string, number][];
}

function counts(list: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const w of list) map.set(w, (map.get(w) ?? 0) + 1);
  return map;
}

export function score(ours: readonly string[], reference: readonly string[]): Score {
  const a = counts(ours);
  const b = counts(reference);
  let common = 0;
  const extra: [string, number][] = [];
  const missing: [string, number][] = [];
  for (const [w, n] of a) {
    const m = b.get(w) ?? 0;
    common += Math.min(n, m);
    if (n > m) extra.push([w, n - m]);
  }
  for (const [w, m] of b) if (m > (a.get(w) ?? 0)) missing.push([w, m - (a.get(w) ?? 0)]);
  const top = (xs: [string, number][]) => xs.sort((x, y) => y[1] - x[1]).slice(0, 10);
  return {
    precision: ours.length === 0 ? (reference.length === 0 ? 1 : 0) : common / ours.length,
    recall: reference.length === 0 ? 1 : common / reference.length,
    common,
    ours: ours.length,
    reference: reference.length,
    extra: top(extra),
    missing: top(missing),
  };
}

/** Runs pandoc with `input` on stdin; its stdout. */
export function pandocRun(pandoc: string, args: readonly string[], input: string | Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(pandoc, [...args], { timeout: 120_000, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout);
    });
    child.stdin!.end(input);
  });
}

const FOOTNOTES_ONCE = new URL("./footnotes-once.lua", import.meta.url).pathname;

/**
 * An image without alt text, labelled as the renderer's placeholder labels it (its file name, docs
 * "Images"): a reader sees the picture, and the placeholder stands for it, so its name is not a
 * word added.
 */
function labelUnnamedImages(html: string): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const alt = /\salt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
    if (alt && (alt[2] ?? alt[3] ?? "").trim() !== "") return tag;
    const src = /\ssrc\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
    const label = imageLabel("", src?.[2] ?? src?.[3] ?? "")
      .replace(/&/g, "&amp;")
      .replace(/"/g, "&quot;")
      .replace(/</g, "&lt;");
    const bare = alt ? tag.replace(alt[0], "") : tag;
    return bare.replace(/^<img\b/i, `<img alt="${label}"`);
  });
}

/** What a reader sees on GitHub, as plain text: markdown → HTML → plain, raw HTML rendered. */
export async function readerText(pandoc: string, markdown: string): Promise<string> {
  const html = await pandocRun(pandoc, ["-f", "gfm", "-t", "html", "--lua-filter", FOOTNOTES_ONCE], markdown);
  return pandocRun(pandoc, ["-f", "html", "-t", "plain", "--wrap=none"], labelUnnamedImages(html));
}

/** A .docx as pandoc reads it, as plain text. */
export function docxText(pandoc: string, docx: Uint8Array): Promise<string> {
  return pandocRun(pandoc, ["-f", "docx", "-t", "plain", "--wrap=none"], docx);
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
