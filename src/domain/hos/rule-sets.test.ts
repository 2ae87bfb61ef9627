/** One test (or a few) per rule set and per option, against the limits each regulation sets. */
import { describe, expect, it } from 'vitest';
import { availability, clocksOf, HosError, limitsOf, ruleSet, violationsOf, type RuleSet } from './index.js';
import { at, clock, steps, T0, type Step } from './test-support/timeline.js';

const viol = (rules: RuleSet, list: Step[], start = 0) =>
  violationsOf(steps(rules, at(start), list)).map((v) => [v.kind, +((v.at - T0) / 3_600_000).toFixed(4), +v.overHours.toFixed(4)]);

const days = (n: number, day: Step[]): Step[] => Array.from({ length: n }, () => day).flat();

describe('limitsOf', () => {
  it.each([
    ['US_PROPERTY_70_8', { driveHours: 11, windowHours: 14, breakAfterDrivingHours: 8, resetOffHours: 10, cycleHours: 70, cycleDays: 8, restartOffHours: 34 }],
    ['US_PROPERTY_60_7', { driveHours: 11, windowHours: 14, breakAfterDrivingHours: 8, resetOffHours: 10, cycleHours: 60, cycleDays: 7, restartOffHours: 34 }],
    ['TEXAS_INTRASTATE', { driveHours: 12, windowHours: Infinity, periodOnDutyHours: 15, breakAfterDrivingHours: Infinity, resetOffHours: 8, cycleHours: 70, cycleDays: 7, restartOffHours: 34 }],
    ['CALIFORNIA_INTRASTATE', { driveHours: 12, windowHours: 16, breakAfterDrivingHours: Infinity, resetOffHours: 10, cycleHours: 80, cycleDays: 8, restartOffHours: 34 }],
    ['CANADA_CYCLE_1', { driveHours: 13, windowHours: 16, periodOnDutyHours: 14, dailyDriveHours: 13, dailyOnDutyHours: 14, resetOffHours: 8, cycleHours: 70, cycleDays: 7, restartOffHours: 36, longOffEveryDays: 14 }],
    ['CANADA_CYCLE_2', { driveHours: 13, windowHours: 16, periodOnDutyHours: 14, resetOffHours: 8, cycleHours: 120, cycleDays: 14, restartOffHours: 72, onDutyWithoutLongOffHours: 70 }],
  ] as const)('%s', (id, expected) => {
    expect(limitsOf(ruleSet(id))).toMatchObject(expected);
  });

  it('defaults to US property-carrying 70 h / 8 days and rejects unknown rule sets', () => {
    expect(ruleSet()).toEqual({ id: 'US_PROPERTY_70_8', options: {} });
    expect(() => limitsOf({ id: 'MARS' as never, options: {} })).toThrow(HosError);
    expect(() => limitsOf(ruleSet('US_PROPERTY_70_8', { homeTerminalUtcOffsetMinutes: 24 * 60 }))).toThrow(/homeTerminalUtcOffsetMinutes/);
  });
});

describe('US property-carrying 60 h / 7 days', () => {
  it('stops driving at 60 hours in 7 days (70/8 allows the same week)', () => {
    const week = days(7, [['D', 8], ['OFF', 0.5], ['D', 2], ['OFF', 13.5]]);
    expect(viol(ruleSet('US_PROPERTY_60_7'), week)).toEqual([['CYCLE', clock(7, 0), 10]]);
    expect(viol(ruleSet('US_PROPERTY_70_8'), week)).toEqual([]);
  });
});

describe('Texas intrastate (37 TAC §4.12)', () => {
  const TX = ruleSet('TEXAS_INTRASTATE');
  it('12 hours of driving after 8 hours off, no 30-minute break', () => {
    expect(viol(TX, [['D', 12], ['OFF', 8], ['D', 12]])).toEqual([]);
    expect(viol(TX, [['D', 12.5]])).toEqual([['DRIVE', 12, 0.5]]);
  });
  it('no driving after 15 hours on duty; off-duty time does not count toward them', () => {
    expect(viol(TX, [['ON', 4], ['D', 12]])).toEqual([['WINDOW', 15, 1]]);
    expect(viol(TX, [['ON', 3], ['OFF', 5], ['D', 12]])).toEqual([]);
    const s = steps(TX, T0, [['ON', 3], ['OFF', 5], ['D', 10]]);
    expect(clocksOf(s)).toMatchObject({ onDutyHours: 13, windowRemaining: 2, driveRemaining: 2 });
  });
  it('70 hours in 7 days', () => {
    expect(viol(TX, days(7, [['D', 11], ['OFF', 13]]))).toEqual([['CYCLE', clock(7, 4), 7]]);
  });
});

