import { isGatewayError } from "../src/core/errors.ts";

/** For nullable lookups by id: NOT_FOUND becomes null, every other error stays an error. */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (isGatewayError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/** Drops null/undefined arguments so services see only what the caller sent. */
export function defined<T extends Record<string, unknown>>(args: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as never;
}
