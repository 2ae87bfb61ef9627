import { describe, expect, it } from 'vitest';
import { clocksAt, currentViolations } from './hos.js';
import { check, conditionOf, raiseThenCheck } from './test-checks.js';
import { at, buildClocks, buildSnapshot, MIN, openAlert, T0 } from './test-support.js';
import type { Violation } from '../hos/types.js';
import type { AlertType } from './types.js';

const CLOCK_TYPES: { type: AlertType; field: 'driveRemaining' | 'windowRemaining' | 'cycleRemaining' | 'breakRemaining'; limit: string }[] = [
  { type: 'HOS_APPROACHING_DRIVE_LIMIT', field: 'driveRemaining', limit: 'DRIVE' },
  { type: 'HOS_APPROACHING_DUTY_LIMIT', field: 'windowRemaining', limit: 'WINDOW' },
  { type: 'HOS_APPROACHING_CYCLE_LIMIT', field: 'cycleRemaining', limit: 'CYCLE' },
  { type: 'HOS_BREAK_REQUIRED', field: 'breakRemaining', limit: 'BREAK' },
];

describe.each(CLOCK_TYPES)('$type', ({ type, field, limit }) => {
  const withRemaining = (hours: number, extra: Parameters<typeof buildSnapshot>[0] = {}) =>
    buildSnapshot({ ...extra, clocks: { [field]: hours, ...extra.clocks } });

  it('does not fire while the remaining time is above the threshold', () => {
    expect(conditionOf(withRemaining(1.01), type)).toBeUndefined();
    expect(conditionOf(withRemaining(5), type)).toBeUndefined();
  });

  it('fires MEDIUM at or under the approaching threshold, with the facts and PLAN_REST_STOP', () => {
    const c = conditionOf(withRemaining(0.75), type)!;
    expect(c.priority).toBe('MEDIUM');
    expect(c.metadata).toMatchObject({ limit, minutesRemaining: 45, recommendedAction: 'PLAN_REST_STOP', thresholdHours: 1, warningThresholdMinutes: 30, hosSource: 'MANUAL' });
    expect(c.title).toContain('45 min');
    expect(c.message).toContain('Jane Doe (unit 1042)');
    expect(conditionOf(withRemaining(1), type)?.priority).toBe('MEDIUM');
  });

  it('escalates to HIGH under the warning threshold, and at zero', () => {
    expect(conditionOf(withRemaining(0.49), type)?.priority).toBe('HIGH');
    expect(conditionOf(withRemaining(0.5), type)?.priority).toBe('MEDIUM'); // "under" 30 min: 30 is not
    const reached = conditionOf(withRemaining(0, { clocks: { dutyStatus: 'ON_DUTY_NOT_DRIVING' } }), type)!;
    expect(reached.priority).toBe('HIGH');
    expect(reached.metadata['limitReached']).toBe(true);
  });

  it('reached while driving is CRITICAL: the driver is breaking the limit as it happens', () => {
    const driving = conditionOf(withRemaining(0, { clocks: { dutyStatus: 'ON_DUTY_DRIVING' } }), type)!;
    expect(driving.priority).toBe('CRITICAL');
    expect(driving.metadata).toMatchObject({ limitReached: true, dutyStatus: 'ON_DUTY_DRIVING' });
  });

  it('escalation goes through reconcile as an update with priorityChanged', () => {
    const open = openAlert(conditionOf(withRemaining(0.75), type)!);
    const r = check(withRemaining(0.25), [open]);
    expect(r.update).toHaveLength(1);
    expect(r.update[0]).toMatchObject({ alert: { id: open.id }, priorityChanged: true, condition: { priority: 'HIGH' } });
    expect(r.create).toEqual([]);
  });

  it('clears through reconcile once the clock is back above the threshold (the driver rested)', () => {
    const { alert, result } = raiseThenCheck(withRemaining(0.3), withRemaining(8), type);
    expect(result.resolve).toEqual([{ alert, resolution: expect.stringMatching(/: 8:00 left again, above the 1:00 alert threshold$/) }]);
  });

  it('clears when the HOS record is gone, and says so', () => {
    const { result } = raiseThenCheck(withRemaining(0.3), buildSnapshot({ hos: null }), type);
    expect(result.resolve[0]?.resolution).toMatch(/no longer available/);
  });

  it('honours the approaching threshold setting', () => {
    expect(conditionOf(withRemaining(1.5, { alerts: { hosApproachingThresholdHours: 2 } }), type)?.priority).toBe('MEDIUM');
    expect(conditionOf(withRemaining(0.75, { alerts: { hosApproachingThresholdHours: 0.5 } }), type)).toBeUndefined();
  });

  it('honours the warning threshold setting, which also widens the horizon when it is the larger', () => {
    expect(conditionOf(withRemaining(0.75, { monitoring: { hosWarningThresholdMinutes: 60 } }), type)?.priority).toBe('HIGH');
    expect(conditionOf(withRemaining(0.4, { monitoring: { hosWarningThresholdMinutes: 15 } }), type)?.priority).toBe('MEDIUM');
    const wide = withRemaining(1.5, { alerts: { hosApproachingThresholdHours: 0.5 }, monitoring: { hosWarningThresholdMinutes: 120 } });
    expect(conditionOf(wide, type)?.priority).toBe('HIGH');
  });

  it('a small drift of the remaining time is not an update; crossing a 15-minute band is', () => {
    const open = openAlert(conditionOf(withRemaining(0.8), type)!); // 48 min: band 45-60
    expect(check(withRemaining(0.76), [open]).update).toEqual([]); // 45 min
    expect(check(withRemaining(0.7), [open]).update).toMatchObject([{ priorityChanged: false }]); // 42 min
  });

  it('is silent without an HOS record', () => {
    expect(conditionOf(buildSnapshot({ hos: null }), type)).toBeUndefined();
  });
});

