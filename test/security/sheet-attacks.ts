// Issue 37's spreadsheet attacks (F3, F4, F7, F8), as an attacker builds them: hostile uploads (a
// sheet that inflates far past what its zip declares, one honestly declared huge, 10,001 entries,
// 2,000,001 cells, 1.5M unused shared strings, a CSV whose quote never closes) and batches of
// large reads. Shared by the tests (./sheet-uploads.test.ts, ./sheet-batches.test.ts) and the bench
// (bench/sheet-attacks.ts), which measures each against the gateway as its own process.
import { crc32, deflateRawSync, constants as zlibConstants } from "node:zlib";
import { readFileSync } from "node:fs";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

interface Entry {
  name: string;
  /** Deflated bytes. */
  data: Buffer;
  crc: number;
  /** What the entry really inflates to. */
  size: number;
  /** What the zip says it inflates to (a lie when it differs from size). */
  declared: number;
}

const deflated = (name: string, text: string | Buffer): Entry => {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  return { name, data: deflateRawSync(bytes, { level: 1 }), crc: crc32(bytes) >>> 0, size: bytes.length, declared: bytes.length };
};

/** A zip of deflated entries, each declaring its `declared` size in its local header and the directory. */
function zip(entries: Entry[]): Uint8Array {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const size = directory.reduce((sum, b) => sum + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, ...directory, end]));
}

/**
 * A sheet part of about `bytes` bytes, deflated fast: its head, one ~1 MiB run of `unit` deflated
 * once with a full flush (so it stands alone) and repeated, and its tail; the CRC over the real text.
 */
function inflatingSheet(bytes: number, unit: string): Entry {
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData><row r="1">`);
  const tail = Buffer.from(`</row></sheetData></worksheet>`);
  const run = Buffer.from(unit.repeat(Math.max(1, Math.floor((1 << 20) / unit.length))));
  const repeats = Math.max(1, Math.round((bytes - head.length - tail.length) / run.length));
  const flushed = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const runDeflated = flushed(run);
  let crc = crc32(head);
  for (let i = 0; i < repeats; i++) crc = crc32(run, crc);
  crc = crc32(tail, crc);
  const data = Buffer.concat([flushed(head), ...Array.from({ length: repeats }, () => runDeflated), deflateRawSync(tail, { level: 9 })]);
  const size = head.length + run.length * repeats + tail.length;
  return { name: "xl/worksheets/sheet1.xml", data, crc: crc >>> 0, size, declared: size };
}

/** The parts of a one-sheet workbook around its sheet part (and optional shared strings). */
function workbook(sheet: Entry, options: { sharedStrings?: Entry; extra?: Entry[] } = {}): Uint8Array {
  const strings = options.sharedStrings;
  const types = [
    `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`,
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    ...(strings
      ? [
          `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`,
        ]
      : []),
  ];
  const relationships = [
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`,
    ...(strings ? [`<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`] : []),
  ];
  return zip([
    deflated(
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${types.join("")}</Types>`,
    ),
    deflated(
      "_rels/.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflated(
      "xl/workbook.xml",
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    deflated(
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}">${relationships.join("")}</Relationships>`,
    ),
    ...(strings ? [strings] : []),
    sheet,
    ...(options.extra ?? []),
  ]);
}

const MB = 1024 * 1024;

/** F3: sheet1.xml inflates to `bytes` (300 MB in the finding) of empty cells, and declares `declared` (1,000). */
export function lyingSheetXlsx(bytes = 300 * MB, declared = 1_000): Uint8Array {
  return workbook({ ...inflatingSheet(bytes, `<c r="A1"/>`), declared });
}

/** F3: sheet1.xml inflates to `bytes` (1 GB in the finding) and says so. */
export function honestHugeXlsx(bytes = 1024 * MB): Uint8Array {
  return workbook(inflatingSheet(bytes, `<c r="A1"/>`));
}

/** F3: a workbook of `entries` zip entries (10,001 in the finding: one over the bound). */
export function manyEntriesXlsx(entries = 10_001): Uint8Array {
  const sheet = deflated("xl/worksheets/sheet1.xml", `<worksheet xmlns="${MAIN}"><sheetData/></worksheet>`);
  const extra = Array.from({ length: entries - 5 }, (_, i) => deflated(`xl/media/pad${i}.bin`, "x"));
  return workbook(sheet, { extra });
}

