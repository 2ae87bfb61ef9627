/** Route adherence rules: ROUTE_DEVIATION, UNPLANNED_STOP, MISSED_REST_STOP. */
import { nearestPlace, type RuleContext } from './context.js';
import { stationarySpans } from './motion.js';
import { locateOnPath, plannedMilesAt } from './planned-path.js';
import { band, condition, num, type AlertRule } from './rule.js';
import { atPlace, hoursText, iso, milesText, MINUTE_MS, minutesText, round1, wholeMinutes } from './text.js';
import type { PositionReport } from './types.js';
import type { Segment } from '../planning/types.js';

/** Beyond this many times the threshold a deviation is HIGH (spec: MEDIUM = moderate deviation). */
export const HIGH_DEVIATION_FACTOR = 3;
/** A stationary vehicle this close to a planned stop, rest, fuel, wait or dock location is where it should be. */
export const PLANNED_PLACE_RADIUS_MILES = 1;
/** How late a planned rest may start before it counts as missed. */
export const MISSED_REST_GRACE_MINUTES = 30;
/** Without HOS clocks, a stationary stretch this long (or the planned rest's length, if shorter) counts as rest. */
export const REST_EVIDENCE_MAX_MINUTES = 120;
/** Without HOS clocks, standing this long counts as resting now. */
export const RESTING_NOW_MINUTES = 30;

const distanceToPath = (ctx: RuleContext, p: PositionReport): number =>
  locateOnPath(ctx.path, p, plannedMilesAt(ctx.path, p.at))?.distanceMiles ?? Infinity;

/**
 * When the vehicle came back within the threshold: the first position of the trailing run of positions
 * within it (the first position of the history when all are). Null when the latest is outside.
 */
export function backOnRouteSince(ctx: RuleContext, thresholdMiles: number): number | null {
  let since: number | null = null;
  for (let i = ctx.positions.length - 1; i >= 0; i--) {
    const p = ctx.positions[i]!;
    if (distanceToPath(ctx, p) > thresholdMiles) break;
    since = p.at;
  }
  return since;
}

/**
 * Off route: the latest position farther than the threshold from the planned path. Hysteresis: an open
 * deviation holds until the positions show the vehicle back within the threshold for
 * `autoResolveDeviationAfterMinutes` (judged up to the latest position, so silence never clears it).
 */
export const routeDeviation: AlertRule = {
  type: 'ROUTE_DEVIATION',
  evaluate(ctx) {
    const open = ctx.openOf('ROUTE_DEVIATION');
    const { latest, location } = ctx;
    if (latest === null || location === null) {
      // Nothing new to judge by: an open deviation stays as it is.
      return open ? condition('ROUTE_DEVIATION', open.priority, 'Off route: position unknown', `${ctx.subject}'s position is unknown; the route deviation stays open.`, open.metadata) : null;
    }
    const threshold = ctx.alerts.routeDeviationThresholdMiles;
    const autoResolveMinutes = ctx.monitoring.autoResolveDeviationAfterMinutes;
    const distance = location.distanceMiles;
    const facts = {
      distanceMiles: round1(distance),
      thresholdMiles: threshold,
      latitude: latest.latitude,
      longitude: latest.longitude,
      positionAt: iso(latest.at),
      milesAlongRoute: round1(location.milesAlong),
      autoResolveAfterMinutes: autoResolveMinutes,
    };
    if (distance > threshold) {
      const priority = distance > HIGH_DEVIATION_FACTOR * threshold ? 'HIGH' : 'MEDIUM';
      return condition(
        'ROUTE_DEVIATION',
        priority,
        `Off route: ${milesText(distance)} from the planned path`,
        `${ctx.subject} is ${milesText(distance)} from the planned route (alert threshold ${milesText(threshold)}) ${ctx.where(latest)}, ${ctx.timeAt(latest.at, latest)}.`,
        { ...facts, offRoute: true, backOnRouteSince: null },
      );
    }
    if (open === undefined) return null;
    const since = backOnRouteSince(ctx, threshold) ?? latest.at;
    if (latest.at - since >= autoResolveMinutes * MINUTE_MS) return null;
    return condition(
      'ROUTE_DEVIATION',
      'MEDIUM',
      'Back on route, confirming',
      `${ctx.subject} has been back within ${milesText(threshold)} of the planned route since ${ctx.timeAt(since)}; the alert clears after ${minutesText(autoResolveMinutes)} back on route.`,
      { ...facts, offRoute: false, backOnRouteSince: iso(since) },
    );
  },
  // Off route in doubling bands of the threshold (1-2×, 2-4×, 4-8× …), or back on route.
  fingerprint: (m) =>
    m['offRoute'] === false ? 'back' : `off:${band(Math.log2(num(m, 'distanceMiles') / num(m, 'thresholdMiles')), 1)}`,
  cleared(ctx) {
    const threshold = ctx.alerts.routeDeviationThresholdMiles;
    const since = backOnRouteSince(ctx, threshold);
    if (since === null || ctx.latest === null) return 'The vehicle is back on the planned route';
    return `Vehicle back within ${milesText(threshold)} of the planned route since ${ctx.timeAt(since)} (${minutesText((ctx.latest.at - since) / MINUTE_MS)})`;
  },
};

