import { TRPCClientError } from "@trpc/client";
import { expect } from "vitest";
import { createGatewayClient } from "../../src/client/index.ts";
import { errorCodes } from "../../src/core/errors.ts";
import type { AppRouter } from "../../src/trpc/router.ts";
import type { DocumentsDriver, Outcome } from "./driver.ts";

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const data = (error as TRPCClientError<AppRouter>).data;
      // docs/api.md "Errors": data.code is the tRPC code that matches data.gatewayCode, on every error.
      expect(data, error.message).toBeDefined();
      const { code, gatewayCode, httpStatus } = data!;
      expect(code, `data.code for ${gatewayCode}`).toBe(errorCodes[gatewayCode].trpc);
      expect(httpStatus, `data.httpStatus for ${gatewayCode}`).toBe(errorCodes[gatewayCode].status);
      return { ok: false, code: gatewayCode, message: error.message, httpStatus };
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
