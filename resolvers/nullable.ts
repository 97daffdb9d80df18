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

type Nullable<T, K extends keyof T> = null extends T[K] ? K : undefined extends T[K] ? K : never;

/** `args` without its null/undefined entries; the fields GraphQL makes non-null stay required. */
export type Defined<T> = { [K in keyof T as Nullable<T, K> extends never ? K : never]: T[K] } & {
  [K in keyof T as Nullable<T, K>]?: Exclude<T[K], null | undefined>;
};

/** Drops null/undefined arguments so services see only what the caller sent. */
export function defined<T extends Record<string, unknown>>(args: T): Defined<T> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as never;
}
