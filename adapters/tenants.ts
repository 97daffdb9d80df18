// Tenant base URLs, from configuration only (CONTRACT §9): the TENANTS_FILE map (loaded and
// validated once, at start-up) wins, then TENANT_URL_TEMPLATE with {tenant} filled in. The
// tenant is the principal's (a verified credential's claim), never anything in the request.
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Config } from "../src/core/config.ts";
import { GatewayError } from "../src/core/errors.ts";
import { parseBase, type UpstreamBase } from "./upstream/base.ts";

export const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface TenantResolver {
  /**
   * The tenant's upstream base. Throws TENANT_REQUIRED (no tenant), FORBIDDEN (a tenant id
   * outside the allowed pattern) or UPSTREAM_NOT_CONFIGURED (no URL for it).
   */
  resolve(tenant: string | null | undefined): UpstreamBase;
}

export class TenantConfigError extends Error {
  override name = "TenantConfigError";
}

const tenantsFileSchema = z.record(
  z.string().regex(TENANT_ID, "tenant ids must match [a-z0-9][a-z0-9-]{0,62}"),
  z.string(),
);

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

export function createTenantResolver(config: Pick<Config, "TENANT_URL_TEMPLATE" | "TENANTS_FILE">): TenantResolver {
  const map = config.TENANTS_FILE ? loadTenantsFile(config.TENANTS_FILE) : new Map<string, UpstreamBase>();
  const template = config.TENANT_URL_TEMPLATE;
  if (template) parseBase(template.replaceAll("{tenant}", "t"), "TENANT_URL_TEMPLATE");
  const fromTemplate = new Map<string, UpstreamBase>();

  return {
    resolve(tenant) {
      if (tenant === null || tenant === undefined || tenant === "") {
        throw new GatewayError("TENANT_REQUIRED", "This operation needs a tenant, and the credential has none");
      }
      // FORBIDDEN rather than BAD_USER_INPUT: the tenant is not request input but a claim of
      // the caller's credential, and we refuse to act for a tenant id we cannot vouch is a
      // plain host label (it could otherwise steer the URL template to another host or path).
      if (!TENANT_ID.test(tenant)) {
        throw new GatewayError("FORBIDDEN", "The credential's tenant id is not acceptable (tenant ids match [a-z0-9][a-z0-9-]{0,62})");
      }
      const mapped = map.get(tenant);
      if (mapped) return mapped;
      if (!template) throw new GatewayError("UPSTREAM_NOT_CONFIGURED", `No upstream is configured for tenant ${tenant}`);
      let base = fromTemplate.get(tenant);
      if (!base) {
        base = parseBase(template.replaceAll("{tenant}", tenant), "TENANT_URL_TEMPLATE");
        if (fromTemplate.size >= MAX_CACHED) fromTemplate.clear();
        fromTemplate.set(tenant, base);
      }
      return base;
    },
  };
}
