// Issue 37's findings F1, F5 and F6 as an attacker ran them from outside with ordinary keys, and
// what they cost another user: a long evaluate (F1), 100,000-cell answers (F5), a 100,000-formula
// chain created and then rewritten at its root (F6). While an attack runs, /healthz is sampled every
// 50 ms, the gateway's RSS every 20 ms, and a second user (the victim) reads and writes one cell of
// their own workbook over and over. Shared by the test (./trust.test.ts) and the bench
// (bench/trust.ts), which runs it against this checkout or another one for before/after figures.
import { memoryOf } from "../helpers/process.ts";

export interface Caller {
  base: string;
  auth: string;
}

export interface Answer {
  status: number;
  /** The body's first bytes (an error's code is in them). */
  text: string;
  bytes: number;
  ms: number;
  /** The Retry-After header, if any. */
  retryAfter: string | null;
}

/** One request, timed to the last byte of its answer. */
export async function call(
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const sent = performance.now();
  const response = await fetch(`${caller.base}${path}`, {
    method,
    headers: { authorization: caller.auth, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = await response.arrayBuffer();
  const text = new TextDecoder().decode(bytes.slice(0, 400));
  return {
    status: response.status,
    text,
    bytes: bytes.byteLength,
    ms: performance.now() - sent,
    retryAfter: response.headers.get("retry-after"),
  };
}

async function created(caller: Caller, body: unknown): Promise<{ id: string; answer: Answer }> {
  const sent = performance.now();
  const response = await fetch(`${caller.base}/api/v1/spreadsheets`, {
    method: "POST",
    headers: { authorization: caller.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`create: HTTP ${response.status} ${text.slice(0, 400)}`);
  const answer = { status: response.status, text: text.slice(0, 400), bytes: text.length, ms: performance.now() - sent, retryAfter: null };
  return { id: (JSON.parse(text) as { id: string }).id, answer };
}

/** A small workbook of the victim's: 10 rows of 5 numbers. */
export const createSmall = (caller: Caller, name = "victim") =>
  created(caller, {
    name,
    sheets: [{ name: "Sheet1", values: Array.from({ length: 10 }, (_, r) => [1, 2, 3, 4, 5].map((c) => r * 5 + c)) }],
  });

/** 100,000 numbers: 1,000 rows × 100 columns (A1:CV1000). */
export const createGrid = (caller: Caller) =>
  created(caller, {
    name: "grid",
    sheets: [{ name: "Sheet1", values: Array.from({ length: 1000 }, (_, r) => Array.from({ length: 100 }, (_, c) => r * 100 + c)) }],
  });

/** F6: `A1` = 1 and `A{n}` = `A{n-1}+1` down to row `rows`. */
export const createChain = (caller: Caller, rows = 100_000) =>
  created(caller, {
    name: "chain",
    sheets: [{ name: "Sheet1", values: Array.from({ length: rows }, (_, r) => [r === 0 ? 1 : `=A${r}+1`]) }],
  });

/** F6 over GraphQL: the same chain as `createSpreadsheet`'s variables (the whole body parsed by the GraphQL surface). */
export const createChainGraphql = (caller: Caller, rows = 100_000) =>
  call(caller, "POST", "/graphql", {
    query: "mutation Create($input: CreateSpreadsheetInput!) { createSpreadsheet(input: $input) { id } }",
    variables: {
      input: { name: "chain", sheets: [{ name: "Sheet1", values: Array.from({ length: rows }, (_, r) => [r === 0 ? 1 : `=A${r}+1`]) }] },
    },
  });

/** F6 over tRPC: `sheets.create` with the chain as its input (the body parsed by the tRPC surface). */
export const createChainTrpc = (caller: Caller, rows = 100_000) =>
  call(caller, "POST", "/trpc/sheets.create", {
    name: "chain",
    sheets: [{ name: "Sheet1", values: Array.from({ length: rows }, (_, r) => [r === 0 ? 1 : `=A${r}+1`]) }],
  });

/** The victim's turn: read a range of their workbook, then write one cell of it. */
export async function victimTurn(victim: Caller, id: string, n: number): Promise<{ read: Answer; write: Answer }> {
  const read = await call(victim, "GET", `/api/v1/spreadsheets/${id}/values/A1:E10`);
  const write = await call(victim, "PUT", `/api/v1/spreadsheets/${id}/values/B2`, { values: [[n]] });
  return { read, write };
}

export interface Sampled<T> {
  result: T;
  /** Until the attack's last answer. */
  elapsedMs: number;
  healthMaxMs: number;
  healthSamples: number;
  rssBeforeMb: number;
  rssMaxMb: number;
  /** The victim's slowest read and write while the attack ran, and how many turns it had. */
  victimReadMaxMs: number;
  victimWriteMaxMs: number;
  victimTurns: number;
  /** Statuses the victim got that were not 200 (none expected). */
  victimFailures: string[];
  /** When the victim's first turn finished, ms after the attack started. */
  victimFirstTurnAtMs: number | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attack` while /healthz is sampled every 50 ms, the gateway's RSS every 20 ms, and the
 * victim takes turns (a read and a one-cell write of their own workbook, 100 ms apart, the first
 * `victimDelayMs` after the attack started) until the attack has answered.
 */
export async function underAttack<T>(
  base: string,
  pid: number,
  victim: { caller: Caller; id: string } | undefined,
  attack: () => Promise<T>,
  options: { victimDelayMs?: number } = {},
): Promise<Sampled<T>> {
  const rss = () => memoryOf(pid).rss / (1024 * 1024);
  const rssBeforeMb = rss();
  let rssMaxMb = rssBeforeMb;
  let done = false;
  const health: number[] = [];
  const rssTimer = setInterval(() => (rssMaxMb = Math.max(rssMaxMb, rss())), 20);
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
  const turns: { read: Answer; write: Answer }[] = [];
  let victimFirstTurnAtMs: number | undefined;
  const victimLoop = (async () => {
    if (!victim) return;
    await sleep(options.victimDelayMs ?? 100);
    for (let n = 1; !done; n++) {
      turns.push(await victimTurn(victim.caller, victim.id, n));
      victimFirstTurnAtMs ??= performance.now() - started;
      await sleep(100);
    }
  })();
  let result: T;
  try {
    result = await attack();
  } finally {
    done = true;
  }
  const elapsedMs = performance.now() - started;
  await Promise.all([sampler, victimLoop]);
  clearInterval(rssTimer);
  rssMaxMb = Math.max(rssMaxMb, rss());
  const failures = turns.flatMap(({ read, write }) => [read, write]).filter((a) => a.status !== 200);
  return {
    result,
    elapsedMs,
    healthMaxMs: Math.max(...health),
    healthSamples: health.length,
    rssBeforeMb,
    rssMaxMb,
    victimReadMaxMs: Math.max(0, ...turns.map((t) => t.read.ms)),
    victimWriteMaxMs: Math.max(0, ...turns.map((t) => t.write.ms)),
    victimTurns: turns.length,
    victimFailures: failures.map((a) => `${a.status} ${a.text.slice(0, 120)}`),
    victimFirstTurnAtMs,
  };
}

/** F1: the evaluate the red team sent with only sheets:read. */
export const F1_FORMULA = "=SUMPRODUCT(A1:XFD1000*1)";

export const evaluate = (attacker: Caller, id: string, formula = F1_FORMULA) =>
  call(attacker, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula });

/** F5: three 100,000-cell ranges in one GraphQL query. */
export const graphqlRanges = (attacker: Caller, id: string) =>
  call(attacker, "POST", "/graphql", {
    query: `{ ${["a", "b", "c"].map((alias) => `${alias}: spreadsheet(id: "${id}") { range(range: "A1:CV1000", maxCells: 100000) { values truncated } }`).join(" ")} }`,
  });

/** F5: one REST read of 100,000 cells. */
export const restRead = (attacker: Caller, id: string) =>
  call(attacker, "GET", `/api/v1/spreadsheets/${id}/values/A1:CV1000?maxCells=100000`);

/** F5: every row as CSV. */
export const csvRows = (attacker: Caller, id: string) =>
  call(attacker, "GET", `/api/v1/spreadsheets/${id}/values/1:1048576?format=csv&maxCells=100000`);

/** F6: the chain's root rewritten (every formula below it recalculates). */
export const writeChainRoot = (attacker: Caller, id: string) =>
  call(attacker, "PUT", `/api/v1/spreadsheets/${id}/values/A1`, { values: [[2]] });
