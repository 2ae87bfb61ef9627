/**
 * Re-planning an ACTIVE route from where the truck is: which alerts offer it, the route page's address
 * that opens it, the request, and the words of the preview (each remaining stop's old and new ETA with
 * kept / missed, the rests and fuel stops added or removed, the rest of the trip before and after, where
 * and with which clocks the new plan starts) and of the route's revisions. Pure; tested in replan.test.ts.
 */
import { label } from './glossary';
import type { Body, Ok } from '../api/client';
import { formatMinutes, hoursMinutes, roundMinutes } from './durations';
import { miles } from './format';
import { inZone } from './local-time';

export type ReplanAnswer = Ok<'/api/v1/routes/{planId}/replan', 'post'>;
export type ReplanChanges = ReplanAnswer['changes'];
export type StopChange = ReplanChanges['stops'][number];
export type PlanStopChange = ReplanChanges['added'][number];
export type ReplanStart = ReplanAnswer['start'];
export type ReplanRequest = NonNullable<Body<'/api/v1/routes/{planId}/replan'>>;
export type Revision = Ok<'/api/v1/routes/{planId}/revisions'>['data'][number];

/**
 * The alert types a re-plan answers: off the route, late or at risk for an appointment, close to an HOS
 * limit (the four the API's HOS_APPROACHING_LIMIT filter names), severe weather ahead.
 */
export const REPLAN_ALERT_TYPES: readonly string[] = [
  'ROUTE_DEVIATION',
  'LATE_TO_APPOINTMENT',
  'APPOINTMENT_AT_RISK',
  'HOS_APPROACHING_DRIVE_LIMIT',
  'HOS_APPROACHING_DUTY_LIMIT',
  'HOS_APPROACHING_CYCLE_LIMIT',
  'HOS_BREAK_REQUIRED',
  'SEVERE_WEATHER_IN_PATH',
];

/**
 * Whether an alert offers "Re-plan from here": one of those types, about a route, not resolved. Monitoring
 * raises alerts on ACTIVE routes only and a route that ends resolves its alerts, so an unresolved alert's
 * route is active (the route page checks again before it re-plans).
 */
export function offersReplan(alert: { type: string; status: string; routePlanId: string | null }): boolean {
  return alert.routePlanId !== null && alert.status !== 'RESOLVED' && REPLAN_ALERT_TYPES.includes(alert.type);
}

/** The route page with the re-plan preview open. */
export function replanHref(routeId: string): string {
  return `/routes/${encodeURIComponent(routeId)}?replan=1`;
}

/** Whether the route page's address asks for the re-plan preview (`?replan=1`). */
export function wantsReplan(search: string): boolean {
  const v = new URLSearchParams(search).get('replan');
  return v !== null && v !== '0' && v !== 'false';
}

/** The POST body: a preview or the real thing, with the dispatcher's reason when one was typed. */
export function replanBody(preview: boolean, reason: string): ReplanRequest {
  const r = reason.trim();
  return { ...(preview ? { preview: true } : {}), ...(r ? { reason: r.slice(0, 500) } : {}) };
}

/** "2:15 later", "0:40 earlier", "No change" (to the minute). */
export function changeLabel(hours: number): string {
  return minutesChangeLabel(Math.round(hours * 60));
}

/** `minutes` (whole, signed) as "2:15 later", "0:40 earlier", "No change". */
export function minutesChangeLabel(minutes: number): string {
  if (!Number.isFinite(minutes)) return '—';
  if (minutes === 0) return 'No change';
  return `${formatMinutes(Math.abs(minutes))} ${minutes > 0 ? 'later' : 'earlier'}`;
}

/**
 * How far apart two instants read on a clock (hh:mm, seconds dropped as every clock drops them): the
 * difference of the times as shown, so "09:44 → 07:52" says 1:52 earlier, whatever the seconds were.
 */
export function shownMinutesBetween(fromIso: string, toIso: string): number {
  return Math.floor(Date.parse(toIso) / 60_000) - Math.floor(Date.parse(fromIso) / 60_000);
}

