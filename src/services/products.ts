// What the product rows of the operation table run over (operations/products.ts): one adapter per
// product on the one upstream client, the caller's access token (forwarded upstream unchanged) and
// per-request DataLoaders, so that each distinct id costs one upstream call per request.
import DataLoader from "dataloader";
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
import type { Principal } from "../core/principal.ts";
import { toContractError } from "./adapter-errors.ts";
import type { ProductAdapters, ProductLoaders } from "./operations/types.ts";

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
  SearchAnswer,
  Share,
  Thread,
  Transcript,
  WorkflowRun,
};

/** The adapters and the request's loaders (created on first use, kept in `ctx.memo`; they need an access token). */
export interface ProductBackend {
  adapters: ProductAdapters;
  loaders(ctx: RequestContext): ProductLoaders;
}

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
  const tenant = principal.productTenant === undefined ? principal.tenant : principal.productTenant;
  return { requestId: ctx.requestId, accessToken: accessTokenOf(principal), signal: ctx.signal, tenant };
}

/**
 * The access token a product operation forwards: the bearer's, or X-Access-Token beside a personal
 * API key (contract §2 "Two credentials on one request"); FORBIDDEN for a key alone.
 */
export function accessTokenOf(principal: Principal): string {
  if (principal.accessToken) return principal.accessToken;
  if (principal.kind === "api_key") {
    throw new GatewayError(
      "FORBIDDEN",
      "Product operations need an access token (the bearer, or X-Access-Token beside a personal API key); personal API keys are never forwarded upstream",
    );
  }
  throw new GatewayError("UNAUTHENTICATED", "Product operations need an access token");
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

export function createProductBackend(deps: ProductServicesDeps): ProductBackend {
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
  return { adapters, loaders };
}
