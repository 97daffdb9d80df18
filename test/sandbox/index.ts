// The sandbox upstream: a stand-in for the external products of docs/api.md "Upstreams", for tests and demos.
// Never used by `npm start`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FaultController, type ActiveFault, type FaultSpec } from "./faults.ts";
import type { SeedData } from "./model.ts";
import { Recorder, type RecordedRequest } from "./recording.ts";
import { calendarRoutes } from "./routes/calendar.ts";
import { controlRoutes } from "./routes/control.ts";
import { driveRoutes } from "./routes/drive.ts";
import { emailRoutes } from "./routes/email.ts";
import { meetingRoutes } from "./routes/meetings.ts";
import { searchRoutes } from "./routes/search.ts";
import { tenantRoutes } from "./routes/tenant.ts";
import { DEFAULT_SEED, createSeedData } from "./seed.ts";
import { createRequestListener, type PipelineDeps } from "./server.ts";
import { SandboxStore } from "./store.ts";

export type { FaultSpec, ActiveFault } from "./faults.ts";
export type { RecordedRequest } from "./recording.ts";
export type * from "./model.ts";
export { createSeedData, DEFAULT_SEED } from "./seed.ts";

export interface SandboxOptions {
  /** Port of the API base (and the path-based tenant bases); 0 (default) picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed of the generated data (default 42). Same seed → same data. */
  seed?: number;
  /** Bearer tokens valid at the API base (mail, drive, search, meetings). Default ["sandbox-token"]; "*" accepts any token. */
  tokens?: string[];
  /** Tenants and the tokens valid at each one's base. Default { acme: ["acme-token"], globex: ["globex-token"] }. */
  tenants?: Record<string, { tokens: string[] }>;
  /** Also serve each tenant on its own port (at the root); tenantBaseUrl then returns that URL. */
  tenantPorts?: boolean;
  /** Path segment of the data-query endpoint (default "dataquery"). */
  dataquerySegment?: string;
  /** Largest accepted upload (default 512 MiB); larger → 413. */
  maxUploadBytes?: number;
  /** Largest accepted JSON/text body (default 10 MiB); larger → 413. */
  maxJsonBytes?: number;
}

export interface Sandbox {
  /** API base, no trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  /** `${url}/tenants/<tenant>`, or the tenant's own `http://host:port` with tenantPorts. */
  tenantBaseUrl(tenant: string): string;
  /** Recorded requests in arrival order (a live array; clearRequests empties it in place). */
  requests: RecordedRequest[];
  clearRequests(): void;
  /** Recorded requests whose path (as received, or under the tenant base) starts with pathPrefix. */
  countRequests(pathPrefix?: string, method?: string): number;
  /** Replaces the active faults. Throws on an invalid spec. */
  setFaults(f: FaultSpec[]): void;
  clearFaults(): void;
  /** The seeded objects, as generated (not changed by requests), so tests can compute expectations. */
  data: SeedData;
  close(): Promise<void>;

  // Extras.
  /** Adds faults after the active ones. */
  addFaults(f: FaultSpec | FaultSpec[]): void;
  /** Active faults with how many requests each matched and was applied to. */
  listFaults(): ActiveFault[];
  /** Recorded requests filtered like countRequests. */
  requestsTo(pathPrefix?: string, method?: string): RecordedRequest[];
  /** Counters keyed by "METHOD /path". */
  counts(): Record<string, number>;
  /** Clears requests and faults and reloads the seed (drops created objects and uploads). */
  reset(): Promise<void>;
  /** The live state (messages sent, files uploaded, …). */
  store: SandboxStore;
  /** Tenant id → base URL. */
  tenantUrls: Record<string, string>;
}

