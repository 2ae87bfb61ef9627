/**
 * Replaying a duty-status timeline: the clocks at a time, the violations with their times, the next
 * rest the driver needs and an account of which rule limits and from which calculation point.
 */
import { canPair, type Hyp } from './chain.js';
import { advance, freshState, windowLimit, type HosState } from './engine.js';
import { HosError } from './errors.js';
import { limitsOf } from './rules.js';
import { availabilityOf, clocksFrom, read, violationsFrom } from './select.js';
import { HOUR_MS, type DutyPeriod, type HosEvaluation, type LimitKind, type NextRest, type RuleSet, type RuleSetOptions, type Violation } from './types.js';
import { bindsAfter, clockAt, hm, neededAfter, offsetZone } from '../words.js';

/** Timestamps in developer errors (a malformed timeline) stay ISO: they quote the input. */
const iso = (ms: number) => new Date(Math.round(ms)).toISOString();
/** Durations for people: h:mm ("1:37"), "no limit" for none. */
const dur = (n: number) => (n === Infinity ? 'no limit' : hm(n));
/** A time for people on the home terminal's clock (the rule set's day offset), with the zone. */
const when = (s: HosState, ms: number) => clockAt(Math.round(ms), offsetZone(s.lim.dayOffsetMinutes));

/** The limits in words, as the explanations name them. */
export const LIMIT_WORDS: Record<LimitKind, string> = {
  DRIVE: 'driving limit',
  WINDOW: 'duty window',
  BREAK: '30-minute break rule',
  CYCLE: 'cycle limit',
  DAILY_DRIVE: 'daily driving limit',
  DAILY_ON_DUTY: 'daily on-duty limit',
};

const OPTION_WORDS: Record<keyof RuleSetOptions, ((v: unknown) => string | null) | null> = {
  adverseDrivingConditions: () => 'adverse driving conditions',
  shortHaul16Hour: () => '16-hour short-haul exception',
  shortHaul150AirMile: () => '150 air-mile short-haul exception',
  homeTerminalUtcOffsetMinutes: null, // the times are written in the home terminal's zone
  teamDriving: () => 'team driving',
};

/** Sorted, contiguous, finite, non-negative periods; throws INVALID_TIMELINE naming the first bad one. */
export function validateTimeline(timeline: readonly DutyPeriod[]): void {
  for (let i = 0; i < timeline.length; i++) {
    const p = timeline[i]!;
    if (!Number.isFinite(p.start) || !Number.isFinite(p.end)) {
      throw new HosError('INVALID_TIMELINE', `timeline[${i}] has a non-finite start or end`, `timeline[${i}]`);
    }
    if (p.end < p.start) throw new HosError('INVALID_TIMELINE', `timeline[${i}] ends before it starts`, `timeline[${i}].end`);
    if (i > 0 && p.start !== timeline[i - 1]!.end) {
      throw new HosError(
        'INVALID_TIMELINE',
        `timeline[${i}] starts at ${iso(p.start)} but timeline[${i - 1}] ends at ${iso(timeline[i - 1]!.end)}: periods must be sorted and contiguous`,
        `timeline[${i}].start`,
      );
    }
  }
}

/**
 * The state at `at` after the timeline (default: its end). History before the first period is taken
 * as a restart (a fresh driver); the last period's status continues until `at`; periods after `at`
 * are ignored.
 */
export function replay(timeline: readonly DutyPeriod[], rules: RuleSet, at?: number): HosState {
  validateTimeline(timeline);
  const end = at ?? timeline[timeline.length - 1]?.end;
  if (end === undefined) throw new HosError('INVALID_ARGUMENT', 'an empty timeline needs an evaluation time', 'at');
  // Before the first period nothing is known: a fresh driver.
  let s = freshState(rules, Math.min(timeline[0]?.start ?? end, end));
  for (const p of timeline) {
    if (p.start >= end) break;
    const stop = Math.min(p.end, end);
    s = advance(s, p.status, (stop - s.at) / HOUR_MS);
  }
  const last = timeline[timeline.length - 1];
  if (last && s.at < end) s = advance(s, last.status, (end - s.at) / HOUR_MS);
  return s;
}

/**
 * The clocks, violations and next rest at a state; the explanation is written when it is first read (most
 * readers — a list of drivers, a plan's start — never read it, and writing its times in words costs more
 * than the rest of the evaluation).
 */
export function evaluateState(s: HosState): HosEvaluation {
  let explanation: string[] | undefined;
  return {
    clocks: clocksFrom(s),
    violations: violationsFrom(s),
    nextRest: nextRestOf(s),
    get explanation() {
      return (explanation ??= explain(s));
    },
  };
}

export function evaluate(timeline: readonly DutyPeriod[], rules: RuleSet, at: number): HosEvaluation {
  return evaluateState(replay(timeline, rules, at));
}

/** The independent auditor: every violation in the timeline, decided with the whole timeline in view. */
export function audit(timeline: readonly DutyPeriod[], rules: RuleSet): Violation[] {
  if (timeline.length === 0) return [];
  return violationsFrom(replay(timeline, rules));
}

/** After a split pair with `open` as its first period, the driving the duty-period limits would allow. */
function splitRoom(s: HosState, open: Hyp['open']): number {
  if (open === null) return 0;
  const lim = s.lim;
  const h = read(s).hyp;
  const drive = s.cumDrive - open.cumDrive;
  const onDuty = s.cumOnDuty - open.cumOnDuty;
  const window = (s.at - open.splitEnd) / HOUR_MS;
  return Math.min(lim.driveHours - drive, windowLimit(lim, s, h, s.at) - window, lim.periodOnDutyHours - onDuty);
}

