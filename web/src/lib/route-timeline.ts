/**
 * The words of a route's timeline and stop table: what a segment is, where it happens, the zone its
 * start and end are shown in, a planner's reason cut into its headline and explanation, how a stop was
 * placed. Pure; tested in route-timeline.test.ts.
 */
import { restName, type Segment } from './route-map';
import { isDriverChange } from './team';

export function segmentKind(s: Segment): string {
  switch (s.type) {
    case 'drive':
      return 'Drive';
    case 'rest':
      return restName(s);
    case 'dock':
      return `${s.stop_type.charAt(0)}${s.stop_type.slice(1).toLowerCase()} at the dock`;
    case 'fuel':
      return 'Fuel';
    case 'wait':
      return isDriverChange(s) ? 'Driver change' : 'Wait';
  }
}

export function segmentPlace(s: Segment): string {
  if (s.type === 'drive') return `${s.from.name} → ${s.to.name}`;
  return s.location;
}

/** The zone a segment's start is shown in (a drive's origin's), and its end's (a drive's destination's). */
export const startZone = (s: Segment) => (s.type === 'drive' ? s.from.time_zone : s.time_zone);
export const endZone = (s: Segment) => (s.type === 'drive' ? s.to.time_zone : s.time_zone);

/** A planner's reason as its first sentence and the rest; `more` is null when it is one sentence. */
export function splitReason(text: string): { headline: string; more: string | null } {
  const cut = text.search(/\.\s/);
  if (cut < 0) return { headline: text, more: null };
  return { headline: text.slice(0, cut + 1), more: text.slice(cut + 1).trim() };
}

const PRECISION: Record<string, string> = { COORDINATES: 'By coordinates', ZIP: 'ZIP code centre', CITY: 'City centre' };

/** How a stop's place was found, in words. */
export function placedBy(precision: string): string {
  return PRECISION[precision] ?? 'Street address';
}

/** ORIGIN → "Origin". */
export const stopTypeName = (type: string) => type.charAt(0) + type.slice(1).toLowerCase();
