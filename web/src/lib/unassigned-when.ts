/**
 * When a segment of unassigned driving happened, in the zone the API gives it (its start place's, else its
 * end place's, else the organization's home terminal zone) with the zone's abbreviation. Pure; tested in
 * unassigned.test.ts.
 */
import { timeRangeText } from './time-range';
import type { UnassignedSegment } from './unassigned';

/** When the segment happened, in its zone with the zone's abbreviation. */
export function segmentWhen(s: Pick<UnassignedSegment, 'start' | 'end' | 'timeZone'>): string {
  return timeRangeText(s.start, s.end, s.timeZone);
}
