// zod at the edges: one function turns a failed parse into the gateway's error vocabulary.
import type { z } from "zod";
import { GatewayError } from "./errors.ts";
import { MARKDOWN_LIMIT, withoutTrailingLineEndings } from "../documents/schemas.ts";

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw inputError(result.error.issues, value);
}

/** zod issues for `value` → BAD_USER_INPUT naming the field, or PAYLOAD_TOO_LARGE for long markdown. */
export function inputError(issues: readonly z.core.$ZodIssue[], value: unknown): GatewayError {
  // Markdown over the limit is a size problem, not a shape problem (docs/api.md "REST documents interface").
  const tooLong = issues.find((i) => i.code === "too_big" && i.path.length === 1 && i.path[0] === "markdown");
  if (tooLong && value && typeof value === "object" && typeof (value as { markdown?: unknown }).markdown === "string") {
    const length = withoutTrailingLineEndings((value as { markdown: string }).markdown).length;
    return new GatewayError("PAYLOAD_TOO_LARGE", `markdown is ${length} characters; the limit is ${MARKDOWN_LIMIT}`, {
      details: { limit: MARKDOWN_LIMIT, length },
    });
  }
  // An unknown field comes first: `{"nmae": …}` is better told `unknown field "nmae" (did you mean
  // "name"?)` (see strict-object.ts) than that `name` is missing, which follows from it.
  const ordered = [...issues.filter((i) => i.code === "unrecognized_keys"), ...issues.filter((i) => i.code !== "unrecognized_keys")];
  const details = ordered.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  const first = details[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : "Invalid input";
  return new GatewayError("BAD_USER_INPUT", message, { details });
}
