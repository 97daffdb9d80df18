// Who am I: the same answer on GraphQL, tRPC and MCP.
import type { RequestContext } from "../core/context.ts";

export interface ViewerInfo {
  id: string | null;
  tenant: string | null;
  scopes: string[];
  credentialKind: "API_KEY" | "ACCESS_TOKEN";
  verified: boolean;
}

export function viewerOf(ctx: RequestContext): ViewerInfo {
  const { principal } = ctx;
  return {
    id: principal.userId,
    tenant: principal.tenant,
    scopes: [...principal.scopes].sort(),
    credentialKind: principal.kind === "api_key" ? "API_KEY" : "ACCESS_TOKEN",
    verified: principal.verified,
  };
}
