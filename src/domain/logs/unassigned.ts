/**
 * The unidentified-driving flag (ELD specification, 49 CFR Part 395 Subpart B, Appendix A, §4.6.1.6: "more than
 * 30 minutes of driving in a 24-hour period show unidentified driver"). Pure: segments and `now` are arguments.
 * A vehicle is flagged while more than 30 minutes of its unresolved driving (neither assumed by a driver nor
 * annotated) fall within the last 24 hours.
 */

export const FLAG_MINUTES = 30;
const DAY_MS = 24 * 3_600_000;

export interface OpenSegment {
  vehicleId: string;
  start: number;
  end: number;
}

/** Minutes of [start, end) inside [from, to). */
export function minutesWithin(start: number, end: number, from: number, to: number): number {
  return Math.max(0, Math.min(end, to) - Math.max(start, from)) / 60_000;
}

/** Per vehicle (first-seen order): the unresolved minutes of the last 24 hours (rounded once) and the flag. */
export function unassignedFlags(segments: readonly OpenSegment[], now: number): Array<{ vehicleId: string; unresolvedMinutesLast24Hours: number; flagged: boolean }> {
  const since = now - DAY_MS;
  const minutes = new Map<string, number>();
  for (const s of segments) minutes.set(s.vehicleId, (minutes.get(s.vehicleId) ?? 0) + minutesWithin(s.start, s.end, since, now));
  return [...minutes].map(([vehicleId, m]) => ({ vehicleId, unresolvedMinutesLast24Hours: Math.round(m), flagged: m > FLAG_MINUTES }));
}
