/** Scheduling rules: LATE_TO_APPOINTMENT, APPOINTMENT_AT_RISK, DOCK_DELAY, DEPARTURE_DELAYED. */
import { vendorName } from '../words.js';
import { haversineMiles, type LatLng } from '../geo/geodesy.js';
import type { Segment, StopEta } from '../planning/types.js';
import type { RuleContext } from './context.js';
import { PLANNED_PLACE_RADIUS_MILES } from './route.js';
import { band, condition, num, type AlertRule } from './rule.js';
import { hoursText, iso, MINUTE_MS, minutesText, round2, stopTypeWords, wholeMinutes } from './text.js';

/** A projected arrival this close to the window's end (but not after it) puts the appointment at risk. */
export const APPOINTMENT_RISK_MARGIN_MINUTES = 30;
/** How long after the planned departure a vehicle still at the origin is reported. */
export const DEPARTURE_GRACE_MINUTES = 30;

const parse = (value: string | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
};

/**
 * Whether the vehicle has got to stop i: its position on the path is at (within a mile of) or past the
 * stop's. Without a position, by the plan's clock, unless a visibility ETA says it is still to come.
 */
export function stopReached(ctx: RuleContext, i: number): boolean {
  if (ctx.location !== null) return ctx.location.milesAlong >= ctx.stopMiles[i]! - PLANNED_PLACE_RADIUS_MILES;
  const planned = parse(ctx.snapshot.route.stops[i]!.arrivalTime);
  const prediction = latestPrediction(ctx, i);
  return planned !== null && planned <= ctx.now && !(prediction !== null && prediction.predictedArrival > ctx.now);
}

function latestPrediction(ctx: RuleContext, stopIndex: number) {
  const forStop = ctx.snapshot.etaPredictions.filter((p) => p.stopIndex === stopIndex && Number.isFinite(p.predictedArrival));
  return forStop.reduce<(typeof forStop)[number] | null>((best, p) => (best === null || p.at > best.at ? p : best), null);
}

export interface ArrivalProjection {
  at: number;
  /** VISIBILITY: the provider's ETA; PLAN_AND_POSITION: plan arrival + delay from the position; PLAN: no position. */
  method: 'VISIBILITY' | 'PLAN_AND_POSITION' | 'PLAN';
  etaSource: string | null;
}

/** When the vehicle will get to stop i, never earlier than now (it is not there yet). */
export function projectArrival(ctx: RuleContext, i: number): ArrivalProjection | null {
  const prediction = latestPrediction(ctx, i);
  if (prediction !== null) return { at: Math.max(prediction.predictedArrival, ctx.now), method: 'VISIBILITY', etaSource: prediction.source };
  const planned = parse(ctx.snapshot.route.stops[i]!.arrivalTime);
  if (planned === null) return null;
  return { at: Math.max(planned + ctx.delayMs, ctx.now), method: ctx.latest ? 'PLAN_AND_POSITION' : 'PLAN', etaSource: null };
}

interface AppointmentOutlook {
  index: number;
  stop: StopEta;
  latest: number;
  projection: ArrivalProjection;
  /** Projected arrival minus the window's end (positive: late). */
  lateByMs: number;
}

/** The next stop not yet reached that has an appointment window with an end, and how its arrival looks. */
export function nextAppointment(ctx: RuleContext): AppointmentOutlook | null {
  const stops = ctx.snapshot.route.stops;
  for (let i = 0; i < stops.length; i++) {
    const latest = parse(stops[i]!.appointment?.latest);
    if (latest === null || stopReached(ctx, i)) continue;
    const projection = projectArrival(ctx, i);
    if (projection === null) continue;
    return { index: i, stop: stops[i]!, latest, projection, lateByMs: projection.at - latest };
  }
  return null;
}

function projectionText(ctx: RuleContext, o: AppointmentOutlook): string {
  if (o.projection.method === 'VISIBILITY') return `ETA from ${o.projection.etaSource ? vendorName(o.projection.etaSource) : 'the visibility provider'}`;
  const planned = ctx.timeAt(parse(o.stop.arrivalTime)!, o.stop);
  if (o.projection.method === 'PLAN') return `planned arrival ${planned}; no position reported`;
  return ctx.delayMs > 0 ? `planned arrival ${planned} plus the current ${minutesText(ctx.delayMs / MINUTE_MS)} delay` : `on plan, planned arrival ${planned}`;
}