/** Stationary for the threshold, away from every planned place. */
export const unplannedStop: AlertRule = {
  type: 'UNPLANNED_STOP',
  evaluate(ctx) {
    const span = ctx.stationary;
    if (span === null || span.minutes < ctx.alerts.unplannedStopThresholdMinutes) return null;
    const near = nearestPlace(ctx.places, span.anchor);
    if (near !== null && near.miles <= PLANNED_PLACE_RADIUS_MILES) return null;
    const stopped = `${span.startsHistory ? 'at least ' : ''}${minutesText(span.minutes)}`;
    const nearest = near ? `, ${milesText(near.miles)} from the nearest planned stop (${near.place.name})` : '';
    return condition(
      'UNPLANNED_STOP',
      'MEDIUM',
      `Unplanned stop: stopped for ${minutesText(span.minutes)}`,
      `${ctx.subject} has been stopped for ${stopped} ${ctx.where(span.anchor)}${nearest}.`,
      {
        stoppedSince: iso(span.since),
        stoppedMinutes: wholeMinutes(span.until - span.since),
        atLeast: span.startsHistory,
        latitude: span.anchor.latitude,
        longitude: span.anchor.longitude,
        lastPositionAt: iso(span.until),
        nearestPlannedPlace: near?.place.name ?? null,
        nearestPlannedPlaceMiles: near ? round1(near.miles) : null,
        thresholdMinutes: ctx.alerts.unplannedStopThresholdMinutes,
      },
    );
  },
  // A stop that goes on is news every hour, not every minute.
  fingerprint: (m) => band(num(m, 'stoppedMinutes'), 60),
  cleared(ctx) {
    const span = ctx.stationary;
    if (span === null) return ctx.latest === null ? 'No current position' : 'The vehicle is moving again';
    const near = nearestPlace(ctx.places, span.anchor);
    if (near !== null && near.miles <= PLANNED_PLACE_RADIUS_MILES) return `The vehicle is at a planned location (${near.place.name})`;
    return `Stopped ${minutesText(span.minutes)}, under the ${minutesText(ctx.alerts.unplannedStopThresholdMinutes)} threshold`;
  },
};

type RestSegment = Extract<Segment, { type: 'rest' }>;

/** The plan's rests that reset clocks (breaks are watched by HOS_BREAK_REQUIRED, on the clocks themselves). */
function plannedRests(ctx: RuleContext): RestSegment[] {
  return ctx.snapshot.route.segments
    .filter((s): s is RestSegment => s.type === 'rest' && s.rest_type !== 'break')
    .sort((a, b) => a.sequence - b.sequence);
}

/**
 * The last planned rest that is due: its start, shifted by how far behind plan the vehicle is (a late
 * vehicle reaches the rest point later), plus the grace period, has passed.
 */
function dueRest(ctx: RuleContext): RestSegment | null {
  const grace = MISSED_REST_GRACE_MINUTES * MINUTE_MS;
  const due = plannedRests(ctx).filter((r) => Date.parse(r.start_time) + ctx.delayMs + grace <= ctx.now);
  return due[due.length - 1] ?? null;
}

