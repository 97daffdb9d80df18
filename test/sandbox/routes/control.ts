// The control API under /__sandbox (no auth, never recorded, never faulted), for tests in other
// processes and for `npm run demo`.
import { jsonBody } from "../body.ts";
import { HttpError } from "../errors.ts";
import type { FaultController } from "../faults.ts";
import { json, route, type Route } from "../http.ts";
import type { Recorder } from "../recording.ts";

export interface ControlDeps {
  faults: FaultController;
  recorder: Recorder;
  reset(): Promise<void>;
  info(): { url: string; tenants: Record<string, string>; seed: number };
}

function setOrAdd(deps: ControlDeps, body: unknown, append: boolean): void {
  const specs = body && typeof body === "object" && !Array.isArray(body) && "faults" in body ? (body as { faults: unknown }).faults : body;
  try {
    if (append) deps.faults.add(specs);
    else deps.faults.set(specs);
  } catch (error) {
    throw new HttpError(400, (error as Error).message);
  }
}

export function controlRoutes(deps: ControlDeps): Route[] {
  const faultList = () => json(200, { faults: deps.faults.list() });
  return [
    route("GET", "/__sandbox/health", () => json(200, { ok: true, ...deps.info() })),
    route("GET", "/__sandbox/faults", faultList),
    // Body: a FaultSpec, a FaultSpec[] or {faults: FaultSpec[]}. Replaces the faults; `?append=true` adds.
    route("POST", "/__sandbox/faults", (ctx) => {
      setOrAdd(deps, jsonBody(ctx.body), ctx.query.get("append") === "true");
      return faultList();
    }),
    route("DELETE", "/__sandbox/faults", () => {
      deps.faults.clear();
      return faultList();
    }),
    // ?path=<prefix>&method=<METHOD> filter.
    route("GET", "/__sandbox/requests", (ctx) =>
      json(200, { data: deps.recorder.filter(ctx.query.get("path") ?? undefined, ctx.query.get("method") ?? undefined) }),
    ),
    route("DELETE", "/__sandbox/requests", () => {
      deps.recorder.clear();
      return json(200, { data: [] });
    }),
    route("GET", "/__sandbox/counts", (ctx) => {
      const path = ctx.query.get("path") ?? undefined;
      const method = ctx.query.get("method") ?? undefined;
      return json(200, { counts: deps.recorder.counts(), total: deps.recorder.count(path, method) });
    }),
    // Clears faults and requests and reloads the seed (created objects and uploads are dropped).
    route("POST", "/__sandbox/reset", async () => {
      await deps.reset();
      return json(200, { ok: true });
    }),
  ];
}
