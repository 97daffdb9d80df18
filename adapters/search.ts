// Search product (docs/api.md "Upstreams"): one-shot query and chat sessions.
import { z } from "zod";
import { optional } from "./common.ts";
import type { UpstreamBase } from "./upstream/base.ts";
import type { UpstreamCall, UpstreamClient } from "./upstream/client.ts";

export const citationSchema = z.object({ title: z.string(), url: z.string(), source: z.string(), snippet: z.string() });

export const searchAnswerSchema = z.object({
  answer: z.string(),
  citations: z.array(citationSchema),
  sessionId: optional(z.string()),
});

export const chatAnswerSchema = z.object({ sessionId: z.string(), answer: z.string(), citations: z.array(citationSchema) });

export type Citation = z.output<typeof citationSchema>;
export type SearchAnswer = z.output<typeof searchAnswerSchema>;
export type ChatAnswer = z.output<typeof chatAnswerSchema>;

export interface SearchQueryBody {
  query: string;
  sources?: string[] | undefined;
}

export interface SearchChatBody {
  sessionId?: string | undefined;
  message: string;
}

export interface SearchAdapter {
  query(call: UpstreamCall, body: SearchQueryBody): Promise<SearchAnswer>;
  chat(call: UpstreamCall, body: SearchChatBody): Promise<ChatAnswer>;
}

export function createSearchAdapter(upstream: UpstreamClient, base: () => UpstreamBase): SearchAdapter {
  const product = "search" as const;
  return {
    query: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/search/v1/query", body, schema: searchAnswerSchema }),
    chat: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/search/v1/chat", body, schema: chatAnswerSchema }),
  };
}