/** An appointment window in the stop's local time: "any time – Tue, Jun 8, 15:00 CDT"; "—" without one. */
export function windowLabel(appointment: { earliest: string | null; latest: string | null } | null, timeZone?: string): string {
  if (!appointment || (!appointment.earliest && !appointment.latest)) return '—';
  return `${appointment.earliest ? inZone(appointment.earliest, timeZone) : 'any time'} – ${appointment.latest ? inZone(appointment.latest, timeZone) : 'open'}`;
}

/** Whether the old plan kept a stop's window: "On time", "Late", "—" (no window). */
export function oldWindowLabel(withinWindow: boolean | null): string {
  return withinWindow === null ? '—' : withinWindow ? 'On time' : 'Late';
}

export const OUTCOME_LABELS: Record<StopChange['outcome'], string> = { KEPT: 'Kept', MISSED: 'Missed', NO_WINDOW: 'No window' };

/** The badge tone of an outcome (the words say it too). */
export function outcomeTone(outcome: StopChange['outcome']): string {
  return outcome === 'KEPT' ? 'green' : outcome === 'MISSED' ? 'red' : 'grey';
}

export interface StopChangeRow {
  key: string;
  number: number;
  name: string;
  type: string;
  window: string;
  oldEta: string;
  newEta: string;
  change: string;
  before: string;
  outcome: StopChange['outcome'];
  outcomeLabel: string;
}

/** Each remaining stop side by side, its times in the stop's zone (from the new plan's stop at that index). */
export function stopChangeRows(changes: readonly StopChange[], zones: ReadonlyArray<{ timeZone?: string }>): StopChangeRow[] {
  return changes.map((s) => {
    const zone = zones[s.index]?.timeZone;
    return {
      key: `${s.index}-${s.sequence}`,
      number: s.index + 1,
      name: s.name,
      type: s.type.charAt(0) + s.type.slice(1).toLowerCase(),
      window: windowLabel(s.appointment, zone),
      oldEta: inZone(s.oldArrivalTime, zone),
      newEta: inZone(s.newArrivalTime, zone),
      change: minutesChangeLabel(shownMinutesBetween(s.oldArrivalTime, s.newArrivalTime)),
      before: oldWindowLabel(s.oldWithinWindow),
      outcome: s.outcome,
      outcomeLabel: OUTCOME_LABELS[s.outcome],
    };
  });
}

export interface TotalsRow {
  label: string;
  before: string;
  after: string;
  change: string;
}

function countChange(before: number, after: number): string {
  const d = after - before;
  return d === 0 ? 'No change' : `${d > 0 ? '+' : '−'}${Math.abs(d)}`;
}

/** The rest of the trip on the old plan and on the new one: distance, driving, arrival, rests, fuel stops. */
export function totalsRows(before: ReplanChanges['before'], after: ReplanChanges['after'], arrivalZone?: string): TotalsRow[] {
  const milesChange = Math.round(after.distanceMiles) - Math.round(before.distanceMiles);
  // Each change is the difference of the two figures as shown beside it, so the row adds up.
  const arrivalMinutes = shownMinutesBetween(before.arrivalTime, after.arrivalTime);
  const driveMinutes = roundMinutes(Math.round(after.driveHours * 3_600_000)) - roundMinutes(Math.round(before.driveHours * 3_600_000));
  return [
    { label: 'Distance', before: miles(before.distanceMiles), after: miles(after.distanceMiles), change: milesChange === 0 ? 'No change' : `${milesChange > 0 ? '+' : '−'}${miles(Math.abs(milesChange))}` },
    { label: 'Driving', before: hoursMinutes(before.driveHours), after: hoursMinutes(after.driveHours), change: minutesChangeLabel(driveMinutes).replace('later', 'more').replace('earlier', 'less') },
    { label: 'Arrival', before: inZone(before.arrivalTime, arrivalZone), after: inZone(after.arrivalTime, arrivalZone), change: minutesChangeLabel(arrivalMinutes) },
    { label: 'Rests', before: String(before.restStops), after: String(after.restStops), change: countChange(before.restStops, after.restStops) },
    { label: 'Fuel stops', before: String(before.fuelStops), after: String(after.fuelStops), change: countChange(before.fuelStops, after.fuelStops) },
  ];
}