/** F3: a sheet of `cells` non-empty cells (2,000,001 in the finding), 16 a row, no addresses. */
export function manyCellsXlsx(cells = 2_000_001): Uint8Array {
  const rows = Math.ceil(cells / 16);
  const row = `<row>${"<c><v>1</v></c>".repeat(16)}</row>`;
  const text = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${row.repeat(rows)}</sheetData></worksheet>`;
  return workbook(deflated("xl/worksheets/sheet1.xml", text));
}

/** F7: `count` shared strings (1.5M in the finding), none of them used. */
export function unusedStringsXlsx(count = 1_500_000): Uint8Array {
  const items: string[] = [];
  for (let i = 0; i < count; i++) items.push(`<si><t>s${i}</t></si>`);
  const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="${count}">${items.join("")}</sst>`;
  const sheet = deflated(
    "xl/worksheets/sheet1.xml",
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`,
  );
  return workbook(sheet, { sharedStrings: deflated("xl/sharedStrings.xml", sst) });
}

/** F7: a CSV whose quote opens and never closes, `bytes` long (over 20 MB in the finding). */
export function unterminatedQuoteCsv(bytes = 21 * MB): Uint8Array {
  const head = Buffer.from('name,note\nalice,"');
  const out = Buffer.alloc(bytes, "x".charCodeAt(0));
  head.copy(out);
  return new Uint8Array(out);
}

/** Posts a file to the import route as a multipart upload. */
export async function upload(base: string, auth: string, bytes: Uint8Array, filename: string): Promise<{ status: number; body: string }> {
  const form = new FormData();
  const type = filename.endsWith(".csv") ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), filename);
  const response = await fetch(`${base}/api/v1/spreadsheets`, { method: "POST", headers: { authorization: auth }, body: form });
  return { status: response.status, body: await response.text() };
}

/** Resident set size of a process, in MB (Linux VmRSS). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

export interface Sampled<T> {
  result: T;
  elapsedMs: number;
  /** Slowest /healthz answer while `run` ran, sampled every 50 ms. */
  healthMaxMs: number;
  healthSamples: number;
  /** /healthz requests that failed (no answer). */
  healthFailures: number;
  /** Growth of the gateway's RSS (sampled every 20 ms) over its value before; NaN without a pid. */
  rssGrowthMb: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `run` while /healthz is sampled every 50 ms and (with a pid) the gateway's RSS every 20 ms. */
export async function sampled<T>(base: string, pid: number | undefined, run: () => Promise<T>): Promise<Sampled<T>> {
  const before = pid === undefined ? NaN : rssMb(pid);
  let peak = before;
  const rssTimer = pid === undefined ? undefined : setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  let done = false;
  const health: number[] = [];
  let healthFailures = 0;
  const sampler = (async () => {
    for (let last = false; !last;) {
      last = done;
      const sent = performance.now();
      // A /healthz that fails (a reset connection) counts as a failure, and as slow as it took.
      await fetch(`${base}/healthz`).then(
        (response) => response.arrayBuffer(),
        () => healthFailures++,
      );
      health.push(performance.now() - sent);
      await sleep(Math.max(0, 50 - (performance.now() - sent)));
    }
  })();
  const started = performance.now();
  try {
    const result = await run();
    const elapsedMs = performance.now() - started;
    done = true;
    await sampler;
    return {
      result,
      elapsedMs,
      healthMaxMs: Math.max(...health),
      healthSamples: health.length,
      healthFailures,
      rssGrowthMb: peak - before,
    };
  } finally {
    done = true;
    if (rssTimer) clearInterval(rssTimer);
  }
}

/** A 100,000-cell workbook (1,000 rows × 100 columns of numbers) made through REST; its id. */
export async function bigWorkbook(base: string, auth: string, rows = 1_000, columns = 100): Promise<string> {
  const line = Array.from({ length: columns }, (_, c) => c + 1).join(",");
  const csv = Array.from({ length: rows }, () => line).join("\n");
  const response = await fetch(`${base}/api/v1/spreadsheets`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "big", sheets: [{ name: "Sheet1", csv }] }),
  });
  if (response.status !== 201) throw new Error(`create: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** F4: a tRPC batch of `calls` × sheets.read of 100,000 cells. */
export async function trpcReadBatch(
  base: string,
  auth: string,
  id: string,
  calls = 40,
): Promise<{ status: number; bytes: number; body: string }> {
  const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), { id, range: "A1:CV1000", maxCells: 100_000 }]));
  const response = await fetch(
    `${base}/trpc/${Array(calls).fill("sheets.read").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
    { headers: { authorization: auth } },
  );
  const body = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(body), body };
}

/** F4: one MCP JSON-RPC batch of `calls` × sheets_read of 100,000 cells. */
export async function mcpReadBatch(
  base: string,
  auth: string,
  id: string,
  calls = 40,
): Promise<{ status: number; bytes: number; body: string }> {
  const batch = Array.from({ length: calls }, (_, i) => ({
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: { name: "sheets_read", arguments: { id, range: "A1:CV1000", maxCells: 100_000 } },
  }));
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(batch),
  });
  const body = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(body), body };
}

/** F4: a GraphQL array of `calls` operations, each reading 100,000 cells. */
export async function graphqlReadArray(
  base: string,
  auth: string,
  id: string,
  calls = 40,
): Promise<{ status: number; bytes: number; body: string }> {
  const operation = { query: `{ spreadsheet(id: "${id}") { range(range: "A1:CV1000", maxCells: 100000) { range truncated } } }` };
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify(Array.from({ length: calls }, () => operation)),
  });
  const body = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(body), body };
}
