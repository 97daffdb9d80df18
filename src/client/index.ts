// A typed tRPC client for agents: `createGatewayClient({ url, token })`.
import { createTRPCClient, httpBatchLink, httpLink, isNonJsonSerializable, splitLink } from "@trpc/client";
import type { AppRouter } from "../trpc/router.ts";

export type { AppRouter } from "../trpc/router.ts";

export interface GatewayClientOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:4000 (the /trpc path is added). */
  url: string;
  /** A personal API key (wgk_…) or an access token. */
  token: string;
  /** Extra headers on every request (e.g. X-Request-Id). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export function createGatewayClient(options: GatewayClientOptions) {
  const base = options.url.replace(/\/+$/, "");
  const link = {
    url: `${base}/trpc`,
    headers: () => ({ ...options.headers, authorization: `Bearer ${options.token}` }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  return createTRPCClient<AppRouter>({
    links: [
      // FormData (files.upload) cannot be batched as JSON: it goes on its own request.
      splitLink({ condition: (op) => isNonJsonSerializable(op.input), true: httpLink(link), false: httpBatchLink(link) }),
    ],
  });
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