export const DEFAULT_TOKENS = ["sandbox-token"];
export const DEFAULT_TENANTS: Record<string, { tokens: string[] }> = {
  acme: { tokens: ["acme-token"] },
  globex: { tokens: ["globex-token"] },
};
const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * The fake keeps idle connections longer than any client here (undici honours the hint, 1 s early):
 * the client then closes them first. At Node's default 5 s, a test that blocks the event loop it
 * shares with the fake for 5 s (under load) could send on a socket the fake closes in that same turn
 * (ECONNRESET on a streamed body, which cannot be retried).
 */
function serverOf(listener: ReturnType<typeof createRequestListener>): Server {
  const server = createServer(listener);
  server.keepAliveTimeout = 30_000;
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const seed = options.seed ?? DEFAULT_SEED;
  const tenants = options.tenants ?? DEFAULT_TENANTS;
  for (const id of Object.keys(tenants))
    if (!TENANT_ID.test(id)) throw new Error(`invalid tenant id ${JSON.stringify(id)} (expected [a-z0-9][a-z0-9-]{0,62})`);
  const segment = options.dataquerySegment ?? "dataquery";
  if (!/^[A-Za-z0-9._~-]+$/.test(segment)) throw new Error(`invalid dataquerySegment ${JSON.stringify(segment)}`);

  const data = createSeedData(seed, Object.keys(tenants));
  const store = new SandboxStore(data);
  const recorder = new Recorder();
  const faults = new FaultController(seed);
  const uploadDir = await mkdtemp(join(tmpdir(), "ws-sandbox-"));
  const abort = new AbortController();
  const servers: Server[] = [];
  const tenantUrls: Record<string, string> = {};
  let url = "";

  const reset = async (): Promise<void> => {
    recorder.clear();
    faults.clear();
    await store.reset();
  };
  const deps: PipelineDeps = {
    store,
    recorder,
    faults,
    apiRoutes: [...emailRoutes, ...calendarRoutes, ...driveRoutes, ...searchRoutes, ...meetingRoutes],
    tenantRoutes: tenantRoutes(segment),
    controlRoutes: controlRoutes({ faults, recorder, reset, info: () => ({ url, tenants: { ...tenantUrls }, seed }) }),
    apiTokens: new Set(options.tokens ?? DEFAULT_TOKENS),
    tenantTokens: new Map(Object.entries(tenants).map(([id, t]) => [id, new Set(t.tokens)])),
    limits: {
      maxJsonBytes: options.maxJsonBytes ?? 10 * 1024 * 1024,
      maxUploadBytes: options.maxUploadBytes ?? 512 * 1024 * 1024,
      uploadDir,
    },
    signal: abort.signal,
  };

  const close = async (): Promise<void> => {
    abort.abort();
    await Promise.all(servers.map(closeServer));
    await store.removeUploads();
    await rm(uploadDir, { recursive: true, force: true });
  };

  try {
    const main = serverOf(createRequestListener(deps));
    servers.push(main);
    url = `http://${urlHost(host)}:${await listen(main, options.port ?? 0, host)}`;
    for (const tenant of Object.keys(tenants)) {
      if (options.tenantPorts) {
        const server = serverOf(createRequestListener(deps, tenant));
        servers.push(server);
        tenantUrls[tenant] = `http://${urlHost(host)}:${await listen(server, 0, host)}`;
      } else {
        tenantUrls[tenant] = `${url}/tenants/${tenant}`;
      }
    }
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url,
    tenantBaseUrl: (tenant) => tenantUrls[tenant] ?? `${url}/tenants/${encodeURIComponent(tenant)}`,
    get requests() {
      return recorder.requests;
    },
    clearRequests: () => recorder.clear(),
    countRequests: (pathPrefix, method) => recorder.count(pathPrefix, method),
    setFaults: (f) => faults.set(f),
    clearFaults: () => faults.clear(),
    data,
    close,
    addFaults: (f) => faults.add(f),
    listFaults: () => faults.list(),
    requestsTo: (pathPrefix, method) => recorder.filter(pathPrefix, method),
    counts: () => recorder.counts(),
    reset,
    store,
    tenantUrls,
  };
}
