/**
 * When a segment of unassigned driving happened, in the zone of its start place with the zone's
 * abbreviation. Apart from unassigned.ts because the zone lookup is a 70 KB table: the Vehicles list,
 * which shows the flags only, does not load it. Pure; tested in unassigned.test.ts.
 */
import { placeZone } from './place-zone';
import { timeRangeText } from './time-range';
import type { UnassignedSegment } from './unassigned';

/** The zone a segment's times are written in: its start place's (else its end place's); UTC when neither is known. */
export function segmentZone(s: Pick<UnassignedSegment, 'startLocation' | 'endLocation'>): string {
  return placeZone(s.startLocation ?? s.endLocation);
}

/** When the segment happened, in the zone of its start place with the zone's abbreviation. */
export function segmentWhen(s: Pick<UnassignedSegment, 'start' | 'end' | 'startLocation' | 'endLocation'>): string {
  return timeRangeText(s.start, s.end, segmentZone(s));
}
