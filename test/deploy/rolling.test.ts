// A rolling restart of two replicas under load loses no request (docs/deploy.md#shutdown-and-rolling-restarts).
// Two gateway processes share one PostgreSQL schema; in front, a small round-robin balancer with
// keep-alive connections to the replicas, in one of two styles:
//  - nginx-like (deploy/nginx.conf): a request whose connection was refused, or whose reused idle
//    keep-alive connection the replica reset before reading it, is retried on the other replica
//    whatever its method, and a GET that failed before its response header is retried too; a POST
//    that may have reached a replica is never resent,
//    and a replica that refused is skipped for a second;
//  - probe-driven (a Kubernetes Service, a cloud balancer): a new connection per request, never
//    retried; it polls /readyz every 500 ms and sends only to replicas that answered 200. Here a
//    replica that stopped accepting before the balancer noticed fails requests (tried: with
//    SHUTDOWN_DRAIN_MS=0 this case fails): the drain delay is what prevents it.
// While clients list and create documents without pause, replica A gets SIGTERM (drain 2.5 s, five probe intervals),
// exits 0 and is replaced, then B. Every request must succeed, and every create must be stored once.
// One kind of failure is allowed, as docs/deploy.md says: behind a passive balancer, a POST on a
// connection the kernel completed in the moment between the replica's last quiet turn and the
// listener's close is reset unread, and the balancer cannot know it was unread (a 502). The clients do what that page
// asks of clients: they resend such a create once, with its Idempotency-Key. At most one per restart
// may happen, and nothing else may fail; the probe-driven balancer must see none.
import { Agent, createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { startGatewayProcess, type GatewayProcess } from "../helpers/process.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const { databaseUrl } = usePostgresSchema("gw_roll");

interface Backend {
  url: URL;
  downUntil: number;
  ready: boolean;
}

type Style = "nginx-like" | "probe-driven";

/**
 * The balancer's 502 for a POST on a new connection the kernel reset unread as the replica's
 * listener closed: the race docs/deploy.md leaves to clients (resend with the key).
 */
const UNREAD_POST = /^balancer: read ECONNRESET \(POST, new connection\)$/;

/** The balancer: round-robin; nginx-like (retry a refused connection, passive health 1 s) or probe-driven (/readyz every 500 ms, no retry). */
function balancer(backends: Backend[], style: Style): Promise<{ server: Server; url: string; retried: () => number; close: () => void }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  let next = 0;
  let retries = 0;
  const probe =
    style === "probe-driven"
      ? setInterval(() => {
          for (const backend of backends) {
            const current = backend;
            fetch(new URL("/readyz", current.url)).then(
              (r) => void r.arrayBuffer().then(() => (current.ready = r.status === 200)),
              () => (current.ready = false),
            );
          }
        }, 500)
      : undefined;
  const send = (backend: Backend, req: IncomingMessage, body: Buffer): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const out = request(
        {
          host: backend.url.hostname,
          port: backend.url.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: backend.url.host },
          agent: style === "nginx-like" ? agent : false,
        },
        resolve,
      );
      // A keep-alive socket the replica closed as idle while this request was being written: the
      // replica never read the request, so resending it (even a POST) is safe, as Node's docs say and
      // as balancers do (Envoy's reset-before-request, nginx's extra try on a cached connection).
      out.on("error", (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reused: out.reusedSocket })));
      out.end(body);
    });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // Every failure is answered inside (a 502), so the listener may drop the promise.
    req.on("end", () => void balance(Buffer.concat(chunks)));
    const balance = async (body: Buffer) => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const now = Date.now();
        const healthy = backends.filter((b) => (style === "probe-driven" ? b.ready : b.downUntil <= now));
        const backend = (healthy.length > 0 ? healthy : backends)[next++ % (healthy.length || backends.length)]!;
        try {
          const answer = await send(backend, req, body);
          res.writeHead(answer.statusCode!, { "content-type": answer.headers["content-type"] ?? "application/octet-stream" });
          answer.pipe(res);
          return;
        } catch (error) {
          backend.downUntil = Date.now() + 1_000;
          // Like nginx's proxy_next_upstream error: nothing was sent on a connection that failed to be
          // established (refused, or reset during connect as a listener closed), nor read from a
          // reused idle one the replica reset.
          const { code, reused, syscall } = error as NodeJS.ErrnoException & { reused?: boolean };
          const unsent =
            code === "ECONNREFUSED" || syscall === "connect" || (reused === true && (code === "ECONNRESET" || code === "EPIPE"));
          // nginx's proxy_next_upstream error also resends an idempotent request that failed before
          // its response header, whatever the connection; a POST that may have been read never is.
          const idempotent = req.method === "GET" || req.method === "HEAD";
          if (style === "nginx-like" && (unsent || idempotent) && attempt === 0) {
            retries++;
            continue;
          }
          res.writeHead(502).end(`balancer: ${(error as Error).message} (${req.method}, ${reused === true ? "reused" : "new"} connection)`);
          return;
        }
      }
      res.writeHead(502).end("balancer: no replica");
    };
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        retried: () => retries,
        close: () => {
          clearInterval(probe);
          server.close();
          agent.destroy();
        },
      }),
    ),
  );
}

