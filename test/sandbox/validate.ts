// Request validation with zod: the first issue becomes a 400 {"error":{"code":"invalid_argument",…}}.
import { z } from "zod";
import { HttpError } from "./errors.ts";

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what = "request body"): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length ? issue.path.join(".") : what;
  throw new HttpError(400, `${where}: ${issue?.message ?? "invalid"}`);
}

export const isoDateTime = z.iso.datetime({ offset: true });
export const email = z.email();
export const nonEmpty = z.string().trim().min(1);

/** Parses an ISO 8601 date-time query parameter; `null` when absent. */
export function queryDateTime(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === "") return null;
  if (!isoDateTime.safeParse(raw).success) throw new HttpError(400, `${name} must be an ISO 8601 date-time`);
  return Date.parse(raw);
}