function outlookFacts(ctx: RuleContext, o: AppointmentOutlook) {
  return {
    stopName: o.stop.name,
    stopIndex: o.index,
    stopSequence: o.stop.sequence,
    stopType: o.stop.type,
    appointmentEarliest: o.stop.appointment?.earliest ?? null,
    appointmentLatest: iso(o.latest),
    plannedArrival: o.stop.arrivalTime,
    projectedArrival: iso(o.projection.at),
    projectionMethod: o.projection.method,
    etaSource: o.projection.etaSource,
    delayMinutes: wholeMinutes(ctx.delayMs),
  };
}

function appointmentCleared(ctx: RuleContext, alert: { metadata: Record<string, unknown> }): string {
  const index = num(alert.metadata, 'stopIndex');
  const stop = ctx.snapshot.route.stops[index];
  if (stop !== undefined && stopReached(ctx, index)) return `Arrived at ${stop.name}`;
  const o = nextAppointment(ctx);
  if (o === null) return 'No upcoming appointment';
  const slack = -o.lateByMs / MINUTE_MS;
  if (slack <= 0) return `Projected arrival at ${o.stop.name} ${ctx.timeAt(o.projection.at, o.stop)} is after the window (${ctx.timeAt(o.latest, o.stop)})`;
  return `Projected arrival at ${o.stop.name} ${ctx.timeAt(o.projection.at, o.stop)} leaves ${minutesText(slack)} before the window ends (${ctx.timeAt(o.latest, o.stop)})`;
}

export const lateToAppointment: AlertRule = {
  type: 'LATE_TO_APPOINTMENT',
  evaluate(ctx) {
    const o = nextAppointment(ctx);
    if (o === null || o.lateByMs <= 0) return null;
    const late = minutesText(o.lateByMs / MINUTE_MS);
    return condition(
      'LATE_TO_APPOINTMENT',
      'HIGH',
      `Late to appointment at ${o.stop.name}: ${late} past the window`,
      `${ctx.subject} is projected to arrive at ${o.stop.name} (${stopTypeWords(o.stop.type)}) at ${ctx.timeAt(o.projection.at, o.stop)}, ${late} after the appointment's latest time ${ctx.timeAt(o.latest, o.stop)} (${projectionText(ctx, o)}).`,
      { ...outlookFacts(ctx, o), lateByMinutes: wholeMinutes(o.lateByMs) },
    );
  },
  fingerprint: (m) => `${String(m['stopIndex'])}:${band(num(m, 'lateByMinutes'), 15)}`,
  cleared: appointmentCleared,
};

export const appointmentAtRisk: AlertRule = {
  type: 'APPOINTMENT_AT_RISK',
  evaluate(ctx) {
    const o = nextAppointment(ctx);
    if (o === null || o.lateByMs > 0 || o.lateByMs <= -APPOINTMENT_RISK_MARGIN_MINUTES * MINUTE_MS) return null;
    const slack = minutesText(-o.lateByMs / MINUTE_MS);
    return condition(
      'APPOINTMENT_AT_RISK',
      'MEDIUM',
      `Appointment at risk at ${o.stop.name}: ${slack} to spare`,
      `${ctx.subject} is projected to arrive at ${o.stop.name} (${stopTypeWords(o.stop.type)}) at ${ctx.timeAt(o.projection.at, o.stop)}, only ${slack} before the appointment's latest time ${ctx.timeAt(o.latest, o.stop)} (${projectionText(ctx, o)}).`,
      { ...outlookFacts(ctx, o), slackMinutes: wholeMinutes(-o.lateByMs), marginMinutes: APPOINTMENT_RISK_MARGIN_MINUTES },
    );
  },
  fingerprint: (m) => `${String(m['stopIndex'])}:${band(num(m, 'slackMinutes'), 15)}`,
  cleared: appointmentCleared,
};

type DockSegment = Extract<Segment, { type: 'dock' }>;

