// Meetings product (docs/api.md "Upstreams"): create, transcript, summary.
import { z } from "zod";
import { optional } from "./common.ts";
import { path, type UpstreamBase } from "./upstream/base.ts";
import type { UpstreamCall, UpstreamClient } from "./upstream/client.ts";

export const meetingSchema = z.object({
  id: z.string(),
  title: z.string(),
  startsAt: z.string(),
  durationMinutes: z.number(),
  joinUrl: z.string(),
  status: z.string(),
});

export const transcriptSchema = z.object({
  meetingId: z.string(),
  segments: z.array(z.object({ speaker: z.string(), startMs: z.number(), endMs: z.number(), text: z.string() })),
});

export const summarySchema = z.object({
  meetingId: z.string(),
  summary: z.string(),
  actionItems: z.array(z.object({ text: z.string(), owner: optional(z.string()) })),
});

export type Meeting = z.output<typeof meetingSchema>;
export type Transcript = z.output<typeof transcriptSchema>;
export type MeetingSummary = z.output<typeof summarySchema>;

export interface CreateMeetingBody {
  title: string;
  startsAt: string;
  durationMinutes: number;
  attendees?: Array<string | { email: string; name?: string | undefined }> | undefined;
}

export interface MeetingsAdapter {
  create(call: UpstreamCall, body: CreateMeetingBody): Promise<Meeting>;
  transcript(call: UpstreamCall, meetingId: string): Promise<Transcript>;
  summary(call: UpstreamCall, meetingId: string): Promise<MeetingSummary>;
}

export function createMeetingsAdapter(upstream: UpstreamClient, base: () => UpstreamBase): MeetingsAdapter {
  const product = "meetings" as const;
  return {
    create: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/meetings/v1/meetings", body, schema: meetingSchema }),
    transcript: async (call, id) =>
      upstream.json(call, {
        product,
        base: base(),
        method: "GET",
        path: path`/meetings/v1/meetings/${id}/transcript`,
        schema: transcriptSchema,
      }),
    summary: async (call, id) =>
      upstream.json(call, {
        product,
        base: base(),
        method: "GET",
        path: path`/meetings/v1/meetings/${id}/summary`,
        schema: summarySchema,
      }),
  };
}