it.each<[Style]>([["nginx-like"], ["probe-driven"]])(
  "%s balancer, restarting replica A then B under load: every request 2xx, every create stored once",
  { timeout: 180_000 },
  async (style) => {
    const owner = `roll-${style}`;
    const store = await openPostgresStore(databaseUrl, { poolMax: 1 });
    const { key } = await createApiKey(store, { userId: owner });
    await store.close();
    const env = { DATABASE_URL: databaseUrl, SHUTDOWN_DRAIN_MS: "2500", SHUTDOWN_TIMEOUT_MS: "10000", PG_POOL_MAX: "4", LOG_LEVEL: "warn" };
    // startGatewayProcess reads the URL from the "listening" line, logged at info.
    const start = () => startGatewayProcess({ ...env, LOG_LEVEL: "info" });
    const replicas: GatewayProcess[] = [await start(), await start()];
    const backends: Backend[] = replicas.map((r) => ({ url: new URL(r.url), downUntil: 0, ready: true }));
    const lb = await balancer(backends, style);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const created = new Set<string>();
    let stop = false;
    const races: string[] = [];
    const client = async (n: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; !stop; i++) {
        const create = i % 3 === 0;
        const send = () =>
          new Promise<{ status: number; body: string }>((resolve) => {
            const out = request(
              `${lb.url}/api/v1/documents${create ? "" : "?limit=5"}`,
              {
                method: create ? "POST" : "GET",
                agent,
                headers: {
                  authorization: `Bearer ${key}`,
                  ...(create ? { "content-type": "application/json", "idempotency-key": `c${n}-${i}` } : {}),
                },
              },
              (res) => {
                let body = "";
                res.setEncoding("utf8");
                res.on("data", (c: string) => (body += c));
                res.on("end", () => resolve({ status: res.statusCode!, body }));
              },
            );
            out.on("error", (error) => resolve({ status: 0, body: error.message }));
            out.end(create ? JSON.stringify({ name: `roll ${n}-${i}`, markdown: `# Roll ${n} ${i}\n\nUnder **load**.` }) : undefined);
          });
        let answer = await send();
        if (create && answer.status === 502 && UNREAD_POST.test(answer.body)) {
          races.push(answer.body);
          answer = await send();
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status !== 200 && answer.status !== 201) failures.push(`${answer.status} ${answer.body.slice(0, 200)}`);
        // A resent create answers 201, created now, or the first answer again (Idempotent-Replayed).
        if (create && (answer.status === 201 || answer.status === 200)) created.add((JSON.parse(answer.body) as { id: string }).id);
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 4 }, (_, n) => client(n));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      await pause(1_000);
      for (const index of [0, 1]) {
        const old = replicas[index]!;
        const exited = new Promise<number | null>((resolve) => old.child.once("exit", resolve));
        old.child.kill("SIGTERM");
        expect(await exited).toBe(0);
        const fresh = await start();
        replicas[index] = fresh;
        // A new replica joins when the balancer finds it ready (at once for the nginx-like one).
        backends[index] = { url: new URL(fresh.url), downUntil: 0, ready: style === "nginx-like" };
        await pause(1_000);
      }
    } finally {
      stop = true;
      await Promise.all(clients);
      lb.close();
      for (const replica of replicas) await replica.stop();
    }
    if (races.length > 0)
      console.log(`rolling restart, ${style} balancer: ${races.length} create(s) reset unread as a listener closed, resent with their key`);
    expect(failures).toEqual([]);
    expect(races.length).toBeLessThanOrEqual(style === "nginx-like" ? 2 : 0);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(5);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(10);
    // Every create answered 201 is stored, once.
    const check = await openPostgresStore(databaseUrl, { poolMax: 1 });
    try {
      const stored = await check.documents.list({ ownerId: owner, limit: 100_000 });
      expect(stored.map((d) => d.id).sort()).toEqual([...created].sort());
    } finally {
      await check.close();
    }
    console.log(
      `rolling restart, ${style} balancer: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}; ${lb.retried()} refused connection(s) retried on the other replica`,
    );
  },
);