/** Hours the plan docks at stop i: its dock segments at the stop's place within its planned stay. */
function plannedDockHours(ctx: RuleContext, i: number): number {
  const stop = ctx.snapshot.route.stops[i]!;
  const from = parse(stop.arrivalTime) ?? -Infinity;
  const to = parse(stop.departureTime) ?? Infinity;
  return ctx.snapshot.route.segments
    .filter((s): s is DockSegment => s.type === 'dock')
    .filter((s) => haversineMiles(s, stop) <= PLANNED_PLACE_RADIUS_MILES && Date.parse(s.start_time) >= from && Date.parse(s.start_time) <= to)
    .reduce((sum, s) => sum + s.duration_hours, 0);
}

/** The docking stop the latest position is at: within a mile, nearest along the path to the vehicle. */
function dockStopHere(ctx: RuleContext): number | null {
  const latest = ctx.latest;
  if (latest === null) return null;
  const progress = ctx.location?.milesAlong ?? 0;
  let best: number | null = null;
  ctx.snapshot.route.stops.forEach((stop, i) => {
    if (haversineMiles(stop, latest) > PLANNED_PLACE_RADIUS_MILES || plannedDockHours(ctx, i) <= 0) return;
    if (best === null || Math.abs(ctx.stopMiles[i]! - progress) < Math.abs(ctx.stopMiles[best]! - progress)) best = i;
  });
  return best;
}

/** Since when the vehicle has been within a mile of a place, up to its latest position; null when it is not. */
function atPlaceSince(ctx: RuleContext, place: LatLng): { since: number; startsHistory: boolean } | null {
  let since: number | null = null;
  let i = ctx.positions.length - 1;
  for (; i >= 0 && haversineMiles(ctx.positions[i]!, place) <= PLANNED_PLACE_RADIUS_MILES; i--) since = ctx.positions[i]!.at;
  return since === null ? null : { since, startsHistory: i < 0 };
}

interface DockStay {
  index: number;
  stop: StopEta;
  arrivedAt: number;
  startsHistory: boolean;
  dockHours: number;
  expectedDeparture: number;
  overstayMs: number;
}

/**
 * The stay at the current docking stop: expected to end the planned dock time after the vehicle arrived,
 * or after the window opened if it arrived early; the overstay is measured up to the latest position.
 */
function dockStay(ctx: RuleContext): DockStay | null {
  const index = dockStopHere(ctx);
  if (index === null || ctx.latest === null) return null;
  const stop = ctx.snapshot.route.stops[index]!;
  const at = atPlaceSince(ctx, stop)!;
  const dockHours = plannedDockHours(ctx, index);
  const ready = Math.max(at.since, parse(stop.appointment?.earliest) ?? at.since);
  const expectedDeparture = ready + dockHours * 3_600_000;
  return { index, stop, arrivedAt: at.since, startsHistory: at.startsHistory, dockHours, expectedDeparture, overstayMs: ctx.latest.at - expectedDeparture };
}

export const dockDelay: AlertRule = {
  type: 'DOCK_DELAY',
  evaluate(ctx) {
    const stay = dockStay(ctx);
    if (stay === null || stay.overstayMs <= ctx.alerts.dockDelayThresholdMinutes * MINUTE_MS) return null;
    const over = minutesText(stay.overstayMs / MINUTE_MS);
    return condition(
      'DOCK_DELAY',
      'MEDIUM',
      `Dock delay at ${stay.stop.name}: ${over} over plan`,
      `${ctx.subject} has been at ${stay.stop.name} (${stopTypeWords(stay.stop.type)}) since ${stay.startsHistory ? 'at least ' : ''}${ctx.timeAt(stay.arrivedAt, stay.stop)}; the planned dock time (${hoursText(stay.dockHours)}) should have ended by ${ctx.timeAt(stay.expectedDeparture, stay.stop)} (${over} ago, alert threshold ${minutesText(ctx.alerts.dockDelayThresholdMinutes)}).`,
      {
        stopName: stay.stop.name,
        stopIndex: stay.index,
        stopType: stay.stop.type,
        arrivedAt: iso(stay.arrivedAt),
        atLeast: stay.startsHistory,
        plannedDockHours: round2(stay.dockHours),
        expectedDepartureAt: iso(stay.expectedDeparture),
        overstayMinutes: wholeMinutes(stay.overstayMs),
        thresholdMinutes: ctx.alerts.dockDelayThresholdMinutes,
      },
    );
  },
  // Hourly news while it goes on.
  fingerprint: (m) => `${String(m['stopIndex'])}:${band(num(m, 'overstayMinutes'), 60)}`,
  cleared(ctx, alert) {
    const stay = dockStay(ctx);
    if (stay === null) return `The vehicle has left ${String(alert.metadata['stopName'] ?? 'the stop')}`;
    return `Time at ${stay.stop.name} is within the planned dock time plus ${minutesText(ctx.alerts.dockDelayThresholdMinutes)}`;
  },
};

