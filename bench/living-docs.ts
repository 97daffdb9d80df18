// npm run bench:docs (second part) — living documents, in one run: import of a ~1 MB .docx over
// REST (text and markdown extracted in the render pool) against mammoth on the main thread (the
// baseline: the same extraction with nothing else to do), update of a 400,000-character document
// (PUT markdown), and p99 of small reads while four imports run at once. The gateway runs on the
// build, as `npm start` runs it (bench:docs builds first).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { crc32, deflateSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mammoth from "mammoth";
import { createApiKey } from "../src/auth/api-keys.ts";
import { extractOnMainThread } from "../src/documents/import/index.ts";
import { renderDocument } from "../src/documents/render/index.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { generateMarkdown } from "../test/fixtures/gen-markdown.ts";
import { fmt, median, peakRssMb, quantile, startGatewayProcess, timed } from "./lib.ts";

const dir = await mkdtemp(join(tmpdir(), "wg-bench-living-"));
/** A valid 600×600 RGB PNG of noise: about 1 MB that no zip can shrink, like a photo in a report. */
function noisePng(size = 600): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: size }, () => Buffer.concat([Buffer.from([0]), randomBytes(size * 3)])));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// A .docx of about 1 MB as people send them: a long report (200,000 characters of mixed markdown)
// with a photo in it.
const report = `${generateMarkdown(200_000)}\n\n![site photo](data:image/png;base64,${noisePng().toString("base64")})\n`;
const docx = (await renderDocument(report, { title: "import" })).docx;
const markdown = generateMarkdown(399_900).slice(0, 399_900);

const store = openSqliteStore(dir);
const { key } = await createApiKey(store, { userId: "bench" });
await store.close();

// Baselines on this thread: mammoth's own raw-text extraction, and the gateway's extraction code
// (validation, text and markdown) run here instead of in a worker.
const mammothTimes: number[] = [];
const mainThreadTimes: number[] = [];
for (let i = 0; i < 5; i++) {
  mammothTimes.push((await timed(() => mammoth.extractRawText({ buffer: Buffer.from(docx) })))[0]);
  mainThreadTimes.push((await timed(() => extractOnMainThread(docx)))[0]);
}

const gateway = await startGatewayProcess({ DATA_DIR: dir }, { built: true });
const auth = { authorization: `Bearer ${key}` };
const upload = async (name: string) => {
  const form = new FormData();
  form.set("name", name);
  form.set("file", new Blob([docx as Uint8Array<ArrayBuffer>]), `${name}.docx`);
  const response = await fetch(`${gateway.url}/api/v1/documents`, { method: "POST", headers: auth, body: form });
  if (response.status !== 201) throw new Error(`import failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; characters: number };
};
const put = async (id: string, body: string) => {
  const response = await fetch(`${gateway.url}/api/v1/documents/${id}`, {
    method: "PUT",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ markdown: body }),
  });
  if (response.status !== 200) throw new Error(`update failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { version: number };
};

try {
  await upload("warm-up");
  const importTimes: number[] = [];
  let imported = { id: "", characters: 0 };
  for (let i = 0; i < 5; i++) {
    const [ms, doc] = await timed(() => upload(`import ${i}`));
    importTimes.push(ms);
    imported = doc;
  }

  const updateTimes: number[] = [];
  for (let i = 0; i < 5; i++) updateTimes.push((await timed(() => put(imported.id, `${markdown}\n\nedit ${i}`)))[0]);

  const small = (await (
    await fetch(`${gateway.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "small", markdown: "# Small\n\nA short document." }),
    })
  ).json()) as { id: string };
  const smallReadTimes: number[] = [];
  let busy = true;
  const probe = (async () => {
    while (busy) {
      smallReadTimes.push(
        (await timed(() => fetch(`${gateway.url}/api/v1/documents/${small.id}`, { headers: auth }).then((r) => r.arrayBuffer())))[0],
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const [concurrentMs] = await timed(() => Promise.all([0, 1, 2, 3].map((i) => upload(`concurrent ${i}`))));
  busy = false;
  await probe;
  const rss = peakRssMb(gateway.child.pid!);

  const results = {
    docxBytes: docx.byteLength,
    extractedChars: imported.characters,
    mammothMainThreadMedianMs: median(mammothTimes),
    extractMainThreadMedianMs: median(mainThreadTimes),
    importMedianMs: median(importTimes),
    importVsMammothMainThread: median(importTimes) / median(mammothTimes),
    update400kMedianMs: median(updateTimes),
    fourConcurrentImportsMs: concurrentMs,
    smallReadP99MsDuringImports: quantile(smallReadTimes, 0.99),
    smallReadsDuringImports: smallReadTimes.length,
    peakRssMb: rss,
  };
  console.log(`
living documents bench — a ${(docx.byteLength / 1024).toFixed(0)} KiB .docx (${imported.characters.toLocaleString("en")} characters of text)
  mammoth.extractRawText on the main thread (median of 5)   ${fmt(results.mammothMainThreadMedianMs)}   (baseline)
  the gateway's extraction on the main thread (median of 5) ${fmt(results.extractMainThreadMedianMs)}   (validation + text + markdown)
  POST import over HTTP, in the pool (median of 5)          ${fmt(results.importMedianMs)}   = ${results.importVsMammothMainThread.toFixed(2)} × the baseline
  PUT a 400,000-character update (median of 5)              ${fmt(results.update400kMedianMs)}
  4 concurrent imports, wall                                ${fmt(concurrentMs)}
    p99 small document read meanwhile                       ${fmt(results.smallReadP99MsDuringImports)}   (${smallReadTimes.length} requests) target ≤ 50 ms
  server peak RSS                                           ${rss.toFixed(0)} MB
`);
  console.log(JSON.stringify(results));
} finally {
  await gateway.stop();
  await rm(dir, { recursive: true, force: true });
}
