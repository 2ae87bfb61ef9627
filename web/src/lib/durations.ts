/**
 * Durations as the dashboard shows them: whole minutes, h:mm, rounded to the nearest minute (half a
 * minute rounds up). The parts of a plan are measured between their start and end each rounded to the
 * nearest minute, so the parts add up to the totals shown beside them (the drive rows of the timeline
 * to the summary's driving, all rows to the trip time): a 2 h 38 min 38 s drive from 08:00:00 reads
 * 2:39 in the summary and in the timeline. Pure; tested in durations.test.ts.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Whole minutes, rounded to the nearest (half up). */
export function roundMinutes(ms: number): number {
  return Math.round(ms / MINUTE_MS);
}

/** 158 → "2:38"; negative or unreadable counts as 0. */
export function formatMinutes(minutes: number): string {
  const total = Number.isFinite(minutes) ? Math.max(0, Math.round(minutes)) : 0;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Hours (as the API gives them) as h:mm to the nearest minute. */
export function hoursMinutes(hours: number): string {
  // Hours to whole milliseconds first, so 2.6666667 h is 2:40 and not a float's 159.99999 minutes.
  return formatMinutes(roundMinutes(Math.round(hours * HOUR_MS)));
}

/** The minutes from one instant to another, each rounded to the nearest minute first; NaN when unreadable. */
export function minutesBetween(startIso: string, endIso: string): number {
  return roundMinutes(Date.parse(endIso)) - roundMinutes(Date.parse(startIso));
}

export interface PlanSegmentTimes {
  type: string;
  start_time: string;
  end_time: string;
}

export interface PlanTotals {
  drive: number;
  onDuty: number;
  rest: number;
  trip: number;
}

const ON_DUTY = new Set(['drive', 'dock', 'fuel']);
const RESTING = new Set(['rest', 'wait']);

/**
 * A plan's totals in minutes from its segments (as the planner adds them up: on duty is driving, docks
 * and fuel stops; resting is rests, breaks and waits) and the trip from departure to arrival. The server
 * computes the same (src/domain/planning/minutes.ts) into `summary.minutes`; test/plan-minutes.test.ts
 * holds the two to the same answers.
 */
export function planTotals(plan: { departureTime: string; arrivalTime: string; segments: readonly PlanSegmentTimes[] }): PlanTotals {
  const totals: PlanTotals = { drive: 0, onDuty: 0, rest: 0, trip: minutesBetween(plan.departureTime, plan.arrivalTime) };
  for (const s of plan.segments) {
    const minutes = minutesBetween(s.start_time, s.end_time);
    if (!Number.isFinite(minutes)) continue;
    if (s.type === 'drive') totals.drive += minutes;
    if (ON_DUTY.has(s.type)) totals.onDuty += minutes;
    if (RESTING.has(s.type)) totals.rest += minutes;
  }
  return totals;
}

/**
 * The minutes to show for a plan or a route in a list: the server's `summary.minutes` (what every screen
 * shows), or for a plan stored before it existed, its segments' (when at hand) or the hours rounded once.
 */
export function summaryMinutes(plan: {
  summary: { minutes?: PlanTotals; totalDriveHours: number; totalOnDutyHours: number; totalRestHours: number; totalTripHours: number };
  departureTime?: string;
  arrivalTime?: string;
  segments?: readonly PlanSegmentTimes[];
}): PlanTotals {
  if (plan.summary.minutes) return plan.summary.minutes;
  if (plan.segments && plan.departureTime && plan.arrivalTime) return planTotals({ departureTime: plan.departureTime, arrivalTime: plan.arrivalTime, segments: plan.segments });
  const m = (hours: number) => roundMinutes(Math.round(hours * HOUR_MS));
  return { drive: m(plan.summary.totalDriveHours), onDuty: m(plan.summary.totalOnDutyHours), rest: m(plan.summary.totalRestHours), trip: m(plan.summary.totalTripHours) };
}

/** A stretch of a route's time its plan does not cover: after a re-plan, between the last completed stop and where the truck was re-planned from. */
export interface PlanGap {
  /** The index of the segment the gap comes before. */
  before: number;
  startTime: string;
  endTime: string;
  minutes: number;
}

/**
 * The holes in a plan's time (a re-planned route's "driven, not planned" stretch), in whole minutes as
 * shown: from the departure to the first segment (a route re-planned before its first completed stop
 * keeps no segment of the driven part), and between consecutive segments.
 */
export function planGaps(segments: readonly PlanSegmentTimes[], departureTime?: string): PlanGap[] {
  const gaps: PlanGap[] = [];
  const lead = departureTime && segments[0] ? minutesBetween(departureTime, segments[0].start_time) : 0;
  if (lead > 0) gaps.push({ before: 0, startTime: departureTime!, endTime: segments[0]!.start_time, minutes: lead });
  for (let i = 1; i < segments.length; i++) {
    const minutes = minutesBetween(segments[i - 1]!.end_time, segments[i]!.start_time);
    if (minutes > 0) gaps.push({ before: i, startTime: segments[i - 1]!.end_time, endTime: segments[i]!.start_time, minutes });
  }
  return gaps;
}
