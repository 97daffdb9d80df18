// Pieces every product adapter shares: the list envelope of docs/api.md "Upstreams" and the API_URL base.
import { z } from "zod";
import { AdapterError } from "./errors.ts";
import { parseBase, type UpstreamBase } from "./upstream/base.ts";

// Response objects are plain z.object: unknown fields are tolerated and dropped, so callers
// see exactly the shape in docs/api.md "Upstreams"; a missing or mistyped field fails with its path.

/** `{data:[…], nextCursor: string|null}` */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface PageQuery {
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** A present-or-missing optional field: upstreams send both `null` and nothing. */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** The API_URL base, parsed once; null when not configured. */
export function apiBase(config: { API_URL?: string | undefined }): UpstreamBase | null {
  return config.API_URL ? parseBase(config.API_URL, "API_URL") : null;
}

/** A getter that answers UPSTREAM_NOT_CONFIGURED while API_URL is unset. */
export function requireApiBase(base: UpstreamBase | null): () => UpstreamBase {
  return () => {
    if (!base) throw new AdapterError("UPSTREAM_NOT_CONFIGURED", "The product API is not configured (API_URL)");
    return base;
  };
}
