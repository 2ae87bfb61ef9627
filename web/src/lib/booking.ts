/**
 * What the plan form says before planning about the chosen driver and co-driver: any PLANNED or ACTIVE
 * route of theirs still running at the departure (the planner's answer then warns in full, with the
 * overlap and how far they would be from the origin). Times in the zone of the stop they belong to.
 * And the truck a driver drives: the vehicle whose unit number is their truck number. Pure; tested in
 * booking.test.ts.
 */
import { inZone } from './local-time';

export interface BookedRouteItem {
  id: string;
  status: string;
  driverId: string;
  coDriverId: string | null;
  departureTime: string;
  arrivalTime: string;
  origin: { name: string; timeZone: string | null };
  destination: { name: string; timeZone: string | null };
}

export interface BookingNotice {
  routeId: string;
  text: string;
}

/** One sentence per route of `driverId` (named `name`) that is PLANNED or ACTIVE and still runs at `departureMs`. */
export function bookingNotices(routes: readonly BookedRouteItem[], driverId: string, name: string, departureMs: number): BookingNotice[] {
  return routes
    .filter((r) => (r.status === 'PLANNED' || r.status === 'ACTIVE') && (r.driverId === driverId || r.coDriverId === driverId) && Date.parse(r.arrivalTime) > departureMs)
    .sort((a, b) => Date.parse(a.departureTime) - Date.parse(b.departureTime))
    .map((r) => ({
      routeId: r.id,
      text:
        `${name} is on the ${r.status === 'ACTIVE' ? 'active' : 'planned'} route ${r.origin.name} → ${r.destination.name}, ` +
        `${inZone(r.departureTime, r.origin.timeZone ?? undefined)} to ${inZone(r.arrivalTime, r.destination.timeZone ?? undefined)}` +
        (r.status === 'ACTIVE' ? ': a route for the same time cannot be activated until that one is completed or cancelled.' : ': only one of the two can be driven.'),
    }));
}

/** The vehicle a driver drives: the one whose unit number is the driver's truck number (letter case aside). */
export function truckOf<V extends { id: string; unitNumber: string }>(driver: { truckNumber: string | null } | undefined, vehicles: readonly V[]): V | undefined {
  const unit = driver?.truckNumber?.trim().toUpperCase();
  return unit ? vehicles.find((v) => v.unitNumber.trim().toUpperCase() === unit) : undefined;
}
