// Fault injection: which requests a fault applies to (scope, count, after) and what it does.
import { z } from "zod";
import { createRng, type Rng } from "./rng.ts";

const scopeShape = {
  /** Path prefix; matched against the path as received and against the path under the tenant base. */
  path: z.string().startsWith("/").optional(),
  /** Regular expression (source text), matched against the same two paths. */
  pathPattern: z.string().optional(),
  /** HTTP method (any case); all methods when absent. */
  method: z.string().optional(),
  /** Only requests to this tenant; when absent, API and tenant requests alike. */
  tenant: z.string().optional(),
  /** Apply to at most this many matching requests, then let the rest through. Unlimited when absent. */
  count: z.number().int().min(0).optional(),
  /** Let this many matching requests through untouched before applying. */
  after: z.number().int().min(0).optional(),
  /** Apply to this share of the (otherwise eligible) matching requests, drawn independently per fault (seeded). */
  probability: z.number().min(0).max(1).optional(),
};

const errorShape = {
  code: z.string().optional(),
  message: z.string().optional(),
  /** Sets `Retry-After` (seconds, or an HTTP date). */
  retryAfter: z.union([z.number(), z.string()]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Replaces the default `{"error":{code,message}}` body. */
  body: z.unknown().optional(),
};

const status = z.number().int().min(100).max(599);

export const faultSpecSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("latency"), ms: z.number().min(0), ...scopeShape }),
  z.object({ type: z.literal("status"), status, ...errorShape, ...scopeShape }),
  z.object({ type: z.literal("fail-once"), status: status.optional(), ...errorShape, ...scopeShape }),
  z.object({ type: z.literal("error-rate"), rate: z.number().min(0).max(1), status: status.optional(), ...errorShape, ...scopeShape }),
  z.object({ type: z.literal("reset"), ...scopeShape }),
  z.object({ type: z.literal("hang"), ...scopeShape }),
  z.object({
    type: z.literal("malformed"),
    /** invalid-json: the real body cut in half; missing-field: `field` removed; raw: `raw` sent as is. */
    mode: z.enum(["invalid-json", "missing-field", "raw"]).default("invalid-json"),
    /** Dotted path removed from the body and from every element of `data` (default "id"). */
    field: z.string().optional(),
    raw: z.string().optional(),
    contentType: z.string().optional(),
    ...scopeShape,
  }),
]);

/** What tests pass to setFaults / POST /__sandbox/faults. */
export type FaultSpec = z.input<typeof faultSpecSchema>;
type ParsedFault = z.output<typeof faultSpecSchema>;
export type StatusFault = Extract<ParsedFault, { type: "status" | "fail-once" | "error-rate" }>;
export type MalformedFault = Extract<ParsedFault, { type: "malformed" }>;

export interface ActiveFault {
  spec: ParsedFault;
  /** Requests that matched the scope. */
  matched: number;
  /** Requests the fault was applied to. */
  applied: number;
}

export interface FaultTarget {
  method: string;
  path: string;
  scopedPath: string;
  tenant?: string;
}

export type Terminal = { kind: "status"; status: number; fault: StatusFault } | { kind: "reset" } | { kind: "hang" };

export interface FaultDecision {
  latencyMs: number;
  terminal?: Terminal;
  malformed?: MalformedFault;
  /** Types of the faults applied, for the request record. */
  applied: string[];
}

export function parseFaults(input: unknown): ParsedFault[] {
  const list = Array.isArray(input) ? input : [input];
  return list.map((item, index) => {
    const result = faultSpecSchema.safeParse(item);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Error(`fault ${index}: ${issue?.path.join(".") || "spec"}: ${issue?.message ?? "invalid"}`);
    }
    if (result.data.pathPattern !== undefined) new RegExp(result.data.pathPattern); // throws on a bad pattern
    return result.data;
  });
}

