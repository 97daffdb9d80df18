// Calendar: GET /email/v1/calendar/events (from/to overlap filter), POST /email/v1/bookings.
import { z } from "zod";
import { jsonBody } from "../body.ts";
import { HttpError, notFound } from "../errors.ts";
import { json, route, type Route, type RouteContext } from "../http.ts";
import type { Booking } from "../model.ts";
import { paginate, parseLimit } from "../paging.ts";
import { email, isoDateTime, nonEmpty, parseWith, queryDateTime } from "../validate.ts";

const bookingSchema = z.object({
  bookingTypeId: nonEmpty,
  start: isoDateTime,
  attendee: z.object({ name: nonEmpty, email }),
  notes: z.string().optional(),
});

/** Events that overlap [from, to): end > from and start < to; either bound may be absent. */
function listEvents(ctx: RouteContext) {
  const from = queryDateTime(ctx.query, "from");
  const to = queryDateTime(ctx.query, "to");
  if (from !== null && to !== null && from > to) throw new HttpError(400, "from must not be after to");
  const matches = ctx.store.calendarEvents.filter(
    (e) => (from === null || Date.parse(e.end) > from) && (to === null || Date.parse(e.start) < to),
  );
  const page = paginate(matches, {
    sortKey: (e) => e.start,
    direction: "asc",
    cursor: ctx.query.get("cursor"),
    limit: parseLimit(ctx.query.get("limit")),
    filter: JSON.stringify(["events", from, to]),
  });
  return json(200, page);
}

function createBooking(ctx: RouteContext) {
  const input = parseWith(bookingSchema, jsonBody(ctx.body));
  const store = ctx.store;
  const type = store.bookingTypes.find((t) => t.id === input.bookingTypeId);
  if (!type) throw notFound(`booking type ${input.bookingTypeId}`);
  const start = Date.parse(input.start);
  const end = start + type.durationMinutes * 60_000;
  const clash = store.bookings.find((b) => b.bookingTypeId === type.id && Date.parse(b.start) < end && Date.parse(b.end) > start);
  if (clash) throw new HttpError(409, `the slot at ${new Date(start).toISOString()} is already booked`, "conflict");
  const booking: Booking = {
    id: store.newId("bkg"),
    bookingTypeId: type.id,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    attendee: { name: input.attendee.name, email: input.attendee.email },
    status: "confirmed",
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
  };
  store.bookings.push(booking);
  return json(201, booking);
}

export const calendarRoutes: Route[] = [
  route("GET", "/email/v1/calendar/events", listEvents),
  route("POST", "/email/v1/bookings", createBooking),
];