describe('California intrastate (13 CCR §1212.5)', () => {
  const CA = ruleSet('CALIFORNIA_INTRASTATE');
  it('12 hours of driving, no 30-minute break', () => {
    expect(viol(CA, [['D', 12]])).toEqual([]);
    expect(viol(CA, [['D', 12.5]])).toEqual([['DRIVE', 12, 0.5]]);
  });
  it('no driving after the 16th hour after coming on duty', () => {
    expect(viol(CA, [['ON', 4], ['OFF', 2], ['D', 10]])).toEqual([]);
    expect(viol(CA, [['ON', 4], ['OFF', 2], ['D', 10.5]])).toEqual([['WINDOW', 16, 0.5]]);
  });
  it('80 hours in 8 days', () => {
    const week = [...days(7, [['ON', 2], ['D', 8], ['OFF', 14]]), ['ON', 2], ['D', 8.5]] as Step[];
    expect(viol(CA, week)).toEqual([['CYCLE', clock(8, 10), 0.5]]);
  });
});

describe('Canada cycle 1 (SOR/2005-313)', () => {
  const C1 = ruleSet('CANADA_CYCLE_1');
  it('13 hours of driving in a work shift and in a day', () => {
    expect(viol(C1, [['D', 13]])).toEqual([]);
    expect(viol(C1, [['D', 13.5]])).toEqual([['DRIVE', 13, 0.5], ['DAILY_DRIVE', 13, 0.5]]);
  });
  it('14 hours on duty in a work shift and in a day', () => {
    expect(viol(C1, [['ON', 2], ['D', 12.5]])).toEqual([['WINDOW', 14, 0.5], ['DAILY_ON_DUTY', 14, 0.5]]);
  });
  it('no driving after 16 hours have elapsed in the work shift', () => {
    expect(viol(C1, [['ON', 1], ['OFF', 5], ['D', 10]])).toEqual([]);
    expect(viol(C1, [['ON', 1], ['OFF', 5], ['D', 10.5]])).toEqual([['WINDOW', 16, 0.5]]);
  });
  it('8 consecutive hours off start a new shift, but the day still counts all its driving', () => {
    expect(viol(C1, [['D', 6], ['OFF', 8], ['D', 8]])).toEqual([['DAILY_DRIVE', 21, 1]]);
  });
  it('70 hours in 7 days; 36 hours off reset the cycle, 35.5 do not', () => {
    const week = days(7, [['D', 10], ['OFF', 14]]);
    expect(clocksOf(steps(C1, T0, [...week.slice(0, -1), ['OFF', 35.5]])).cycleHoursUsed).toBeGreaterThan(0);
    expect(clocksOf(steps(C1, T0, [...week.slice(0, -1), ['OFF', 36]])).cycleHoursUsed).toBe(0);
  });
  it('24 consecutive hours off in every 14 days', () => {
    const s = steps(C1, T0, days(14, [['D', 10], ['OFF', 14]]));
    expect(violationsOf(s).map((v) => [v.kind, v.at, v.overHours, v.rule])).toEqual([['CYCLE', at(clock(14, 0)), 10, 'SOR/2005-313 s.25 24 consecutive hours off duty in every 14 days']]);
  });
});

describe('sleeper-berth splits outside the US rules', () => {
  it('Canada s.18: two sleeper periods of at least 2 h totalling 10 h; recalculated from the end of the first', () => {
    const C1 = ruleSet('CANADA_CYCLE_1');
    const s = steps(C1, T0, [['D', 6], ['SB', 4], ['D', 5], ['SB', 6]]);
    expect(clocksOf(s)).toMatchObject({ periodStart: at(10), hoursDriven: 5, driveRemaining: 8, onDutyHours: 5, windowRemaining: 9 });
    // Off-duty time outside the sleeper berth does not qualify.
    const off = steps(C1, T0, [['D', 6], ['OFF', 4], ['D', 5], ['SB', 6]]);
    expect(clocksOf(off)).toMatchObject({ periodStart: T0, hoursDriven: 11, windowRemaining: 0 });
  });
  it('Texas: two sleeper periods of at least 2 h adding up to 8 h', () => {
    const s = steps(ruleSet('TEXAS_INTRASTATE'), T0, [['D', 6], ['SB', 2], ['D', 6], ['SB', 6]]);
    expect(clocksOf(s)).toMatchObject({ periodStart: at(8), hoursDriven: 6, driveRemaining: 6, onDutyHours: 6, windowRemaining: 9 });
  });
  it('California: 8 h in the sleeper + 2 h; only the sleeper period stops the 16-hour clock', () => {
    const s = steps(ruleSet('CALIFORNIA_INTRASTATE'), T0, [['D', 6], ['SB', 8], ['D', 5], ['OFF', 2]]);
    expect(clocksOf(s)).toMatchObject({ periodStart: at(14), hoursDriven: 5, driveRemaining: 7, onDutyHours: 7, windowRemaining: 9 });
    // 7 h in the sleeper is not enough under California's rule (it is under the federal one).
    expect(clocksOf(steps(ruleSet('CALIFORNIA_INTRASTATE'), T0, [['D', 6], ['SB', 7], ['D', 5], ['OFF', 3]])).periodStart).toBe(T0);
    expect(clocksOf(steps(ruleSet(), T0, [['D', 6], ['SB', 7], ['D', 4], ['OFF', 3]])).periodStart).toBe(at(13));
  });
});

