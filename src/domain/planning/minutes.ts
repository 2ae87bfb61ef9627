/**
 * Durations as people read them: whole minutes, each instant rounded once to the nearest minute, so the
 * parts of a plan add up to its totals (PlanMinutes). The dashboard's timeline measures its rows the same
 * way (web/src/lib/durations.ts; test/plan-minutes.test.ts holds the two to the same answers).
 */
import type { PlanMinutes, Segment } from './types.js';

const MINUTE_MS = 60_000;

/** An instant (ms) to the nearest whole minute (half up). */
const minuteOf = (ms: number) => Math.round(ms / MINUTE_MS);

/** Whole minutes from one instant to another, each rounded to the minute first. */
export function minutesBetween(startIso: string, endIso: string): number {
  return minuteOf(Date.parse(endIso)) - minuteOf(Date.parse(startIso));
}

const ON_DUTY = new Set(['drive', 'dock', 'fuel']);
const RESTING = new Set(['rest', 'wait']);

/** A plan's minutes: drive, on duty, resting and the trip, from its segments' start and end times. */
export function planMinutes(departureTime: string, arrivalTime: string, segments: readonly Pick<Segment, 'type' | 'start_time' | 'end_time'>[]): PlanMinutes {
  const totals: PlanMinutes = { drive: 0, onDuty: 0, rest: 0, trip: minutesBetween(departureTime, arrivalTime) };
  for (const s of segments) {
    const minutes = minutesBetween(s.start_time, s.end_time);
    if (s.type === 'drive') totals.drive += minutes;
    if (ON_DUTY.has(s.type)) totals.onDuty += minutes;
    if (RESTING.has(s.type)) totals.rest += minutes;
  }
  return totals;
}

/** Hours to 7 decimals: exact to the 0.36 ms, as segments' duration_hours are. */
export function exactHours(hours: number): number {
  return Math.round(hours * 1e7) / 1e7;
}
