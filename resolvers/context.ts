// GraphQL's context: static services plus the request's RequestContext, authenticated on first
// use so that schema introspection and the GraphiQL page need no credential.
import type { RequestContext } from "../src/core/context.ts";
import type { Services } from "../src/services/index.ts";

export interface GraphQLContext {
  services: Services;
  requestId: string;
  /** Authenticates (once) and returns the per-request context. */
  request(): Promise<RequestContext>;
}
