/** Manual clock snapshots: validation, the synthetic history, and auditing a plan made from one. */
import { describe, expect, it } from 'vitest';
import {
  advance,
  audit,
  availability,
  clocksOf,
  HosError,
  initialState,
  limitsOf,
  ruleSet,
  snapshotTimeline,
  validateSnapshot,
  violationsOf,
  type ClockSnapshot,
  type RuleSetId,
} from './index.js';
import { at, fold, T0 } from './test-support/timeline.js';
import { HOUR_MS } from './types.js';

const US = ruleSet();
const AT = at(24 * 3 + 14.25); // Thursday 14:15 UTC

describe('validateSnapshot', () => {
  const ok: ClockSnapshot = { hoursDriven: 6, onDutyHours: 9, hoursSinceBreak: 2, cycleHoursUsed: 50 };
  it.each<[string, Partial<ClockSnapshot>, RegExp, string]>([
    ['negative', { hoursDriven: -1 }, /hoursDriven must be a finite number of hours ≥ 0 \(got -1\)/, 'hoursDriven'],
    ['not a number', { cycleHoursUsed: Number.NaN }, /cycleHoursUsed must be a finite number/, 'cycleHoursUsed'],
    ['more driving than duty', { hoursDriven: 10 }, /hoursDriven \(10\) cannot exceed onDutyHours \(9\)/, 'hoursDriven'],
    ['break longer ago than the driving', { hoursSinceBreak: 7 }, /hoursSinceBreak \(7\) cannot exceed hoursDriven \(6\)/, 'hoursSinceBreak'],
    ['cycle smaller than the duty period', { cycleHoursUsed: 8 }, /cycleHoursUsed \(8\) cannot be less than onDutyHours \(9\)/, 'cycleHoursUsed'],
    ['no room for the break', { hoursDriven: 8.8 }, /a break of at least 30 minutes was taken in this duty period, but onDutyHours \(9\) leaves only 0\.2/, 'hoursSinceBreak'],
  ])('rejects %s', (_name, patch, message, field) => {
    const snapshot = { ...ok, ...patch };
    expect(() => validateSnapshot(snapshot, US)).toThrow(message);
    expect(() => snapshotTimeline(snapshot, AT, US)).toThrow(HosError);
    expect(() => initialState(US, AT, snapshot)).toThrow(message);
    try {
      validateSnapshot(snapshot, US);
    } catch (e) {
      expect(e).toMatchObject({ code: 'INVALID_SNAPSHOT', field, statusCode: 400 });
    }
  });

  it('rejects cycle hours that cannot fit in legal shifts within the cycle', () => {
    expect(() => snapshotTimeline({ hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 99 }, AT, ruleSet('US_PROPERTY_60_7'))).toThrow(
      /cycleHoursUsed \(99\) does not fit: at most 84\.00 h/,
    );
    expect(() => snapshotTimeline({ hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 84 }, AT, ruleSet('US_PROPERTY_60_7'))).not.toThrow();
  });
});