export class FaultController {
  private active: ActiveFault[] = [];
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = createRng((seed ^ 0x5eedfa17) >>> 0);
  }

  set(specs: unknown): void {
    this.active = parseFaults(specs).map((spec) => ({ spec, matched: 0, applied: 0 }));
  }

  add(specs: unknown): void {
    this.active.push(...parseFaults(specs).map((spec) => ({ spec, matched: 0, applied: 0 })));
  }

  clear(): void {
    this.active = [];
  }

  list(): ActiveFault[] {
    return this.active.map((f) => ({ ...f, spec: { ...f.spec } }));
  }

  private matches(spec: ParsedFault, t: FaultTarget): boolean {
    if (spec.method && spec.method.toUpperCase() !== t.method) return false;
    if (spec.tenant !== undefined && spec.tenant !== t.tenant) return false;
    if (spec.path !== undefined && !t.path.startsWith(spec.path) && !t.scopedPath.startsWith(spec.path)) return false;
    if (spec.pathPattern !== undefined) {
      const re = new RegExp(spec.pathPattern);
      if (!re.test(t.path) && !re.test(t.scopedPath)) return false;
    }
    return true;
  }

  /** Decides what happens to one request, consuming counts. Terminal faults: the first one that fires wins. */
  decide(target: FaultTarget): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, applied: [] };
    const eligible: ActiveFault[] = [];
    for (const f of this.active) {
      if (!this.matches(f.spec, target)) continue;
      f.matched += 1;
      const count = f.spec.type === "fail-once" ? (f.spec.count ?? 1) : f.spec.count;
      if (f.matched <= (f.spec.after ?? 0)) continue;
      if (count !== undefined && f.applied >= count) continue;
      if (f.spec.probability !== undefined && this.rng.next() >= f.spec.probability) continue;
      eligible.push(f);
    }
    const apply = (f: ActiveFault): void => {
      f.applied += 1;
      decision.applied.push(f.spec.type);
    };
    for (const f of eligible) {
      const spec = f.spec;
      if (spec.type === "latency") {
        decision.latencyMs += spec.ms;
        apply(f);
      } else if (spec.type === "malformed" || decision.terminal) {
        continue;
      } else if (spec.type === "reset" || spec.type === "hang") {
        decision.terminal = { kind: spec.type };
        apply(f);
      } else if (spec.type === "error-rate") {
        if (this.rng.next() < spec.rate) {
          decision.terminal = { kind: "status", status: spec.status ?? 500, fault: spec };
          apply(f);
        }
      } else {
        decision.terminal = { kind: "status", status: spec.type === "fail-once" ? (spec.status ?? 503) : spec.status, fault: spec };
        apply(f);
      }
    }
    if (!decision.terminal) {
      const malformed = eligible.find((f) => f.spec.type === "malformed");
      if (malformed) {
        decision.malformed = malformed.spec as MalformedFault;
        apply(malformed);
      }
    }
    return decision;
  }
}

function removePath(target: unknown, path: string[]): void {
  if (!target || typeof target !== "object" || path.length === 0) return;
  const [head, ...rest] = path as [string, ...string[]];
  const obj = target as Record<string, unknown>;
  if (rest.length === 0) delete obj[head];
  else removePath(obj[head], rest);
}

/** The body text a malformed fault sends instead of `body`. */
export function malformBody(fault: MalformedFault, body: unknown): { text: string; contentType: string } {
  const contentType = fault.contentType ?? "application/json";
  if (fault.mode === "raw") return { text: fault.raw ?? "", contentType };
  if (fault.mode === "invalid-json") {
    const full = JSON.stringify(body) ?? "";
    return { text: full.length > 1 ? full.slice(0, Math.max(1, Math.floor(full.length / 2))) : "{", contentType };
  }
  const copy = structuredClone(body) as unknown;
  const path = (fault.field ?? "id").split(".");
  removePath(copy, path);
  const data = copy && typeof copy === "object" ? (copy as { data?: unknown }).data : undefined;
  if (Array.isArray(data)) for (const item of data) removePath(item, path);
  return { text: JSON.stringify(copy), contentType };
}