/** The plan's origin: the first stop, or the first segment's place. */
function originOf(ctx: RuleContext): (LatLng & { name: string }) | null {
  const first = ctx.snapshot.route.stops[0];
  if (first !== undefined) return first;
  const segment = [...ctx.snapshot.route.segments].sort((a, b) => a.sequence - b.sequence)[0];
  if (segment === undefined) return null;
  return segment.type === 'drive' ? segment.from : { name: segment.location, latitude: segment.latitude, longitude: segment.longitude };
}

/** When the plan leaves the origin: its first drive (after any loading there), else the route's departure. */
function plannedLeaveTime(ctx: RuleContext): number {
  const drives = ctx.snapshot.route.segments.filter((s) => s.type === 'drive').sort((a, b) => a.sequence - b.sequence);
  return parse(drives[0]?.start_time) ?? ctx.snapshot.route.departureTime;
}

/**
 * When the plan brings the vehicle back within a mile of the origin after leaving it (out-and-back
 * trips); Infinity for a trip that does not return. Near the origin after that time, "not left" and
 * "back again" look the same, so the rule is not raised then.
 */
function planReturnsToOriginAt(ctx: RuleContext, origin: LatLng): number {
  let left = false;
  for (const s of [...ctx.snapshot.route.segments].sort((a, b) => a.sequence - b.sequence)) {
    const [place, at]: [LatLng, string] = s.type === 'drive' ? [s.to, s.end_time] : [s, s.start_time];
    const near = haversineMiles(place, origin) <= PLANNED_PLACE_RADIUS_MILES;
    if (!near) left = true;
    else if (left) return Date.parse(at);
  }
  return Infinity;
}

/**
 * Past the planned departure by the grace period, and every position is still within a mile of the origin
 * (at least one position: without any, TELEMETRY_STALE speaks instead).
 */
export const departureDelayed: AlertRule = {
  type: 'DEPARTURE_DELAYED',
  evaluate(ctx) {
    const origin = originOf(ctx);
    const latest = ctx.latest;
    if (origin === null || latest === null) return null;
    const leave = plannedLeaveTime(ctx);
    const lateMs = ctx.now - leave;
    if (lateMs <= DEPARTURE_GRACE_MINUTES * MINUTE_MS) return null;
    if (ctx.positions.some((p) => haversineMiles(p, origin) > PLANNED_PLACE_RADIUS_MILES)) return null;
    if (ctx.openOf('DEPARTURE_DELAYED') === undefined && ctx.now >= planReturnsToOriginAt(ctx, origin)) return null;
    const late = minutesText(lateMs / MINUTE_MS);
    return condition(
      'DEPARTURE_DELAYED',
      'LOW',
      `Departure delayed: ${late} past the planned departure`,
      `${ctx.subject} has not left ${origin.name} ${late} after the planned departure at ${ctx.timeAt(leave, origin)} (last position ${ctx.timeAt(latest.at, latest)}).`,
      {
        originName: origin.name,
        plannedDeparture: iso(leave),
        minutesLate: wholeMinutes(lateMs),
        lastPositionAt: iso(latest.at),
        latitude: latest.latitude,
        longitude: latest.longitude,
      },
    );
  },
  fingerprint: (m) => band(num(m, 'minutesLate'), 60),
  cleared(ctx) {
    const origin = originOf(ctx);
    if (origin !== null && ctx.positions.some((p) => haversineMiles(p, origin) > PLANNED_PLACE_RADIUS_MILES)) return `The vehicle has left ${origin.name}`;
    return 'The departure is no longer overdue';
  },
};

export const SCHEDULING_RULES: AlertRule[] = [lateToAppointment, appointmentAtRisk, dockDelay, departureDelayed];
