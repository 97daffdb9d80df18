// npm run bench:fidelity:docs [FILES] — word fidelity of our renderer, of pandoc and of the npm peers
// (bench/fidelity-peers.ts: remark-docx 0.3, @mohtasham/md-to-docx, markdown-docx, mdast2docx,
// installed at bench time into a temporary folder) on the README corpus of
// test/documents/render/corpus.test.ts (FILES of the node_modules READMEs, default 40; `all` for
// every one): each .docx read back by pandoc, words compared with pandoc's GitHub-like reading of
// the markdown (method: test/documents/render/corpus.ts). Prints, per converter, corpus-wide word
// precision and recall and the time it took, the lowest file scores, then the figures as JSON.
// A peer that throws on a file (or whose .docx pandoc cannot read) scores that file as an empty
// document: none of its words found (recall), nothing added to precision.
import { readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderDocument } from "../src/documents/render/index.ts";
import { corpusReadmes, docxText, mapLimit, pandocRun, readerText, score, words, type Score } from "../test/documents/render/corpus.ts";
import { firstLine, installPeers, type Peer } from "./fidelity-peers.ts";

const pandoc = process.env["PANDOC_PATH"] ?? "pandoc";
const files = corpusReadmes(
  process.argv[2] === "all" ? Number.MAX_SAFE_INTEGER : Number(process.argv[2] ?? 40),
  120_000,
  (p) => statSync(p).size,
);
/** A peer's conversion of one file that takes longer than this counts as failed. */
const PEER_TIMEOUT_MS = 60_000;
const dir = await mkdtemp(join(tmpdir(), "wg-fidelity-"));

/** One converter's result on one file; `error` when a peer failed it (then `score` is of nothing). */
interface Result {
  score: Score;
  ms: number;
  error?: string;
}

interface Row {
  file: string;
  results: Result[];
}

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no result after ${ms / 1000} s`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

// Peers log per node they skip ("Unsupported inline node type: html", …): muted for the run.
const { warn: consoleWarn, error: consoleError } = console;
try {
  const peersDir = join(dir, "peers");
  await mkdir(peersDir);
  process.stderr.write("fidelity: installing the npm peers into a temporary folder…\n");
  const peers: Peer[] = await installPeers(peersDir);
  const pandocVersion = firstLine(await pandocRun(pandoc, ["--version"], "")).replace(/^pandoc\S*\s+/, "");
  const names = ["ours", `pandoc ${pandocVersion}`, ...peers.map((p) => `${p.name} ${p.version}`.trim())];
  console.warn = console.error = () => {};

  const rows = await mapLimit(files, 2, async (file, i): Promise<Row> => {
    const markdown = readFileSync(file, "utf8");
    const reference = words(await readerText(pandoc, markdown));
    let started = performance.now();
    const { docx } = await renderDocument(markdown, { title: "fidelity" });
    const oursMs = performance.now() - started;
    started = performance.now();
    const out = join(dir, `${i}.docx`);
    await pandocRun(pandoc, ["-f", "gfm", "-t", "docx", "-o", out], markdown);
    const pandocMs = performance.now() - started;
    const [ours, theirs] = await Promise.all([docxText(pandoc, docx), docxText(pandoc, await readFile(out))]);
    const results: Result[] = [
      { score: score(words(ours), reference), ms: oursMs },
      { score: score(words(theirs), reference), ms: pandocMs },
    ];
    for (const peer of peers) {
      if (!peer.convert) continue;
      started = performance.now();
      let ms: number | undefined;
      try {
        const bytes = await withTimeout(peer.convert(markdown), PEER_TIMEOUT_MS);
        ms = performance.now() - started;
        results.push({ score: score(words(await docxText(pandoc, bytes)), reference), ms });
      } catch (failure) {
        const message = firstLine(failure instanceof Error ? failure.message : String(failure));
        const error = ms === undefined ? message : `pandoc could not read its .docx: ${message}`;
        results.push({ score: score([], reference), ms: ms ?? performance.now() - started, error });
      }
    }
    return { file: file.slice(file.lastIndexOf("node_modules/") + 13), results };
  });
  console.warn = consoleWarn;
  console.error = consoleError;

  /** Converter index → its column in `Row.results` (peers that could not run have none). */
  const runnable = [0, 1, ...peers.flatMap((p, k) => (p.convert ? [k + 2] : []))];
  const column = (c: number) => runnable.indexOf(c);
  const total = (k: number) => {
    const sum = rows.reduce(
      (a, r) => ({
        common: a.common + r.results[k]!.score.common,
        ours: a.ours + r.results[k]!.score.ours,
        reference: a.reference + r.results[k]!.score.reference,
      }),
      { common: 0, ours: 0, reference: 0 },
    );
    const failed = rows.filter((r) => r.results[k]!.error !== undefined);
    return {
      precision: sum.ours === 0 ? 0 : sum.common / sum.ours,
      recall: sum.common / sum.reference,
      ms: rows.reduce((a, r) => a + r.results[k]!.ms, 0),
      failed: failed.length,
      ...(failed[0] ? { firstError: `${failed[0].file}: ${failed[0].results[k]!.error}` } : {}),
    };
  };
  const lowest = (k: number) =>
    [...rows]
      .map((r) => ({ file: r.file, s: r.results[k]!.score }))
      .sort((a, b) => Math.min(a.s.precision, a.s.recall) - Math.min(b.s.precision, b.s.recall))
      .slice(0, 3)
      .map((r) => `${r.file} P ${r.s.precision.toFixed(3)} R ${r.s.recall.toFixed(3)}`)
      .join("; ");

  const width = Math.max(...names.map((n) => n.length));
  const lines: string[] = [];
  const notes: string[] = [];
  const json: Record<string, unknown> = { files: rows.length };
  names.forEach((name, c) => {
    const peer = c >= 2 ? peers[c - 2] : undefined;
    const k = column(c);
    const key = c === 0 ? "ours" : c === 1 ? "pandoc" : peer!.name;
    if (k < 0) {
      lines.push(`  ${name.padEnd(width)}  ${"—".padStart(9)}  ${"—".padStart(6)}  ${"—".padStart(9)}  ${peer!.unavailable}`);
      json[key] = { version: peer!.version, unavailable: peer!.unavailable };
      return;
    }
    const t = total(k);
    const failed = t.failed ? `${t.failed} of ${rows.length} files failed (scored empty), first: ${t.firstError}` : "";
    lines.push(
      `  ${name.padEnd(width)}  ${t.precision.toFixed(4).padStart(9)}  ${t.recall.toFixed(4).padStart(6)}  ${t.ms.toFixed(0).padStart(9)}  ${failed}`.trimEnd(),
    );
    notes.push(`  ${name.padEnd(width)}  ${lowest(k)}`);
    json[key] = { ...(peer ? { version: peer.version } : {}), ...t };
  });
  const adapted = peers.filter((p) => p.note).map((p) => `  ${p.name}: ${p.note}`);
  console.log(`
fidelity bench — ${rows.length} node_modules READMEs, words read back by pandoc vs pandoc's GitHub-like reading
(a file a peer fails counts as an empty document: its words are all missed in recall, none added to precision)

  ${"converter".padEnd(width)}  precision  recall  ms in all  failures
${lines.join("\n")}

lowest file scores (min of precision and recall):
${notes.join("\n")}
${adapted.length ? `\npeer adapters (bench/fidelity-peers.ts), beyond the packages' defaults:\n${adapted.join("\n")}\n` : ""}`);
  console.log(JSON.stringify(json));
} finally {
  console.warn = consoleWarn;
  console.error = consoleError;
  await rm(dir, { recursive: true, force: true });
}
