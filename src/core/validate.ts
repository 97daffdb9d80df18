// zod at the edges: one function turns a failed parse into the gateway's error vocabulary.
// Which fields are sizes (PAYLOAD_TOO_LARGE rather than BAD_USER_INPUT) is the owning layer's
// knowledge, passed in (src/services/validate.ts for documents' markdown): core imports nothing above it.
import type { z } from "zod";
import { GatewayError } from "./errors.ts";

/** A top-level string field whose too_big issue is a size problem, not a shape problem. */
export interface SizeLimit {
  field: string;
  limit: number;
  /** The length the limit applies to (e.g. after a normalisation the schema applies). */
  measure(value: string): number;
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, sizeLimits: readonly SizeLimit[] = []): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw inputError(result.error.issues, value, sizeLimits);
}

/** zod issues for `value` → BAD_USER_INPUT naming the field, or PAYLOAD_TOO_LARGE for a field of `sizeLimits`. */
export function inputError(issues: readonly z.core.$ZodIssue[], value: unknown, sizeLimits: readonly SizeLimit[] = []): GatewayError {
  for (const size of sizeLimits) {
    const tooLong = issues.some((i) => i.code === "too_big" && i.path.length === 1 && i.path[0] === size.field);
    const field = value && typeof value === "object" ? (value as Record<string, unknown>)[size.field] : undefined;
    if (tooLong && typeof field === "string") {
      const length = size.measure(field);
      return new GatewayError("PAYLOAD_TOO_LARGE", `${size.field} is ${length} characters; the limit is ${size.limit}`, {
        details: { limit: size.limit, length },
      });
    }
  }
  // An unknown field comes first: `{"nmae": …}` is better told `unknown field "nmae" (did you mean
  // "name"?)` (see strict-object.ts) than that `name` is missing, which follows from it.
  const ordered = [...issues.filter((i) => i.code === "unrecognized_keys"), ...issues.filter((i) => i.code !== "unrecognized_keys")];
  const details = ordered.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  const first = details[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : "Invalid input";
  return new GatewayError("BAD_USER_INPUT", message, { details });
}