describe('HOS clock specifics', () => {
  it('uses the spec names for the drive limit: currentHoursDriven, driveTimeRemaining', () => {
    const c = conditionOf(buildSnapshot({ clocks: { hoursDriven: 10.2, driveRemaining: 0.8 } }), 'HOS_APPROACHING_DRIVE_LIMIT')!;
    expect(c.metadata).toMatchObject({ currentHoursDriven: 10.2, driveTimeRemaining: 0.8, restNeeded: 'FULL_REST' });
  });

  it('names the cycle facts and a restart', () => {
    const c = conditionOf(buildSnapshot({ clocks: { cycleHoursUsed: 69.5, cycleRemaining: 0.5, cycleHoursRecapturedTomorrow: 8 } }), 'HOS_APPROACHING_CYCLE_LIMIT')!;
    expect(c.metadata).toMatchObject({ cycleHoursUsed: 69.5, cycleTimeRemaining: 0.5, cycleHoursRecapturedTomorrow: 8, restNeeded: 'RESTART' });
  });

  it('a break is required at zero (breakRequired) and not under a rule set without breaks (Infinity)', () => {
    const due = conditionOf(buildSnapshot({ clocks: { hoursSinceBreak: 8, breakRemaining: 0 } }), 'HOS_BREAK_REQUIRED')!;
    expect(due.metadata).toMatchObject({ breakRequired: true, hoursSinceBreak: 8, breakTimeRemaining: 0, restNeeded: 'BREAK' });
    expect(due.title).toBe('30-minute break required now');
    expect(conditionOf(buildSnapshot({ clocks: { breakRemaining: Infinity } }), 'HOS_BREAK_REQUIRED')).toBeUndefined();
  });

  it('an open break alert clears when the rule set needs no break, with that reason', () => {
    const holding = buildSnapshot({ clocks: { breakRemaining: 0.2 } });
    const { result } = raiseThenCheck(holding, buildSnapshot({ clocks: { breakRemaining: Infinity } }), 'HOS_BREAK_REQUIRED');
    expect(result.resolve[0]?.resolution).toMatch(/requires no 30-minute break/);
  });

  it('ages clocks read a while ago by the status they were read in', () => {
    const now = at(1);
    const driving = buildClocks(now, { at: now - 30 * MIN, driveRemaining: 2, windowRemaining: 3, breakRemaining: 1, cycleRemaining: 10, hoursDriven: 9 });
    expect(clocksAt(driving, now)).toMatchObject({ driveRemaining: 1.5, windowRemaining: 2.5, breakRemaining: 0.5, cycleRemaining: 9.5, hoursDriven: 9.5, at: now });
    const working = clocksAt({ ...driving, dutyStatus: 'ON_DUTY_NOT_DRIVING' }, now);
    expect(working).toMatchObject({ driveRemaining: 2, breakRemaining: 1, windowRemaining: 2.5, cycleRemaining: 9.5 });
    const resting = clocksAt({ ...driving, dutyStatus: 'SLEEPER_BERTH' }, now);
    expect(resting).toMatchObject({ driveRemaining: 2, windowRemaining: 3 });
    expect(clocksAt({ ...driving, driveRemaining: 0.2 }, now).driveRemaining).toBe(0);
  });

  it('an ELD clock read 45 minutes ago while driving with 1.5 h left is an alert now', () => {
    const now = at(0.5);
    const s = buildSnapshot({ now, clocks: { at: now - 45 * MIN, driveRemaining: 1.5 } });
    expect(conditionOf(s, 'HOS_APPROACHING_DRIVE_LIMIT')?.metadata).toMatchObject({ driveTimeRemaining: 0.75, clocksAt: new Date(now - 45 * MIN).toISOString() });
  });
});

