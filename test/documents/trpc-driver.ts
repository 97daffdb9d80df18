import { TRPCClientError } from "@trpc/client";
import { createGatewayClient } from "../../src/client/index.ts";
import type { AppRouter } from "../../src/trpc/router.ts";
import type { DocumentsDriver, Outcome } from "./driver.ts";

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const data = (error as TRPCClientError<AppRouter>).data as { gatewayCode?: string; httpStatus?: number } | undefined;
      return { ok: false, code: data?.gatewayCode ?? "?", message: error.message, ...(data?.httpStatus ? { httpStatus: data.httpStatus } : {}) };
    }
    throw error;
  }
}

/** A real @trpc/client over HTTP (httpBatchLink); `auth` null sends no Authorization header. */
export function trpcDriver(baseUrl: string): DocumentsDriver {
  const client = (auth: string | null) =>
    createGatewayClient({
      url: baseUrl,
      token: "",
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        if (auth) headers.set("authorization", auth);
        else headers.delete("authorization");
        return fetch(input, { ...init, headers });
      },
    });
  return {
    surface: "trpc",
    create: (auth, args, idempotencyKey) =>
      outcome(() => client(auth).documents.create.mutate({ ...args, ...(idempotencyKey ? { idempotencyKey } : {}) } as never)),
    list: (auth, args = {}) => outcome(() => client(auth).documents.list.query(args as never)),
    read: (auth, id, maxChars) =>
      outcome(() => client(auth).documents.read.query({ id, ...(maxChars === undefined ? {} : { maxChars }) } as never)),
  };
}
