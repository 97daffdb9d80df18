// Meetings: POST /meetings/v1/meetings, GET /meetings/v1/meetings/:id/transcript and /summary.
import { z } from "zod";
import { jsonBody } from "../body.ts";
import { notFound } from "../errors.ts";
import { json, route, type Route, type RouteContext } from "../http.ts";
import type { Meeting } from "../model.ts";
import { email, isoDateTime, nonEmpty, parseWith } from "../validate.ts";

const createSchema = z.object({
  title: nonEmpty,
  startsAt: isoDateTime,
  durationMinutes: z.number().int().min(1).max(1440),
  attendees: z.array(z.union([email, z.object({ email, name: z.string().optional() })])).optional(),
});

function create(ctx: RouteContext) {
  const input = parseWith(createSchema, jsonBody(ctx.body));
  const id = ctx.store.newId("mtg");
  const meeting: Meeting = {
    id,
    title: input.title,
    startsAt: new Date(input.startsAt).toISOString(),
    durationMinutes: input.durationMinutes,
    joinUrl: `https://meet.sandbox.example/${id.slice(4)}`,
    status: "scheduled",
  };
  ctx.store.meetings.set(id, meeting);
  return json(201, meeting);
}

/** Unknown meeting → 404; a meeting that has not happened yet has no transcript/summary → 404 too. */
function artefact(kind: "transcript" | "summary") {
  return (ctx: RouteContext) => {
    const id = ctx.params.id as string;
    if (!ctx.store.meetings.has(id)) throw notFound(`meeting ${id}`);
    const value = kind === "transcript" ? ctx.store.transcripts.get(id) : ctx.store.summaries.get(id);
    if (!value) throw notFound(`${kind} of meeting ${id} (not available yet)`);
    return json(200, value);
  };
}

export const meetingRoutes: Route[] = [
  route("POST", "/meetings/v1/meetings", create),
  route("GET", "/meetings/v1/meetings/:id/transcript", artefact("transcript")),
  route("GET", "/meetings/v1/meetings/:id/summary", artefact("summary")),
];