describe('Canada cycle 2 (SOR/2005-313 s.27)', () => {
  const C2 = ruleSet('CANADA_CYCLE_2');
  it('no driving after 70 hours on duty without 24 consecutive hours off', () => {
    expect(viol(C2, days(8, [['D', 10], ['OFF', 14]]))).toEqual([['CYCLE', clock(8, 0), 10]]);
    const withDayOff = [...days(7, [['D', 10], ['OFF', 14]]), ['OFF', 10], ['D', 10]] as Step[];
    expect(viol(C2, withDayOff)).toEqual([]);
  });
  it('120 hours in 14 days; 72 hours off reset the cycle', () => {
    // Six days of 10 h, a day off (24 h: no reset, but the 70-hour count restarts), six more days, day 14.
    const fortnight: Step[] = [...days(6, [['D', 10], ['OFF', 14]]), ['OFF', 24], ...days(6, [['D', 10], ['OFF', 14]]), ['D', 10]];
    expect(viol(C2, fortnight)).toEqual([['CYCLE', clock(14, 0), 10]]);
    expect(clocksOf(steps(C2, T0, [['D', 9], ['OFF', 72]])).cycleHoursUsed).toBe(0);
    expect(clocksOf(steps(C2, T0, [['D', 9], ['OFF', 71.5]])).cycleHoursUsed).toBe(9);
  });
});

describe('options', () => {
  it('adverseDrivingConditions: +2 h driving and +2 h window (US)', () => {
    const ADV = ruleSet('US_PROPERTY_70_8', { adverseDrivingConditions: true });
    expect(viol(ADV, [['ON', 2], ['D', 7], ['OFF', 0.5], ['D', 6]])).toEqual([]);
    expect(viol(ruleSet(), [['ON', 2], ['D', 7], ['OFF', 0.5], ['D', 6]])).toEqual([['DRIVE', 13.5, 2], ['WINDOW', 14, 1.5]]);
    expect(availability(steps(ADV, T0, [])).driveHours).toBe(8);
    expect(limitsOf(ADV)).toMatchObject({ driveHours: 13, windowHours: 16 });
  });
  it('shortHaul150AirMile: no 30-minute break required', () => {
    const SH = ruleSet('US_PROPERTY_70_8', { shortHaul150AirMile: true });
    expect(viol(SH, [['D', 10]])).toEqual([]);
    expect(viol(ruleSet(), [['D', 10]])).toEqual([['BREAK', 8, 2]]);
    expect(clocksOf(steps(SH, T0, [['D', 10]])).breakRemaining).toBe(Infinity);
  });
  it('shortHaul16Hour: a 16-hour window once per 7 days, again after a 34-hour restart', () => {
    const SH16 = ruleSet('US_PROPERTY_70_8', { shortHaul16Hour: true });
    const long: Step[] = [['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['ON', 4], ['D', 1.5]];
    expect(viol(SH16, long)).toEqual([]);
    expect(viol(ruleSet(), long)).toEqual([['WINDOW', 14, 1.5]]);
    // Used on day 1; day 2 is back to 14 h; after a restart it is available again.
    expect(viol(SH16, [...long, ['OFF', 10.5], ...long])).toEqual([['WINDOW', 26 + 14, 1.5]]);
    expect(viol(SH16, [...long, ['OFF', 34.5], ...long])).toEqual([]);
    // On duty past the 14th hour without driving does not use it (J. J. Keller RegSense FAQ).
    expect(viol(SH16, [['D', 8], ['ON', 7], ['OFF', 10], ...long])).toEqual([]);
  });
  it('homeTerminalUtcOffsetMinutes: days (recap, daily limits) begin at the home terminal midnight', () => {
    // Canada daily driving: 10 h driving ending at 05:00 UTC is all on one local (UTC-5) day.
    const list: Step[] = [['OFF', 19], ['D', 10], ['OFF', 8], ['D', 10]];
    expect(viol(ruleSet('CANADA_CYCLE_1'), list).map((v) => v[0])).toEqual(['DAILY_DRIVE', 'DAILY_ON_DUTY']);
    expect(viol(ruleSet('CANADA_CYCLE_1', { homeTerminalUtcOffsetMinutes: -300 }), list)).toEqual([]);
    // US recap: the oldest day drops off at 05:00 UTC for a UTC-5 terminal.
    const week: Step[] = [['OFF', 10], ['ON', 5], ['OFF', 19], ...days(7, [['ON', 0.25], ['OFF', 23.75]])];
    const EST = ruleSet('US_PROPERTY_70_8', { homeTerminalUtcOffsetMinutes: -300 });
    const cut = (rules: RuleSet, hours: number) => {
      const all = week.slice();
      let left = hours;
      const out: Step[] = [];
      for (const [c, h] of all) {
        if (left <= 0) break;
        out.push([c, Math.min(h, left)]);
        left -= h;
      }
      return clocksOf(steps(rules, T0, out)).cycleHoursUsed;
    };
    expect(cut(EST, clock(9, 4.9))).toBeCloseTo(5 + 7 * 0.25, 9);
    expect(cut(EST, clock(9, 5.1))).toBeCloseTo(7 * 0.25, 9);
    expect(cut(ruleSet(), clock(9, 4.9))).toBeCloseTo(7 * 0.25, 9);
  });
});