/**
 * Rested since `since`: the duty period was recalculated after it (a reset or split rest ended), or,
 * without clocks, the positions show a standing stretch as long as the rest (at most 2 h of it, since the
 * history is only a few hours) after it.
 */
export function restedSince(ctx: RuleContext, since: number, restHours: number): boolean {
  const hos = ctx.snapshot.hos;
  if (hos !== null) return (hos.clocks.periodStart ?? -Infinity) >= since;
  const needed = Math.min(restHours * 60, REST_EVIDENCE_MAX_MINUTES);
  return stationarySpans(ctx.positions).some((s) => s.until >= since && (s.until - Math.max(s.since, since)) / MINUTE_MS >= needed);
}

const drivingNow = (ctx: RuleContext): boolean => ctx.snapshot.hos?.clocks.dutyStatus === 'ON_DUTY_DRIVING' || ctx.moving;

function restingNow(ctx: RuleContext): boolean {
  if (drivingNow(ctx)) return false;
  const hos = ctx.snapshot.hos;
  if (hos !== null) return hos.clocks.dutyStatus === 'OFF_DUTY' || hos.clocks.dutyStatus === 'SLEEPER_BERTH';
  return (ctx.stationary?.minutes ?? 0) >= RESTING_NOW_MINUTES;
}

const REST_TYPE_TEXT: Record<RestSegment['rest_type'], string> = { full_rest: 'full rest', partial_rest: 'sleeper-berth rest', break: 'break' };

/**
 * A planned rest is overdue and the driver has not rested since it was due. Raised while the driver is
 * driving; once open it holds until the driver rests (a short stop for fuel does not clear it).
 */
export const missedRestStop: AlertRule = {
  type: 'MISSED_REST_STOP',
  evaluate(ctx) {
    const rest = dueRest(ctx);
    if (rest === null) return null;
    const start = Date.parse(rest.start_time);
    if (restedSince(ctx, start, rest.duration_hours)) return null;
    const driving = drivingNow(ctx);
    if (!driving && (ctx.openOf('MISSED_REST_STOP') === undefined || restingNow(ctx))) return null;
    const dueAt = start + ctx.delayMs;
    const overdueMinutes = (ctx.now - dueAt) / MINUTE_MS;
    const shifted = ctx.delayMs > 0 ? `; planned ${ctx.timeAt(start, rest)}, shifted by the ${minutesText(ctx.delayMs / MINUTE_MS)} delay` : '';
    return condition(
      'MISSED_REST_STOP',
      'HIGH',
      `Missed rest stop: ${rest.location}`,
      `${ctx.subject} is still ${driving ? 'driving' : 'on duty'} ${minutesText(overdueMinutes)} after the planned ${REST_TYPE_TEXT[rest.rest_type]} ${atPlace(rest.location)} (${hoursText(rest.duration_hours)}) was due (${ctx.timeAt(dueAt, rest)}${shifted}); no rest has been taken since.`,
      {
        restLocation: rest.location,
        restType: rest.rest_type,
        segmentSequence: rest.sequence,
        plannedStart: iso(start),
        plannedEnd: iso(Date.parse(rest.end_time)),
        durationHours: rest.duration_hours,
        dueAt: iso(dueAt),
        minutesOverdue: wholeMinutes(ctx.now - dueAt),
        delayMinutes: wholeMinutes(ctx.delayMs),
        latitude: rest.latitude,
        longitude: rest.longitude,
        dutyStatus: ctx.snapshot.hos?.clocks.dutyStatus ?? null,
      },
    );
  },
  fingerprint: (m) => String(m['segmentSequence']),
  cleared(ctx, alert) {
    const rest = dueRest(ctx);
    if (rest === null) return 'No planned rest is overdue';
    const start = Date.parse(rest.start_time);
    if (restedSince(ctx, start, rest.duration_hours)) return `The driver has rested since the planned rest at ${rest.location} was due`;
    if (restingNow(ctx)) return `The driver is resting now (${ctx.snapshot.hos?.clocks.dutyStatus ?? 'vehicle stationary'})`;
    return `The planned rest at ${String(alert.metadata['restLocation'] ?? rest.location)} is no longer overdue`;
  },
};

export const ROUTE_RULES: AlertRule[] = [routeDeviation, unplannedStop, missedRestStop];