describe('snapshotTimeline', () => {
  it('lays out the duty period, the reset before it, earlier shifts and a restart', () => {
    const snapshot = { hoursDriven: 6, onDutyHours: 9, hoursSinceBreak: 2, cycleHoursUsed: 50 };
    const t = snapshotTimeline(snapshot, AT, US);
    const hours = (i: number) => (t.at(i)!.end - t.at(i)!.start) / HOUR_MS;
    expect(t[t.length - 1]).toMatchObject({ status: 'ON_DUTY_DRIVING', end: AT });
    expect(hours(-1)).toBe(2); // unbroken driving since the break
    expect(t.at(-2)).toMatchObject({ status: 'ON_DUTY_NOT_DRIVING' }); // the break (on duty: it counts for the cycle)
    expect(hours(-2)).toBeGreaterThanOrEqual(0.5);
    expect(t.at(-3)).toMatchObject({ status: 'ON_DUTY_DRIVING' });
    expect(hours(-3)).toBe(4);
    expect(t.at(-3)!.start).toBe(AT - 9 * HOUR_MS);
    expect(t.at(-4)).toMatchObject({ status: 'OFF_DUTY' });
    expect(hours(-4)).toBeGreaterThanOrEqual(10);
    expect(t[0]).toMatchObject({ status: 'OFF_DUTY' });
    expect(hours(0)).toBeGreaterThanOrEqual(34);
    for (const p of t.slice(1, -3)) if (p.status === 'ON_DUTY_NOT_DRIVING') expect((p.end - p.start) / HOUR_MS).toBeLessThanOrEqual(14);
    expect(clocksOf(fold(US, t))).toMatchObject(snapshot);
    expect(audit(t, US)).toEqual([]);
  });

  it('an all-zero snapshot is a driver after a restart', () => {
    const t = snapshotTimeline({ hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 }, AT, US);
    expect(t).toEqual([{ status: 'OFF_DUTY', start: AT - 34 * HOUR_MS, end: AT }]);
    expect(clocksOf(initialState(US, AT, { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 }))).toEqual(clocksOf(initialState(US, AT)));
  });

  it('Canada cycle 2: the history keeps a 24-hour rest within every 70 on-duty hours', () => {
    const C2 = ruleSet('CANADA_CYCLE_2');
    const snapshot = { hoursDriven: 5, onDutyHours: 6, hoursSinceBreak: 5, cycleHoursUsed: 110 };
    const s = initialState(C2, AT, snapshot);
    expect(clocksOf(s)).toMatchObject(snapshot);
    expect(violationsOf(s)).toEqual([]);
    expect(availability(s).driveHours).toBeGreaterThan(0);
  });

  it.each<RuleSetId>(['US_PROPERTY_70_8', 'US_PROPERTY_60_7', 'TEXAS_INTRASTATE', 'CALIFORNIA_INTRASTATE', 'CANADA_CYCLE_1', 'CANADA_CYCLE_2'])(
    '%s: initialState reproduces a snapshot near the limits, without violations',
    (id) => {
      const rules = ruleSet(id);
      const lim = limitsOf(rules);
      const onDuty = Math.min(lim.windowHours, lim.periodOnDutyHours) - 0.5;
      const snapshot = { hoursDriven: Math.min(lim.driveHours - 1, 15), onDutyHours: onDuty, hoursSinceBreak: Math.min(4, lim.driveHours - 1), cycleHoursUsed: lim.cycleHours - 2 };
      if (snapshot.hoursDriven - snapshot.hoursSinceBreak > 8 && lim.breakAfterDrivingHours !== Infinity) snapshot.hoursDriven = snapshot.hoursSinceBreak + 8;
      const s = initialState(rules, AT, snapshot);
      expect(clocksOf(s)).toMatchObject({ ...snapshot, at: AT });
      expect(violationsOf(s)).toEqual([]);
      expect(availability(s).driveHours).toBeCloseTo(Math.min(0.5, lim.driveHours - snapshot.hoursDriven, 2), 9);
    },
  );

  it('a plan driven to availability from a snapshot audits clean as history + plan', () => {
    const snapshot = { hoursDriven: 3, onDutyHours: 4, hoursSinceBreak: 3, cycleHoursUsed: 60 };
    const history = snapshotTimeline(snapshot, AT, US);
    let s = initialState(US, AT, snapshot);
    const plan = [];
    for (let i = 0; i < 12; i++) {
      const a = availability(s);
      const [status, hours] = a.driveHours > 0.01 ? (['ON_DUTY_DRIVING', a.driveHours] as const) : a.limitedBy === 'BREAK' ? (['OFF_DUTY', 0.5] as const) : a.limitedBy === 'CYCLE' ? (['OFF_DUTY', 34] as const) : (['SLEEPER_BERTH', 10] as const);
      plan.push({ status, start: s.at, end: s.at + hours * HOUR_MS });
      s = advance(s, status, hours);
    }
    expect(plan.some((p) => p.status === 'OFF_DUTY' && p.end - p.start === 34 * HOUR_MS)).toBe(true);
    expect(audit([...history, ...plan], US)).toEqual([]);
    expect(violationsOf(s)).toEqual([]);
    expect(T0).toBeLessThan(AT);
  });
});
