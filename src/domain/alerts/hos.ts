/**
 * HOS rules: the four "approaching a limit" alerts and HOS_VIOLATION, from the driver's clocks.
 *
 * Clocks come with the time they were read (`clocks.at`); ELD clocks can be a sync interval old, so they
 * are aged to `now` by the status they were read in: driving spends drive, break, window and cycle time;
 * on-duty work spends window and cycle time. Off-duty and sleeper time is not aged (a sleeper period may be
 * excluded from the window, and a resting driver needs no warning to rest).
 */
import { HOUR_MS, type HosClocks, type Violation } from '../hos/types.js';
import { band, condition, num, type AlertRule, type Metadata } from './rule.js';
import { hoursText, iso, round2, wholeMinutes } from './text.js';
import { hm } from '../words.js';
import type { AlertPriority, MonitoringSnapshot, RouteAlertType } from './types.js';

type Hos = NonNullable<MonitoringSnapshot['hos']>;

/** The clocks as they stand at `now`. */
export function clocksAt(clocks: HosClocks, now: number): HosClocks {
  const elapsed = Math.max(0, now - clocks.at) / HOUR_MS;
  const driving = clocks.dutyStatus === 'ON_DUTY_DRIVING' ? elapsed : 0;
  const onDuty = clocks.dutyStatus === 'ON_DUTY_DRIVING' || clocks.dutyStatus === 'ON_DUTY_NOT_DRIVING' ? elapsed : 0;
  const spend = (remaining: number, hours: number) => Math.max(0, remaining - hours);
  return {
    ...clocks,
    hoursDriven: clocks.hoursDriven + driving,
    onDutyHours: clocks.onDutyHours + onDuty,
    hoursSinceBreak: clocks.hoursSinceBreak + driving,
    cycleHoursUsed: clocks.cycleHoursUsed + onDuty,
    driveRemaining: spend(clocks.driveRemaining, driving),
    windowRemaining: spend(clocks.windowRemaining, onDuty),
    breakRemaining: spend(clocks.breakRemaining, driving),
    cycleRemaining: spend(clocks.cycleRemaining, onDuty),
    at: Math.max(clocks.at, now),
  };
}

interface ApproachingSpec {
  type: RouteAlertType;
  limit: 'DRIVE' | 'WINDOW' | 'CYCLE' | 'BREAK';
  remaining: (c: HosClocks) => number;
  /** What the remaining time is of, for texts: "driving time", "on-duty window time" … */
  noun: string;
  restNeeded: 'BREAK' | 'FULL_REST' | 'RESTART';
  title: (left: string, reached: boolean) => string;
  message: (subject: string, left: string, c: HosClocks, reached: boolean, by: string) => string;
  /** The spec's own metadata names for this limit. */
  facts: (c: HosClocks, remaining: number) => Metadata;
}

/**
 * Holds when the remaining time is within the approaching threshold, or under the warning threshold (so a
 * warning threshold above the approaching one still warns). HIGH under the warning threshold or at zero.
 */
