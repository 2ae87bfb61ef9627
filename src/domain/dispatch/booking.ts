/**
 * Double bookings, said before they happen (pure): a new trip for a driver (or a team) who is already on
 * another PLANNED or ACTIVE route at the same time, or who will be far from the trip's origin when it
 * departs (the plan does not drive them there). The planner's answer carries these as warnings; the
 * dashboard shows them before planning too.
 */
import type { NamedPoint, Point } from '../planning/types.js';
import { clockAt, miles } from '../words.js';

/** Farther than this from the origin at the departure is worth saying. */
export const FAR_FROM_ORIGIN_MILES = 50;

/**
 * How many PLANNED routes still running at the departure the caller reads per assignee (earliest first) at
 * most, plus one: more overlapping than this are said as "more than" it, whatever the driver's history.
 * Ten tells a dispatcher all there is to know (a driver cannot drive two of them); reading a hundred cost
 * PostgreSQL ~0.5 ms of every plan for drivers with that many (issue 28).
 */
export const BOOKED_READ_LIMIT = 10;

/**
 * Another route one of the assignees is on. `from` / `to` are given for the routes a warning can name (the
 * active one, the earliest planned one still running at the departure, the last one ended by then); null for
 * those only counted.
 */
export interface BookedRoute {
  id: string;
  status: 'PLANNED' | 'ACTIVE';
  driverId: string;
  coDriverId: string | null;
  departure: number;
  arrival: number;
  from: NamedPoint | null;
  to: NamedPoint | null;
  loadReference: string | null;
}

/** A driver of the new trip, with where they were last known to be (null: nothing known). */
export interface Assignee {
  id: string;
  name: string;
  lastKnown: { point: Point; at: number; name: string } | null;
}

export interface NewTrip {
  departure: number;
  arrival: number;
  origin: NamedPoint;
}

export interface BookingWords {
  /** Great-circle (or road) miles between two points. */
  distance(a: Point, b: Point): number;
  /** The IANA zone at a point. */
  zoneAt(p: Point): string;
}

const routeName = (r: BookedRoute) => `${r.status === 'ACTIVE' ? 'active' : 'planned'} route ${r.from?.name ?? 'its first stop'} → ${r.to?.name ?? 'its last stop'}${r.loadReference ? ` (load ${r.loadReference})` : ''}`;

/** What to warn about, one sentence per problem, each naming the driver and the route or the place. */
export function bookingWarnings(trip: NewTrip, assignees: readonly Assignee[], booked: readonly BookedRoute[], words: BookingWords): string[] {
  const when = (ms: number, p: Point) => clockAt(ms, words.zoneAt(p));
  const warnings: string[] = [];
  for (const a of assignees) {
    const theirs = booked.filter((r) => r.driverId === a.id || r.coDriverId === a.id);
    // The active one first (it is what stops an activation), then by departure.
    const overlapping = theirs
      .filter((r) => r.departure < trip.arrival && r.arrival > trip.departure)
      .sort((x, y) => (x.status === y.status ? x.departure - y.departure || (x.from ? 0 : 1) - (y.from ? 0 : 1) : x.status === 'ACTIVE' ? -1 : 1));
    const first = overlapping[0];
    if (first) {
      const span = `${routeName(first)}, ${when(first.departure, first.from ?? trip.origin)} to ${when(first.arrival, first.to ?? trip.origin)}`;
      const count = overlapping.length > BOOKED_READ_LIMIT ? `more than ${BOOKED_READ_LIMIT}` : String(overlapping.length);
      const blocked = first.status === 'ACTIVE' ? `; this route cannot be activated until ${overlapping.length === 1 ? 'that one' : 'the active one'} is completed or cancelled.` : '.';
      warnings.push(
        overlapping.length === 1
          ? `${a.name} is already on the ${span}, at the same time as this one: only one of the two can be driven${blocked}`
          : `${a.name} is already on ${count} other routes at the same time as this one, among them the ${span}: only one can be driven${blocked}`,
      );
      continue;
    }
    // Where they will be when this one departs: the end of a route of theirs that ends before it, else where they were last seen.
    const before = theirs.filter((r) => r.arrival <= trip.departure).sort((x, y) => y.arrival - x.arrival)[0];
    const there = before?.to
      ? { point: before.to, why: `where their ${routeName(before)} ends, ${when(before.arrival, before.to)}` }
      : a.lastKnown && a.lastKnown.at <= trip.departure
        ? { point: a.lastKnown.point, why: `last known ${a.lastKnown.name}, ${when(a.lastKnown.at, a.lastKnown.point)}` }
        : null;
    if (!there) continue;
    const away = words.distance(there.point, trip.origin);
    if (away > FAR_FROM_ORIGIN_MILES) {
      warnings.push(`${a.name} will be about ${miles(away)} from ${trip.origin.name} when this route departs, ${when(trip.departure, trip.origin)} (${there.why}): the plan does not include the drive there.`);
    }
  }
  return warnings;
}
