/**
 * Reading the position history: whether the vehicle is standing still, since when, and whether it is
 * moving. GPS wanders by a few hundred feet while parked and speed is not always reported, so "stationary"
 * is positions within a small radius whose reported speed (if any) is about zero.
 */
import { haversineMiles } from '../geo/geodesy.js';
import type { PositionReport } from './types.js';

/** GPS jitter and manoeuvring in a lot stay inside this radius. */
export const STATIONARY_RADIUS_MILES = 0.25;
/** Reported speeds up to this are standing (idling, creeping in a queue). */
export const STATIONARY_SPEED_MPH = 3;

export interface StationarySpan {
  /** The first position of the span (a lower bound when the span starts the history). */
  since: number;
  /** The time of the span's last position. */
  until: number;
  /** The span's last position. */
  last: PositionReport;
  /** Where the vehicle stands: the span's first position. */
  anchor: PositionReport;
  minutes: number;
  /** The span starts at the first position passed in: the vehicle may have stood there longer. */
  startsHistory: boolean;
}

const standing = (p: PositionReport): boolean => p.speedMph === null || p.speedMph <= STATIONARY_SPEED_MPH;

/** Maximal runs of standing positions within the radius of the run's first position, oldest first. */
export function stationarySpans(positions: readonly PositionReport[]): StationarySpan[] {
  const spans: StationarySpan[] = [];
  let start = -1;
  const close = (end: number) => {
    const anchor = positions[start]!;
    const last = positions[end]!;
    spans.push({ since: anchor.at, until: last.at, last, anchor, minutes: (last.at - anchor.at) / 60_000, startsHistory: start === 0 });
  };
  positions.forEach((p, i) => {
    const joins = start >= 0 && standing(p) && haversineMiles(positions[start]!, p) <= STATIONARY_RADIUS_MILES;
    if (joins) return;
    if (start >= 0) close(i - 1);
    start = standing(p) ? i : -1;
  });
  if (start >= 0) close(positions.length - 1);
  return spans;
}

/** The span the latest position belongs to, or null when the vehicle is moving (or nothing is known). */
export function currentStationarySpan(positions: readonly PositionReport[]): StationarySpan | null {
  const last = positions[positions.length - 1];
  if (last === undefined) return null;
  const span = stationarySpans(positions).at(-1);
  return span !== undefined && span.last === last ? span : null;
}

/** Moving now: a reported speed above standing, or (without speed) the last two positions apart. */
export function isMoving(positions: readonly PositionReport[]): boolean {
  const last = positions[positions.length - 1];
  if (last === undefined) return false;
  if (last.speedMph !== null) return last.speedMph > STATIONARY_SPEED_MPH;
  const previous = positions[positions.length - 2];
  return previous !== undefined && haversineMiles(previous, last) > STATIONARY_RADIUS_MILES;
}