const violation = (kind: Violation['kind'], when: number, overHours = 0.25): Violation => ({
  kind,
  at: when,
  overHours,
  rule: kind === 'DRIVE' ? '49 CFR 395.3(a)(3)(i) 11-hour driving limit' : '49 CFR 395.3(a)(2) 14-hour window',
  explanation: `Drove ${overHours} h past the limit`,
});

describe('HOS_VIOLATION', () => {
  it('fires CRITICAL for a violation since activation, naming the rule', () => {
    const s = buildSnapshot({ violations: [violation('DRIVE', at(0.25))] });
    const c = conditionOf(s, 'HOS_VIOLATION')!;
    expect(c.priority).toBe('CRITICAL');
    expect(c.title).toBe('HOS violation: driving limit exceeded');
    expect(c.message).toContain('Jane Doe (unit 1042)');
    expect(c.message).toContain('11-hour driving limit');
    expect(c.metadata).toMatchObject({ violationCount: 1, latestViolationAt: new Date(at(0.25)).toISOString(), violations: [{ kind: 'DRIVE', overHours: 0.25 }] });
  });

  it('counts the violations of the current duty period, even from before activation, not older ones', () => {
    const activatedAt = T0 - 30 * MIN;
    const hos = { clocks: buildClocks(at(0.5), { periodStart: T0 - 5 * 60 * MIN }), source: 'eld' };
    const inPeriod = violation('WINDOW', T0 - 60 * MIN);
    const older = violation('DRIVE', T0 - 24 * 60 * MIN);
    expect(currentViolations({ ...hos, violations: [older, inPeriod] }, activatedAt)).toEqual([inPeriod]);
    expect(conditionOf(buildSnapshot({ hos: { ...hos, violations: [older] } }), 'HOS_VIOLATION')).toBeUndefined();
  });

  it('without a duty period start, counts the violations since activation', () => {
    const hos = { clocks: buildClocks(at(0.5), { periodStart: null }), source: 'eld' };
    const before = violation('DRIVE', T0 - 60 * MIN);
    const after = violation('DRIVE', at(0.1));
    expect(currentViolations({ ...hos, violations: [before, after] }, T0 - 30 * MIN)).toEqual([after]);
  });

  it('does not fire without violations or without an HOS record', () => {
    expect(conditionOf(buildSnapshot(), 'HOS_VIOLATION')).toBeUndefined();
    expect(conditionOf(buildSnapshot({ hos: null }), 'HOS_VIOLATION')).toBeUndefined();
  });

  it('lists several in one condition, and a new one is a material update while a growing one is not', () => {
    const first = violation('DRIVE', at(0.1));
    const open = openAlert(conditionOf(buildSnapshot({ violations: [first] }), 'HOS_VIOLATION')!);
    expect(check(buildSnapshot({ violations: [{ ...first, overHours: 0.4 }] }), [open]).update).toEqual([]);
    const both = buildSnapshot({ violations: [first, violation('WINDOW', at(0.3))] });
    const r = check(both, [open]);
    expect(r.update).toMatchObject([{ priorityChanged: false, condition: { metadata: { violationCount: 2 } } }]);
    expect(r.update[0]!.condition.title).toBe('2 HOS violations, latest: driving after the on-duty window');
  });

  it('clears through reconcile once the driver has taken a reset after it', () => {
    const v = violation('DRIVE', at(0.25));
    const holding = buildSnapshot({ violations: [v] });
    const afterReset = buildSnapshot({ now: at(12), violations: [v], clocks: { periodStart: at(11) } });
    const { result } = raiseThenCheck(holding, afterReset, 'HOS_VIOLATION');
    expect(result.resolve[0]?.resolution).toBe('No HOS violation in the current duty period (since Mon, Mar 2, 17:00 CST): the driver has taken a reset');
  });
});