function nextRestOf(s: HosState): NextRest {
  const lim = s.lim;
  const a = availabilityOf(s);
  const h = read(s).hyp;
  const after = a.driveHours;
  const elapsedLeft = lim.windowHours === Infinity ? after : Math.max(0, windowLimit(lim, s, h, s.at) - h.window);
  const within = Math.max(after, elapsedLeft);
  const base = { requiredAfterDrivingHours: after, requiredWithinHours: within, limitedBy: a.limitedBy };
  if (a.limitedBy === 'BREAK') {
    return { ...base, kind: 'BREAK', durationHours: lim.breakHours, explanation: `${lim.rules.break}: a 30-minute non-driving period is needed ${neededAfter(after)}.` };
  }
  if (a.limitedBy === 'CYCLE') {
    const recap = clocksFrom(s).cycleHoursRecapturedTomorrow;
    return {
      ...base,
      kind: 'RESTART',
      durationHours: lim.restartOffHours,
      explanation: `The cycle limit ${bindsAfter(after)}: ${lim.rules.restart} resets it (or wait for the daily recap: ${dur(recap)} come back at the next midnight).`,
    };
  }
  const split = lim.split;
  const open = h.open;
  if (split && open && !read(s).resetNow) {
    const need = Math.max(split.shortMinHours, split.totalMinHours - open.splitHours, open.long ? 0 : split.longMinSleeperHours);
    const room = splitRoom(s, open);
    if (need < lim.resetOffHours && room > after + 0.5 && canPair(split, open)) {
      const where = split.bothInSleeper || !open.long ? 'in the sleeper berth' : 'off duty or in the sleeper berth';
      return {
        ...base,
        kind: 'SLEEPER_SPLIT',
        durationHours: need,
        explanation: `${split.rule}: ${dur(need)} ${where} pairs with the ${dur(open.hours)} rest that ended ${when(s, open.end)}; the clocks then count from that rest's end, leaving ${dur(room)} of driving.`,
      };
    }
  }
  return {
    ...base,
    kind: 'FULL_REST',
    durationHours: lim.resetOffHours,
    explanation: `The ${LIMIT_WORDS[a.limitedBy]} ${bindsAfter(after)}: ${lim.rules.reset} restores the duty period.`,
  };
}

function anchorLine(s: HosState, h: Hyp): string {
  const a = h.anchor;
  switch (a.kind) {
    case 'START':
      return `Counted from ${when(s, h.anchorEnd)}: the start of the record (taken as fresh after a restart).`;
    case 'RESET':
      return `Counted from ${when(s, h.anchorEnd)}: the end of ${dur(a.rest.hours)} off duty from ${when(s, a.rest.start)} (${s.lim.rules.reset}).`;
    case 'SPLIT':
      return (
        `Counted from ${when(s, h.anchorEnd)}: the end of the first split period (${dur(a.first.hours)} from ${when(s, a.first.start)}), ` +
        `paired with ${dur(a.second.hours)} from ${when(s, a.second.start)} (${s.lim.split?.rule ?? ''}); both periods are excluded from the window.`
      );
  }
}

function explain(s: HosState): string[] {
  const lim = s.lim;
  const r = read(s);
  const h = r.hyp;
  const c = clocksFrom(s);
  const a = availabilityOf(s);
  const opts = Object.entries(s.rules.options ?? {})
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => OPTION_WORDS[k as keyof RuleSetOptions]?.(v) ?? null)
    .filter((w): w is string => w !== null);
  const lines = [
    `Rule set: ${lim.label}${opts.length ? ` (${opts.join(', ')})` : ''}; as of ${when(s, s.at)}.`,
    r.resetNow ? `Off duty ${dur(s.restHours)} so far: a full reset; the next duty period starts when the driver comes on duty.` : anchorLine(s, h),
    `Driving ${dur(c.hoursDriven)} of ${dur(lim.driveHours)} (${lim.rules.drive}).`,
  ];
  if (lim.windowHours !== Infinity) lines.push(`Duty window ${dur(h.window)} of ${dur(windowLimit(lim, s, h, s.at))} (${lim.rules.window}).`);
  if (lim.periodOnDutyHours !== Infinity) lines.push(`On duty ${dur(h.onDuty)} of ${dur(lim.periodOnDutyHours)} (${lim.rules.periodOnDuty}).`);
  if (lim.breakAfterDrivingHours !== Infinity) lines.push(`Driving since the last 30-minute break: ${dur(c.hoursSinceBreak)} of ${dur(lim.breakAfterDrivingHours)} (${lim.rules.break}).`);
  lines.push(
    `Cycle ${dur(c.cycleHoursUsed)} of ${dur(lim.cycleHours)} (${lim.rules.cycle}); ${dur(c.cycleHoursRecapturedTomorrow)} come back at the next midnight${c.lastRestartAt !== null ? `; last restart ${when(s, c.lastRestartAt)}` : ''}.`,
  );
  if (h.open && !h.openFree) {
    lines.push(`Split period pending: ${dur(h.open.hours)} from ${when(s, h.open.start)} awaits its partner (${lim.split?.rule ?? ''}).`);
  }
  lines.push(`The ${LIMIT_WORDS[a.limitedBy]} binds first: ${dur(a.driveHours)} of driving possible now.`);
  if (r.hyps.length > 1) lines.push(`${r.hyps.length} ways of pairing split-sleeper periods considered; the one with the fewest violations, then the most available time, applies (FMCSA 2020 HOS FAQ Q4).`);
  return lines;
}
