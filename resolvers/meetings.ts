// Meetings: transcript and summary are separate upstream calls, made only when asked for and
// once per distinct meeting per request (DataLoaders in the product service).
import type { Meeting } from "../src/services/products.ts";
import { orNull } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

/** meeting(id) knows only the id; createMeeting knows everything. */
export type MeetingParent = Pick<Meeting, "id"> & Partial<Meeting>;

export const meetingsResolvers: Resolvers = {
  Query: {
    meeting: async (_root, { id }, { services, request }) => services.products.meetings.get(await request(), { id }),
  },
  Mutation: {
    createMeeting: async (_root, { input }, { services, request }) =>
      services.products.meetings.create(await request(), {
        title: input.title,
        startsAt: input.startsAt,
        durationMinutes: input.durationMinutes,
        ...(input.attendees ? { attendees: input.attendees } : {}),
      }),
  },
  Meeting: {
    transcript: async (meeting, _args, { services, request }) =>
      orNull(services.products.meetings.transcript(await request(), { id: meeting.id })),
    summary: async (meeting, _args, { services, request }) =>
      orNull(services.products.meetings.summary(await request(), { id: meeting.id })),
  },
};