function approachingRule(spec: ApproachingSpec): AlertRule {
  return {
    type: spec.type,
    evaluate(ctx) {
      const hos = ctx.snapshot.hos;
      if (hos === null) return null;
      const clocks = clocksAt(hos.clocks, ctx.now);
      const remaining = spec.remaining(clocks);
      if (!Number.isFinite(remaining)) return null; // no such limit in the rule set (breaks)
      const warningHours = ctx.monitoring.hosWarningThresholdMinutes / 60;
      const horizon = Math.max(ctx.alerts.hosApproachingThresholdHours, warningHours);
      if (remaining > horizon) return null;
      const reached = remaining <= 0;
      // Reached and still driving is a violation as it happens (spec: CRITICAL, an active HOS violation);
      // reached at rest, or nearly reached, is HIGH (under 15 minutes); further off, MEDIUM.
      const drivingOn = reached && clocks.dutyStatus === 'ON_DUTY_DRIVING';
      const priority: AlertPriority = drivingOn ? 'CRITICAL' : reached || remaining < warningHours ? 'HIGH' : 'MEDIUM';
      const left = hoursText(remaining);
      // Whose clocks these are, in words, and how far the log is from them when it disagrees (hosNow).
      const by = hos.sourceName ? (hos.source === 'MANUAL' ? 'by the duty-status log' : `by ${hos.sourceName}'s clocks`) : '';
      const message = spec.message(ctx.subject, left, clocks, reached, by) + (hos.disagreement ? ` ${hos.disagreement}` : '');
      return condition(spec.type, priority, spec.title(left, reached), message, {
        limit: spec.limit,
        ...spec.facts(clocks, remaining),
        minutesRemaining: wholeMinutes(remaining * HOUR_MS),
        limitReached: reached,
        recommendedAction: 'PLAN_REST_STOP',
        restNeeded: spec.restNeeded,
        thresholdHours: ctx.alerts.hosApproachingThresholdHours,
        warningThresholdMinutes: ctx.monitoring.hosWarningThresholdMinutes,
        dutyStatus: clocks.dutyStatus,
        clocksAt: iso(hos.clocks.at),
        hosSource: hos.source,
        ...(hos.disagreement ? { hosDisagreement: hos.disagreement } : {}),
      });
    },
    fingerprint: (m) => `${band(num(m, 'minutesRemaining'), 15)}:${String(m['limitReached'])}`,
    cleared(ctx) {
      const hos = ctx.snapshot.hos;
      if (hos === null) return `HOS clocks for ${ctx.subject} are no longer available`;
      const remaining = spec.remaining(clocksAt(hos.clocks, ctx.now));
      if (!Number.isFinite(remaining)) return `The driver's rule set requires no 30-minute break`;
      return `${capitalize(spec.noun)}: ${hoursText(remaining)} left again, above the ${hoursText(ctx.alerts.hosApproachingThresholdHours)} alert threshold`;
    },
  };
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export const hosApproachingDriveLimit = approachingRule({
  type: 'HOS_APPROACHING_DRIVE_LIMIT',
  limit: 'DRIVE',
  remaining: (c) => c.driveRemaining,
  noun: 'driving time',
  restNeeded: 'FULL_REST',
  title: (left, reached) => (reached ? 'Drive limit reached' : `Approaching drive limit: ${left} of driving left`),
  message: (who, left, c, reached, by) =>
    reached
      ? `${who} has no driving time left (${hm(c.hoursDriven)} driven${by ? `, ${by}` : ''}); a 10-hour rest is required before driving on.`
      : `${who} has ${left} of driving left before the driving limit (${hm(c.hoursDriven)} driven${by ? `, ${by}` : ''}). Plan a rest stop.`,
  facts: (c, remaining) => ({ currentHoursDriven: round2(c.hoursDriven), driveTimeRemaining: round2(remaining) }),
});

export const hosApproachingDutyLimit = approachingRule({
  type: 'HOS_APPROACHING_DUTY_LIMIT',
  limit: 'WINDOW',
  remaining: (c) => c.windowRemaining,
  noun: 'on-duty window time',
  restNeeded: 'FULL_REST',
  title: (left, reached) => (reached ? 'On-duty window ended' : `Approaching on-duty window limit: ${left} left`),
  message: (who, left, c, reached, by) =>
    reached
      ? `${who}'s on-duty window has ended (${hm(c.onDutyHours)} into it${by ? `, ${by}` : ''}); no more driving before a 10-hour rest.`
      : `${who} has ${left} left in the on-duty window (${hm(c.onDutyHours)} into it${by ? `, ${by}` : ''}). Plan a rest stop.`,
  facts: (c, remaining) => ({ currentOnDutyHours: round2(c.onDutyHours), dutyTimeRemaining: round2(remaining) }),
});

export const hosApproachingCycleLimit = approachingRule({
  type: 'HOS_APPROACHING_CYCLE_LIMIT',
  limit: 'CYCLE',
  remaining: (c) => c.cycleRemaining,
  noun: 'cycle time',
  restNeeded: 'RESTART',
  title: (left, reached) => (reached ? 'Cycle limit reached' : `Approaching cycle limit: ${left} left`),
  message: (who, left, c, reached, by) =>
    reached
      ? `${who} has used the whole cycle (${hm(c.cycleHoursUsed)}${by ? `, ${by}` : ''}); no more driving until hours are recaptured or a 34-hour restart.`
      : `${who} has ${left} of on-duty time left in the cycle (${hm(c.cycleHoursUsed)} used${by ? `, ${by}` : ''}; ${hm(c.cycleHoursRecapturedTomorrow)} come back tomorrow). Plan a rest stop or a restart.`,
  facts: (c, remaining) => ({
    cycleHoursUsed: round2(c.cycleHoursUsed),
    cycleTimeRemaining: round2(remaining),
    cycleHoursRecapturedTomorrow: round2(c.cycleHoursRecapturedTomorrow),
  }),
});

export const hosBreakRequired = approachingRule({
  type: 'HOS_BREAK_REQUIRED',
  limit: 'BREAK',
  remaining: (c) => c.breakRemaining,
  noun: 'driving time before the 30-minute break',
  restNeeded: 'BREAK',
  title: (left, reached) => (reached ? '30-minute break required now' : `30-minute break due in ${left}`),
  message: (who, left, c, reached, by) =>
    reached
      ? `${who} must take a 30-minute break before driving on (${hm(c.hoursSinceBreak)} driven since the last one${by ? `, ${by}` : ''}).`
      : `${who} must take a 30-minute break within ${left} of driving (${hm(c.hoursSinceBreak)} driven since the last one${by ? `, ${by}` : ''}).`,
  facts: (c, remaining) => ({
    hoursSinceBreak: round2(c.hoursSinceBreak),
    breakTimeRemaining: round2(remaining),
    breakRequired: remaining <= 0,
  }),
});

/**
 * Violations the driver is still in: those of the current duty period (from `periodStart`; from the
 * route's activation when the clocks do not say). A violation is an event; once the driver has taken a
 * reset after it, it is a matter for the log audit, not a CRITICAL dispatch alert for the rest of the trip.
 */
export function currentViolations(hos: Hos, activatedAt: number): Violation[] {
  const since = hos.clocks.periodStart ?? activatedAt;
  return hos.violations.filter((v) => v.at >= since).sort((a, b) => a.at - b.at);
}

const VIOLATION_TEXT: Record<Violation['kind'], string> = {
  DRIVE: 'driving limit exceeded',
  WINDOW: 'driving after the on-duty window',
  BREAK: 'driving without the required 30-minute break',
  CYCLE: 'driving past the cycle limit',
  DAILY_DRIVE: 'daily driving limit exceeded',
  DAILY_ON_DUTY: 'daily on-duty limit exceeded',
};

export const hosViolation: AlertRule = {
  type: 'HOS_VIOLATION',
  evaluate(ctx) {
    const hos = ctx.snapshot.hos;
    if (hos === null) return null;
    const violations = currentViolations(hos, ctx.snapshot.route.activatedAt);
    const latest = violations[violations.length - 1];
    if (latest === undefined) return null;
    const title =
      violations.length === 1 ? `HOS violation: ${VIOLATION_TEXT[latest.kind]}` : `${violations.length} HOS violations, latest: ${VIOLATION_TEXT[latest.kind]}`;
    const message = `${ctx.subject}: ${latest.rule}. ${latest.explanation}`;
    return condition('HOS_VIOLATION', 'CRITICAL', title, message, {
      violations: violations.map((v) => ({ kind: v.kind, rule: v.rule, at: iso(v.at), overHours: round2(v.overHours), explanation: v.explanation })),
      violationCount: violations.length,
      latestViolationAt: iso(latest.at),
      dutyStatus: hos.clocks.dutyStatus,
      hosSource: hos.source,
    });
  },
  // A new violation is material; one that keeps growing (overHours) is not.
  fingerprint: (m) => {
    const list = Array.isArray(m['violations']) ? (m['violations'] as Metadata[]) : [];
    return list.map((v) => `${String(v['kind'])}@${String(v['at'])}`).sort().join(',');
  },
  cleared(ctx) {
    const hos = ctx.snapshot.hos;
    if (hos === null) return `HOS data for ${ctx.subject} is no longer available`;
    const start = hos.clocks.periodStart;
    return start === null
      ? 'No HOS violation since the route was activated'
      : `No HOS violation in the current duty period (since ${ctx.timeAt(start)}): the driver has taken a reset`;
  },
};

export const HOS_RULES: AlertRule[] = [hosApproachingDriveLimit, hosApproachingDutyLimit, hosApproachingCycleLimit, hosBreakRequired, hosViolation];
