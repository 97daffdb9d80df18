// Tenant base URLs, from configuration only (docs/api.md "Upstreams"): the TENANTS_FILE map (loaded and
// validated once, at start-up) wins, then TENANT_URL_TEMPLATE with {tenant} filled in. The
// tenant is the principal's (a verified credential's claim), never anything in the request.
// When the tenant fills in the template's host, that host is the tenant's choice: unless the
// result is an operator-configured origin (API_URL's, a TENANTS_FILE entry's) or
// UPSTREAM_ALLOW_PRIVATE_NETWORKS is true, its base is `restricted` and the client connects to it only at public addresses
// (upstream/address-guard.ts; docs/resilience.md).
import { readFileSync } from "node:fs";
import { z } from "zod";
import { AdapterError } from "./errors.ts";
import { parseBase, type UpstreamBase } from "./upstream/base.ts";

export const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface TenantResolver {
  /**
   * The tenant's upstream base. Throws TENANT_REQUIRED (no tenant), FORBIDDEN (a tenant id
   * outside the allowed pattern, or one that makes the template an invalid URL) or
   * UPSTREAM_NOT_CONFIGURED (no URL for it).
   */
  resolve(tenant: string | null | undefined): UpstreamBase;
}

export class TenantConfigError extends Error {
  override name = "TenantConfigError";
}

const tenantsFileSchema = z.record(z.string().regex(TENANT_ID, "tenant ids must match [a-z0-9][a-z0-9-]{0,62}"), z.string());

/** Reads and checks a TENANTS_FILE. Throws TenantConfigError naming TENANTS_FILE and the bad entry. */
export function loadTenantsFile(file: string): Map<string, UpstreamBase> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new TenantConfigError(`TENANTS_FILE: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = tenantsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TenantConfigError(`TENANTS_FILE: ${issue?.path.map(String).join(".") || "(file)"}: ${issue?.message ?? "invalid"}`);
  }
  const map = new Map<string, UpstreamBase>();
  for (const [tenant, url] of Object.entries(parsed.data)) {
    try {
      map.set(tenant, parseBase(url, `TENANTS_FILE: ${tenant}`));
    } catch (error) {
      throw new TenantConfigError((error as Error).message);
    }
  }
  return map;
}

const MAX_CACHED = 1024;

/** The host part of a URL template (before any path), where `{tenant}` may appear. */
function templateHost(template: string): string {
  const afterScheme = template.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  return afterScheme.split(/[/?#]/, 1)[0] ?? "";
}

/**
 * The template filled in with `tenant`. The template was checked at start-up, so a URL that does
 * not parse is the tenant's doing: an id of digits (or 0x and hex digits) in the host is an IPv4
 * number to the URL parser, and one past 2^32 is no address. Refused like an id outside the
 * pattern (FORBIDDEN), without the URL: a claim we cannot act for, not a server fault.
 */
function templateBase(template: string, tenant: string): UpstreamBase {
  try {
    return parseBase(template.replaceAll("{tenant}", tenant), "TENANT_URL_TEMPLATE");
  } catch {
    throw new AdapterError("FORBIDDEN", "The credential's tenant id does not make a valid upstream address");
  }
}

/** The settings the resolver reads, named as the configuration names them (docs/configuration.md); adapters do not import src/. */
export interface TenantSettings {
  TENANT_URL_TEMPLATE?: string | undefined;
  TENANTS_FILE?: string | undefined;
  API_URL?: string | undefined;
  UPSTREAM_ALLOW_PRIVATE_NETWORKS?: boolean;
}

export function createTenantResolver(config: TenantSettings): TenantResolver {
  const map = config.TENANTS_FILE ? loadTenantsFile(config.TENANTS_FILE) : new Map<string, UpstreamBase>();
  const template = config.TENANT_URL_TEMPLATE;
  if (template) parseBase(template.replaceAll("{tenant}", "t"), "TENANT_URL_TEMPLATE");
  const fromTemplate = new Map<string, UpstreamBase>();
  // Origins the operator configured: a template that lands on one of them (scheme, host and port)
  // reaches nothing the operator did not point the gateway at. Origins, not host names: with
  // API_URL on 127.0.0.1:4010, tenant "2130706433" must still not reach 127.0.0.1 on another port.
  const operatorOrigins = new Set<string>();
  if (config.API_URL) operatorOrigins.add(new URL(config.API_URL).origin);
  for (const base of map.values()) operatorOrigins.add(base.origin);
  const tenantPicksHost =
    template !== undefined && templateHost(template).includes("{tenant}") && config.UPSTREAM_ALLOW_PRIVATE_NETWORKS !== true;

  return {
    resolve(tenant) {
      if (tenant === null || tenant === undefined || tenant === "") {
        throw new AdapterError("TENANT_REQUIRED", "This operation needs a tenant, and the credential has none");
      }
      // FORBIDDEN rather than BAD_USER_INPUT: the tenant is not request input but a claim of
      // the caller's credential, and we refuse to act for a tenant id we cannot vouch is a
      // plain host label (it could otherwise steer the URL template to another host or path).
      if (!TENANT_ID.test(tenant)) {
        throw new AdapterError("FORBIDDEN", "The credential's tenant id is not acceptable (tenant ids match [a-z0-9][a-z0-9-]{0,62})");
      }
      const mapped = map.get(tenant);
      if (mapped) return mapped;
      if (!template) throw new AdapterError("UPSTREAM_NOT_CONFIGURED", `No upstream is configured for tenant ${tenant}`);
      let base = fromTemplate.get(tenant);
      if (!base) {
        base = templateBase(template, tenant);
        if (tenantPicksHost && !operatorOrigins.has(base.origin)) base = { ...base, restricted: true };
        if (fromTemplate.size >= MAX_CACHED) fromTemplate.clear();
        fromTemplate.set(tenant, base);
      }
      return base;
    },
  };
}
