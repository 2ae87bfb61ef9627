/**
 * Violation records. An episode starts when the driver first drives past a limit and grows while the
 * driver keeps driving past it, until the limit resets (a new duty period, a break, a new day, a
 * restart). The public Violation's explanation is composed when it is read, so growing an episode
 * only changes a number.
 */
import { HOUR_MS, type LimitKind, type Violation } from './types.js';
import { clockAt, dayAt, hm, offsetZone } from '../words.js';

/** Below this many hours nothing counts as driving past a limit (float noise of ms/hour conversions). */
export const EPS = 1e-7;

export interface VRec {
  readonly kind: LimitKind;
  /** Which counter the episode belongs to (several limits share a LimitKind). */
  readonly bit: number;
  readonly at: number;
  readonly over: number;
  readonly limit: number;
  readonly rule: string;
  /** What the counter measures, for the explanation ("driving", "on-duty time in the last 8 days"). */
  readonly what: string;
  /** The time the counter runs from ("driving since …": the calculation point), if it says one. */
  readonly since?: number;
  /** The calendar day the counter covers (its start), for the daily limits ("driving on …"). */
  readonly day?: number;
}

/** FMCSA's pairing guidance ranks violations: nominal (< 15 min), violations, out-of-service (> 3 h). */
export type Cost = readonly [oos: number, regular: number, nominal: number];

export const ZERO_COST: Cost = [0, 0, 0];

export function costOf(list: readonly VRec[]): Cost {
  if (list.length === 0) return ZERO_COST;
  let oos = 0;
  let reg = 0;
  let nom = 0;
  for (const v of list) {
    if (v.over > 3) oos++;
    else if (v.over < 0.25) nom++;
    else reg++;
  }
  return [oos, reg, nom];
}

export function compareCost(a: Cost, b: Cost): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Adds `over` hours of driving past a limit, starting at `at`, to the list: a new record when the
 * episode flag `bit` is clear, else the open episode grows. Returns the new list (or the same one).
 */
export function addOver(
  list: readonly VRec[],
  flags: number,
  bit: number,
  kind: LimitKind,
  at: number,
  over: number,
  limit: number,
  rule: string,
  what: string,
  ref: { since?: number; day?: number } = {},
): readonly VRec[] {
  if (flags & bit) {
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i]!;
      if (r.bit === bit) {
        const copy = list.slice();
        copy[i] = { ...r, over: r.over + over };
        return copy;
      }
    }
  }
  return [...list, { kind, bit, at, over, limit, rule, what, ...ref }];
}

/** A violation in words: durations h:mm, the time on the home terminal's clock (`dayOffsetMinutes` east of UTC). */
export function toViolation(r: VRec, dayOffsetMinutes = 0): Violation {
  const severity = r.over > 3 ? 'out-of-service level (more than 3 hours)' : r.over < 0.25 ? 'nominal (under 15 minutes)' : 'a violation';
  const zone = offsetZone(dayOffsetMinutes);
  const at = clockAt(Math.round(r.at), zone);
  const what = `${r.what}${r.day !== undefined ? ` on ${dayAt(r.day, zone)}` : ''}${r.since !== undefined ? ` since ${clockAt(Math.round(r.since), zone)}` : ''}`;
  const explanation =
    r.kind === 'CYCLE' && r.bit === CYCLE_LONG_OFF_BIT
      ? `Drove ${hm(r.over)} after ${at} without the required ${what}; ${severity}.`
      : `Drove ${hm(r.over)} past the ${+r.limit.toFixed(2)}-hour limit on ${what}, first exceeded ${at}; ${severity}.`;
  return { kind: r.kind, at: r.at, overHours: r.over, rule: r.rule, explanation };
}

/** The bit of Canada's 24-hours-off-in-14-days rule (its record's `limit` is not an hour count). */
export const CYCLE_LONG_OFF_BIT = 1 << 10;

export const byTime = (a: VRec, b: VRec): number => a.at - b.at || a.bit - b.bit;

export const hoursBetween = (from: number, to: number): number => (to - from) / HOUR_MS;
