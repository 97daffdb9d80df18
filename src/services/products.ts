// Product operations (mail, drive, search, meetings, enterprise): the one implementation that
// GraphQL, tRPC, MCP and REST call. Every operation is a row of the operation table
// (operations.ts) and runs through one runner: the caller's access token (forwarded upstream
// unchanged), the input validated with the operation's schema, then its run function over the
// adapters. Related lookups go through per-request DataLoaders so each distinct id costs one
// upstream call per request.
import DataLoader from "dataloader";
import type { z } from "zod";
import { apiBase, requireApiBase, type Page } from "../../adapters/common.ts";
import { createDriveAdapter, type Download, type DriveFile, type DriveSearchHit, type Share } from "../../adapters/drive.ts";
import {
  createEnterpriseAdapter,
  type DataQueryResult,
  type Invoice,
  type TenantCall,
  type WorkflowRun,
} from "../../adapters/enterprise.ts";
import { createMailAdapter, type Booking, type CalendarEvent, type Draft, type Message, type Thread } from "../../adapters/mail.ts";
import { createMeetingsAdapter, type Meeting, type MeetingSummary, type Transcript } from "../../adapters/meetings.ts";
import { createSearchAdapter, type ChatAnswer, type SearchAnswer } from "../../adapters/search.ts";
import { createTenantResolver, type TenantResolver } from "../../adapters/tenants.ts";
import type { UpstreamClient } from "../../adapters/upstream/client.ts";
import type { Config } from "../core/config.ts";
import { memoize, type RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import { parseInput } from "../core/validate.ts";
import { toContractError, withContractErrors } from "./adapter-errors.ts";
import {
  operationOf,
  operationNames,
  type OperationDef,
  type OperationName,
  type Operations,
  type ProductAdapters,
  type ProductLoaders,
} from "./operations.ts";

export type {
  Booking,
  CalendarEvent,
  ChatAnswer,
  DataQueryResult,
  Download,
  Draft,
  DriveFile,
  DriveSearchHit,
  Invoice,
  Meeting,
  MeetingSummary,
  Message,
  Page,
  ProductLoaders,
  SearchAnswer,
  Share,
  Thread,
  Transcript,
  WorkflowRun,
};

/** An operation as the service offers it: the input as callers send it, the output as run returns it. */
export type ServiceOperation<D> =
  D extends OperationDef<infer I, infer O, "query" | "mutation"> ? (ctx: RequestContext, input: z.input<I>) => Promise<z.output<O>> : never;

type Namespace<N> = N extends `${infer A}.${string}` ? A : never;
type Procedure<N, A extends string> = N extends `${A}.${infer P}` ? P : never;

/** The table as nested service methods: `products.messages.list(ctx, input)` runs "messages.list". */
export type ProductOperations = {
  [A in Namespace<OperationName>]: { [N in OperationName as Procedure<N, A>]: ServiceOperation<Operations[N]> };
};

export type ProductServices = ProductOperations & {
  /** Runs the operation `name` for the request (the generic runner every method above is). */
  run<N extends OperationName>(name: N, ctx: RequestContext, input: unknown): Promise<Awaited<ReturnType<ServiceOperation<Operations[N]>>>>;
  /** The request's loaders (created on first use, kept in `ctx.memo`). Requires an access token. */
  loaders(ctx: RequestContext): ProductLoaders;
};

export interface ProductServicesDeps {
  config: Pick<Config, "API_URL" | "TENANT_URL_TEMPLATE" | "TENANTS_FILE" | "DATAQUERY_SEGMENT"> &
    Partial<Pick<Config, "UPSTREAM_ALLOW_PRIVATE_NETWORKS">>;
  upstream: UpstreamClient;
  /** Defaults to one built from `config` (reads TENANTS_FILE now, once). */
  tenants?: TenantResolver;
}

/**
 * The upstream identity of the request: its access token. Personal API keys are never
 * forwarded upstream (docs/api.md "Credentials, identity, scopes").
 */
export function requireAccessToken(ctx: RequestContext): TenantCall {
  const { principal } = ctx;
  if (principal.kind === "api_key") {
    throw new GatewayError("FORBIDDEN", "Product operations need an access token; personal API keys are never forwarded upstream");
  }
  if (!principal.accessToken) throw new GatewayError("UNAUTHENTICATED", "Product operations need an access token");
  return { requestId: ctx.requestId, accessToken: principal.accessToken, signal: ctx.signal, tenant: principal.tenant };
}

/** Where the gateway streams a drive file's bytes (GET, with the same access token): src/rest/files.ts. */
export const fileDownloadUrl = (id: string): string => `/api/v1/files/${encodeURIComponent(id)}/content`;

const LOADERS = Symbol("product-loaders");

/**
 * Each key its own upstream call (the upstream has no batch endpoints); failures stay per key, in
 * the contract's vocabulary (adapter-errors.ts) whoever loads them.
 */
function perKey<V>(load: (id: string) => Promise<V>): DataLoader.BatchLoadFn<string, V> {
  return (ids) =>
    Promise.all(
      ids.map((id) =>
        load(id).catch((error: unknown) => {
          const mapped = toContractError(error);
          return mapped instanceof Error ? mapped : new Error(String(mapped));
        }),
      ),
    );
}

export function createProductServices(deps: ProductServicesDeps): ProductServices {
  const { config, upstream } = deps;
  const base = requireApiBase(apiBase(config));
  const tenants = deps.tenants ?? createTenantResolver(config);
  const adapters: ProductAdapters = {
    mail: createMailAdapter(upstream, base),
    drive: createDriveAdapter(upstream, base),
    search: createSearchAdapter(upstream, base),
    meetings: createMeetingsAdapter(upstream, base),
    enterprise: createEnterpriseAdapter(upstream, tenants, { dataquerySegment: config.DATAQUERY_SEGMENT }),
  };
  const { mail, drive, meetings } = adapters;

  function loaders(ctx: RequestContext): ProductLoaders {
    const call = requireAccessToken(ctx);
    return memoize(ctx, LOADERS, () => ({
      thread: new DataLoader(perKey((id) => mail.getThread(call, id))),
      transcript: new DataLoader(perKey((id) => meetings.transcript(call, id))),
      summary: new DataLoader(perKey((id) => meetings.summary(call, id))),
      file: new DataLoader(perKey((id) => drive.getFile(call, id))),
    }));
  }

  /**
   * The one runner: credential first (docs/api.md "Credentials"), then the input, then the adapter,
   * whose errors leave here as the contract's (adapter-errors.ts) — for every surface at once.
   */
  async function run(name: OperationName, ctx: RequestContext, input: unknown): Promise<never> {
    const op = operationOf(name);
    const call = requireAccessToken(ctx);
    const parsed = parseInput(op.input, input === undefined && op.optionalInput ? {} : input);
    return (await withContractErrors(() => op.run({ call, adapters, loaders: () => loaders(ctx) }, parsed))) as never;
  }

  const nested: Record<string, Record<string, (ctx: RequestContext, input: unknown) => Promise<unknown>>> = {};
  for (const name of operationNames) {
    const [namespace, procedure] = name.split(".") as [string, string];
    (nested[namespace] ??= {})[procedure] = (ctx, input) => run(name, ctx, input);
  }
  return { ...(nested as unknown as ProductOperations), run, loaders };
}
