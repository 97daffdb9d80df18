// Graceful shutdown behind a load balancer (docs/deploy.md#shutdown), on the real process: after
// SIGTERM /readyz answers 503 "draining" at once while requests are still served (with
// `Connection: close`) for SHUTDOWN_DRAIN_MS; then new connections are refused, an in-flight create
// (its body still arriving, then rendered in a worker) completes, idle keep-alive sockets are
// closed, and the process exits 0 with the document stored. Past SHUTDOWN_TIMEOUT_MS a request
// still in flight is cut and the process exits anyway, its PostgreSQL pool closed.
import { request, Agent, type IncomingMessage } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { startGatewayProcess } from "../helpers/process.ts";
import { testDatabaseUrl, usePostgresSchema } from "../helpers/postgres.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}
const read = (res: IncomingMessage): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let body = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (body += chunk));
    res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    res.on("error", reject);
  });

/** One GET on a new connection (no keep-alive pool). */
const get = (url: string, path: string, headers: Record<string, string> = {}, agent?: Agent): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers, agent: agent ?? false }, (res) => void read(res).then(resolve, reject));
    req.on("error", reject);
    req.end();
  });

it("drains: /readyz 503 at once, requests served with Connection: close, then refused; the in-flight create completes; exit 0", async () => {
  const DRAIN_MS = 3_000;
  const dataDir = await mkdtemp(join(tmpdir(), "wg-drain-"));
  dirs.push(dataDir);
  const store = openSqliteStore(dataDir);
  const { key } = await createApiKey(store, { userId: "drain" });
  await store.close();
  const { child, url, stop } = await startGatewayProcess({
    DATA_DIR: dataDir,
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_TIMEOUT_MS: "20000",
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const auth = { authorization: `Bearer ${key}` };
    // An idle keep-alive connection, as a load balancer or client pool holds one.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(url, "/readyz", {}, keepAlive)).status).toBe(200);
    const idleSocket = Object.values(keepAlive.freeSockets)[0]?.[0];
    expect(idleSocket).toBeDefined();
    const idleClosed = new Promise<void>((resolve) => idleSocket!.once("close", () => resolve()));

    // A create in flight: its headers are in, its body arrives in two halves around the SIGTERM.
    const body = JSON.stringify({ name: "in flight at SIGTERM", markdown: `# Drain\n\n${"Some **bold** text. ".repeat(2_000)}` });
    const inFlight = request(`${url}/api/v1/documents`, {
      method: "POST",
      agent: false,
      headers: { ...auth, "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    const answered = new Promise<Answer>((resolve, reject) => {
      inFlight.on("response", (res) => void read(res).then(resolve, reject));
      inFlight.on("error", reject);
    });
    inFlight.write(body.slice(0, body.length / 2));
    inFlight.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const termAt = Date.now();
    child.kill("SIGTERM");
    // Readiness turns false at once (well within the drain delay)…
    let ready: Answer;
    do ready = await get(url, "/readyz");
    while (ready.status === 200 && Date.now() - termAt < DRAIN_MS / 2);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: "draining" });
    expect(Date.now() - termAt).toBeLessThan(DRAIN_MS);
    // …while a request on a new connection is still served, asking its client to close.
    const served = await get(url, "/api/v1/documents?limit=5", auth);
    expect(served.status).toBe(200);
    expect(served.headers.connection).toBe("close");
    expect(Date.now() - termAt).toBeLessThan(DRAIN_MS);

    // After the drain delay the listener is closed: new connections are refused.
    let refusedAt: number | undefined;
    while (refusedAt === undefined && Date.now() - termAt < DRAIN_MS + 10_000) {
      await get(url, "/healthz").then(
        () => new Promise((resolve) => setTimeout(resolve, 25)),
        (error: NodeJS.ErrnoException) => {
          expect(error.code).toBe("ECONNREFUSED");
          refusedAt = Date.now();
        },
      );
    }
    expect(refusedAt).toBeDefined();
    expect(refusedAt! - termAt).toBeGreaterThanOrEqual(DRAIN_MS - 50);
    await idleClosed; // the idle keep-alive socket was closed by the server
    expect(child.exitCode).toBeNull(); // still waiting for the in-flight create

    // The in-flight create now finishes its body, is rendered, stored and answered.
    inFlight.end(body.slice(body.length / 2));
    const created = await answered;
    expect(created.status).toBe(201);
    expect(created.headers.connection).toBe("close");
    const id = (JSON.parse(created.body) as { id: string }).id;
    expect(await exited).toBe(0);

    const after = openSqliteStore(dataDir);
    try {
      expect((await after.documents.list({ ownerId: "drain", limit: 10 })).map((doc) => doc.id)).toEqual([id]);
    } finally {
      await after.close();
    }
  } finally {
    await stop();
  }
});

const { databaseUrl } = usePostgresSchema("gw_shutdown");

it("past SHUTDOWN_TIMEOUT_MS the in-flight request is cut, the process exits 0 anyway, and its PostgreSQL pool is closed", async () => {
  const TIMEOUT_MS = 1_500;
  // Its own application_name, to find this gateway's backends (and only them) in pg_stat_activity.
  const app = `wg_shutdown_${process.pid}`;
  const backends = async () => {
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1", [app]);
      return Number(rows[0]!.n);
    } finally {
      await admin.end();
    }
  };
  const keyStore = await openPostgresStore(databaseUrl, { poolMax: 1 });
  const { key } = await createApiKey(keyStore, { userId: "deadline" }).finally(() => keyStore.close());
  const { child, url, stop } = await startGatewayProcess({
    DATABASE_URL: `${databaseUrl}&application_name=${app}`,
    SHUTDOWN_DRAIN_MS: "0",
    SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const messages: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.startsWith("{")) messages.push((JSON.parse(line) as { msg: string }).msg);
  });
  try {
    const auth = { authorization: `Bearer ${key}` };
    expect((await get(url, "/api/v1/documents", auth)).status).toBe(200);
    expect(await backends()).toBeGreaterThan(0);

    // A create whose body never finishes: it is still in flight at the deadline.
    const inFlight = request(`${url}/api/v1/documents`, {
      method: "POST",
      agent: false,
      headers: { ...auth, "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    const outcome = new Promise<string>((resolve) => {
      inFlight.on("response", (res) => resolve(`answered ${res.statusCode}`));
      inFlight.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    inFlight.write('{"name":"never finished","markdown":"# ');
    inFlight.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const termAt = Date.now();
    child.kill("SIGTERM");
    const cut = await outcome;
    const cutAfter = Date.now() - termAt;
    expect(cut).toBe("ECONNRESET"); // the socket destroyed under it, no answer
    expect(cutAfter).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(await exited).toBe(0);
    expect(Date.now() - termAt).toBeLessThan(TIMEOUT_MS + 10_000);
    // "stopped" is logged once gateway.close() (render workers, Redis, the store's pool) returned.
    expect(messages).toEqual(expect.arrayContaining(["shutting down", "stopped"]));
    // PostgreSQL drops a backend a moment after its client goes: poll briefly.
    let left = await backends();
    for (const started = Date.now(); left > 0 && Date.now() - started < 5_000; left = await backends()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(left).toBe(0);
  } finally {
    await stop();
  }
});