const KIND_LABELS: Record<PlanStopChange['kind'], string> = { rest: 'Rest', break: '30-minute break', restart: '34-hour restart', fuel: 'Fuel stop' };

/** "10-hour rest", "30-minute break", "34-hour restart", "Fuel stop". */
export function planStopKind(s: Pick<PlanStopChange, 'kind' | 'durationHours'>): string {
  if (s.kind === 'rest') return s.durationHours >= 9.75 ? `${Math.round(s.durationHours)}-hour rest` : `${hoursMinutes(s.durationHours)} rest`;
  return KIND_LABELS[s.kind];
}

export interface PlanStopChangeRow {
  key: string;
  change: 'Added' | 'Removed';
  kind: string;
  location: string;
  start: string;
  duration: string;
}

/** The rests, breaks and fuel stops the re-plan adds and removes, in the order they happen (added first at a tie). */
export function planStopRows(added: readonly PlanStopChange[], removed: readonly PlanStopChange[], timeZone?: string): PlanStopChangeRow[] {
  const rows = [...added.map((s) => ['Added', s] as const), ...removed.map((s) => ['Removed', s] as const)];
  return rows
    .map(([change, s], i) => ({ i, at: Date.parse(s.startTime), row: { key: `${change}-${i}`, change, kind: planStopKind(s), location: s.location, start: inZone(s.startTime, timeZone), duration: hoursMinutes(s.durationHours) } }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((r) => r.row);
}

/** Where the clocks come from: the duty-status log, or the ELD integration that reported them. */
export function clocksSource(source: string): string {
  return source === 'LOG' ? 'the duty-status log' : source === 'ROUTE_PLAN' ? 'the current route’s plan' : `the ELD (${label('vendor', source)})`;
}

/**
 * Where the new plan starts, in words: the reported position (or the one given) and when (in `timeZone`,
 * the next stop's), the stops already completed, how far off the old path, and the driver's clocks then.
 */
export function startFacts(start: ReplanStart, totalStops: number, timeZone?: string): Array<[string, string]> {
  const where = `${start.name} (${start.latitude.toFixed(4)}, ${start.longitude.toFixed(4)})`;
  return [
    ['Starts from', where],
    [start.source === 'POSITION' ? 'Position reported' : 'Position given', inZone(start.recordedAt, timeZone)],
    ['Stops completed', `${start.completedStops} of ${totalStops}`],
    ['Off the old path', miles(start.offPlanMiles)],
    ['Driven', hoursMinutes(start.clocks.hoursDriven)],
    ['On duty', hoursMinutes(start.clocks.onDutyHours)],
    ['Since the last break', hoursMinutes(start.clocks.hoursSinceBreak)],
    ['Cycle used', hoursMinutes(start.clocks.cycleHoursUsed)],
    ['Clocks from', clocksSource(start.clocks.source)],
  ];
}

/** The route's revisions worth a list: only when it was re-planned at least once. */
export function showRevisions(revisions: readonly Revision[] | undefined): boolean {
  return (revisions?.length ?? 0) > 1;
}

/** Who made a revision: their name, else "an API key or the system". */
export function revisionAuthor(r: Pick<Revision, 'createdByName' | 'createdBy'>): string {
  return r.createdByName ?? (r.createdBy ? r.createdBy : 'an API key or the system');
}

/** "Revision 2"; revision 1 is "Revision 1 — as planned". */
export function revisionTitle(r: Pick<Revision, 'revision'>): string {
  return `Revision ${r.revision}${r.revision === 1 ? ' — as planned' : ''}`;
}
