// OpenTelemetry traces, only when an OTLP endpoint is configured (see docs/observability.md).
// Without one nothing here loads the SDK: the gateway installs no tracing middleware, and the
// few `@opentelemetry/api` calls elsewhere (markErrorCode, src/core/errors.ts) hit the API's no-op globals.
// With one, the SDK, the OTLP exporter and the undici instrumentation are imported lazily, a
// server span wraps every request (src/http/tracing.ts) and every upstream call made through undici
// becomes a client span whose context goes upstream in `traceparent`.
import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { ConfigError } from "../core/config.ts";
import type { Logger } from "../core/logger.ts";
import { packageVersion } from "../version.ts";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface TracingSettings {
  /** Where spans are POSTed (…/v1/traces). */
  tracesUrl: string;
  protocol: OtlpProtocol;
  serviceName: string;
  /** Batch span processor: delay between exports, ms. */
  scheduleDelayMs: number;
}

export interface Tracing {
  tracer: Tracer;
  /** Exports what is buffered and stops tracing. */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === "" ? undefined : value.trim());

function url(name: string, value: string): URL {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return parsed;
  } catch {
    // reported below
  }
  throw new ConfigError(`${name}: expected an http(s) URL, got ${JSON.stringify(value)}`);
}

/**
 * The standard OTEL_* variables the gateway honours; `undefined` when tracing is off (no
 * endpoint, `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`). Throws ConfigError naming a bad variable.
 */
export function readTracingSettings(env: Env = process.env): TracingSettings | undefined {
  if (nonEmpty(env["OTEL_SDK_DISABLED"])?.toLowerCase() === "true") return undefined;
  const exporter = nonEmpty(env["OTEL_TRACES_EXPORTER"])?.toLowerCase();
  if (exporter === "none") return undefined;
  if (exporter !== undefined && exporter !== "otlp") {
    throw new ConfigError(`OTEL_TRACES_EXPORTER: only "otlp" or "none" are supported, got ${JSON.stringify(exporter)}`);
  }
  const tracesEndpoint = nonEmpty(env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]);
  const endpoint = nonEmpty(env["OTEL_EXPORTER_OTLP_ENDPOINT"]);
  let tracesUrl: string;
  if (tracesEndpoint !== undefined) tracesUrl = url("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", tracesEndpoint).href;
  else if (endpoint !== undefined) tracesUrl = `${url("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint).href.replace(/\/+$/, "")}/v1/traces`;
  else return undefined;

  const protocolName =
    nonEmpty(env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"]) !== undefined
      ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
      : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = nonEmpty(env[protocolName]) ?? "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json") {
    throw new ConfigError(`${protocolName}: "http/protobuf" or "http/json" (gRPC is not supported), got ${JSON.stringify(protocol)}`);
  }
  const delay = nonEmpty(env["OTEL_BSP_SCHEDULE_DELAY"]);
  const scheduleDelayMs = delay === undefined ? 5_000 : Number(delay);
  if (!Number.isInteger(scheduleDelayMs) || scheduleDelayMs < 0) {
    throw new ConfigError(`OTEL_BSP_SCHEDULE_DELAY: expected a whole number of milliseconds, got ${JSON.stringify(delay)}`);
  }
  return { tracesUrl, protocol, serviceName: nonEmpty(env["OTEL_SERVICE_NAME"]) ?? "workspace-gateway", scheduleDelayMs };
}

/**
 * Starts tracing with these settings: registers a global tracer provider (AsyncLocalStorage
 * context, W3C trace context propagation), the OTLP exporter and the undici instrumentation.
 * One per process at a time; `shutdown()` undoes it.
 */
export async function startTracing(settings: TracingSettings, logger?: Logger): Promise<Tracing> {
  const [{ NodeTracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { UndiciInstrumentation }, exporterModule] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/instrumentation-undici"),
      settings.protocol === "http/json"
        ? import("@opentelemetry/exporter-trace-otlp-http")
        : import("@opentelemetry/exporter-trace-otlp-proto"),
    ]);
  const exporter = new exporterModule.OTLPTraceExporter({ url: settings.tracesUrl });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName, "service.version": packageVersion }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: settings.scheduleDelayMs })],
  });
  provider.register();
  // Client spans only under a request's span: the gateway's own background calls (and, in tests,
  // a client in the same process) are not traced and get no traceparent.
  const undici = new UndiciInstrumentation({ requireParentforSpans: true });
  undici.setTracerProvider(provider);
  undici.enable();
  const tracer = provider.getTracer("workspace-gateway", packageVersion);
  logger?.info({ url: settings.tracesUrl, protocol: settings.protocol }, "exporting traces over OTLP");
  let stopped: Promise<void> | undefined;
  return {
    tracer,
    shutdown: () =>
      (stopped ??= (async () => {
        undici.disable();
        try {
          await provider.shutdown();
        } catch (error) {
          logger?.warn({ err: error }, "trace export at shutdown failed");
        }
        trace.disable();
        context.disable();
        propagation.disable();
      })()),
  };
}
