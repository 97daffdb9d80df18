// Issue 23 finding 1, as an attacker ran it: a living document of 390,000 characters with 111
// versions, then `document(id) { versions(first: 100) { edges { node { text(maxChars: 1) { text } } } } }`
// under 6 aliases (priced ~19.2k by armor, under its 20k limit), reading every version's whole
// text on the main thread. One request held /healthz for 4.1 s (RSS 810 MB); four, 13.2 s (1.5 GB).
// Shared by the test (./read-attack.test.ts) and the bench (bench/read-attack.ts), which runs it
// against this checkout or another one for before/after figures.
import { readFileSync } from "node:fs";

export const DOCUMENT_CHARS = 390_000;
export const DOCUMENT_VERSIONS = 111;

/** Plain prose of exactly `chars` characters in paragraphs: its extracted text is as long as its markdown. */
export function plainText(chars: number): string {
  const words = ["budget", "review", "quarter", "agenda", "renewal", "contract", "roadmap", "launch", "summary", "notes"];
  const paragraphs: string[] = [];
  let length = 0;
  for (let p = 0; length < chars; p++) {
    const sentence = Array.from({ length: 150 }, (_, w) => words[(p * 7 + w * 3) % words.length]).join(" ");
    paragraphs.push(sentence);
    length += sentence.length + 2;
  }
  return paragraphs.join("\n\n").slice(0, chars).trimEnd();
}

async function call(url: string, auth: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, {
    method,
    headers: { authorization: auth, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${method} ${url}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

/**
 * Builds the document through the REST API as a user would: created from markdown, then renamed
 * until it has `versions` versions (a rename keeps the content: every version holds the whole text).
 */
export async function buildLivingDocument(
  base: string,
  auth: string,
  options: { chars?: number; versions?: number } = {},
): Promise<{ id: string; characters: number; versions: number }> {
  const created = await call(`${base}/api/v1/documents`, auth, "POST", {
    name: "living",
    markdown: plainText(options.chars ?? DOCUMENT_CHARS),
  });
  const { id, characters } = (await created.json()) as { id: string; characters: number };
  const versions = options.versions ?? DOCUMENT_VERSIONS;
  for (let version = 1; version < versions; version++) {
    await (
      await call(`${base}/api/v1/documents/${id}`, auth, "PUT", { name: `living ${version + 1}` }, { "if-match": `"v${version}"` })
    ).arrayBuffer();
  }
  return { id, characters, versions };
}

/** The attack: `aliases` aliases of 100 versions' text, maxChars 1. */
export function attackQuery(id: string, aliases: number): string {
  const field = `document(id: "${id}") { versions(first: 100) { edges { node { text(maxChars: 1) { text } } } } }`;
  return `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: ${field}`).join(" ")} }`;
}

export interface Answer {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string; details?: Record<string, unknown> } }[] };
}

export function postGraphQL(base: string, auth: string, query: string): Promise<Answer> {
  return fetch(`${base}/graphql`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify({ query }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as Answer["body"] }));
}

/** Resident set size of a process, in MB (Linux VmRSS). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

export interface Sampled {
  answers: Answer[];
  /** Slowest /healthz answer while the requests ran, sampled every 50 ms. */
  healthMaxMs: number;
  healthSamples: number;
  rssBeforeMb: number;
  rssMaxMb: number;
  /** Until the last answer. */
  elapsedMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `concurrent` copies of `query` at once while /healthz (every 50 ms) and the gateway's RSS
 * (every 20 ms) are sampled, until every answer is in and one more health sample after it.
 */
export async function underAttack(base: string, pid: number, auth: string, query: string, concurrent: number): Promise<Sampled> {
  const rssBeforeMb = rssMb(pid);
  let rssMaxMb = rssBeforeMb;
  let done = false;
  const health: number[] = [];
  const rssTimer = setInterval(() => (rssMaxMb = Math.max(rssMaxMb, rssMb(pid))), 20);
  const sampler = (async () => {
    let last = false;
    while (!last) {
      last = done;
      const sent = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      health.push(performance.now() - sent);
      await sleep(Math.max(0, 50 - (performance.now() - sent)));
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: concurrent }, () => postGraphQL(base, auth, query)));
  const elapsedMs = performance.now() - started;
  done = true;
  await sampler;
  clearInterval(rssTimer);
  rssMaxMb = Math.max(rssMaxMb, rssMb(pid));
  return { answers, healthMaxMs: Math.max(...health), healthSamples: health.length, rssBeforeMb, rssMaxMb, elapsedMs };
}
