/** The engine's API: purity, argument checks, replay semantics, next rest, explanations. */
import { describe, expect, it } from 'vitest';
import {
  advance,
  audit,
  availability,
  clocksOf,
  evaluate,
  HosError,
  initialState,
  replay,
  ruleSet,
  violationsOf,
  type DutyPeriod,
} from './index.js';
import { read } from './select.js';
import { at, clock, fold, steps, T0, tl, type Step } from './test-support/timeline.js';
import { HOUR_MS } from './types.js';

const US = ruleSet();

describe('initialState and advance', () => {
  it('a fresh driver has every clock at zero and the 30-minute break binds first', () => {
    const s = initialState(US, T0);
    expect(clocksOf(s)).toMatchObject({
      hoursDriven: 0,
      onDutyHours: 0,
      hoursSinceBreak: 0,
      cycleHoursUsed: 0,
      driveRemaining: 11,
      windowRemaining: 14,
      breakRemaining: 8,
      cycleRemaining: 70,
      lastRestartAt: T0,
      periodStart: T0,
      dutyStatus: 'OFF_DUTY',
      at: T0,
    });
    expect(availability(s)).toEqual({ driveHours: 8, onDutyHours: 14, limitedBy: 'BREAK' });
    expect(violationsOf(s)).toEqual([]);
  });

  it('is pure: the state advanced from is unchanged and can be advanced again another way', () => {
    const s = steps(US, T0, [['D', 5], ['SB', 7]]);
    const copy = JSON.stringify(s);
    const a = advance(s, 'ON_DUTY_DRIVING', 6);
    const b = advance(s, 'OFF_DUTY', 1);
    expect(JSON.stringify(s)).toBe(copy);
    expect(clocksOf(a).hoursDriven).toBe(11);
    expect(clocksOf(b).hoursDriven).toBe(5);
    expect(a).not.toBe(s);
  });

  it('a zero-length advance only changes the status', () => {
    const s = steps(US, T0, [['D', 2]]);
    expect(advance(s, 'ON_DUTY_DRIVING', 0)).toBe(s);
    const on = advance(s, 'ON_DUTY_NOT_DRIVING', 0);
    expect(clocksOf(on)).toEqual({ ...clocksOf(s), dutyStatus: 'ON_DUTY_NOT_DRIVING' });
  });

  it('rejects unknown statuses, negative or non-finite hours and times with a typed error', () => {
    const s = initialState(US, T0);
    for (const bad of [-1, Number.NaN, Infinity]) {
      expect(() => advance(s, 'OFF_DUTY', bad)).toThrow(HosError);
    }
    expect(() => advance(s, 'DRIVING' as never, 1)).toThrow(/unknown duty status/);
    expect(() => initialState(US, Number.NaN)).toThrow(HosError);
    try {
      advance(s, 'OFF_DUTY', -1);
    } catch (e) {
      expect((e as HosError).code).toBe('INVALID_ARGUMENT');
      expect((e as HosError).field).toBe('hours');
    }
  });

  it('while resting, a rest of 10 h or more reads as a full reset; a shorter one counts in the window', () => {
    const short = steps(US, T0, [['D', 5], ['OFF', 1]]);
    expect(clocksOf(short)).toMatchObject({ hoursDriven: 5, onDutyHours: 6, hoursSinceBreak: 0 });
    const full = steps(US, T0, [['D', 5], ['OFF', 10]]);
    expect(clocksOf(full)).toMatchObject({ hoursDriven: 0, onDutyHours: 0, periodStart: full.at });
    expect(evaluate(tl(T0, [['D', 5], ['OFF', 10]]), US, full.at).explanation[1]).toMatch(/a full reset/);
  });

  it('the cycle counts on-duty time of every kind, the break counts any non-driving time', () => {
    const s = steps(US, T0, [['ON', 2], ['D', 3], ['OFF', 0.25], ['ON', 0.25], ['D', 1]]);
    expect(clocksOf(s)).toMatchObject({ cycleHoursUsed: 6.25, hoursSinceBreak: 1, hoursDriven: 4, onDutyHours: 6.5 });
  });

  it('availability across midnight follows the daily recap exactly', () => {
    // 63 h on days 1–7 (9 h a day from 06:00), day 8: 6 h by 23:00 → 69 h; at midnight day 1's 9 h drop off.
    const week: Step[] = [['OFF', 6], ...Array.from({ length: 7 }, (): Step[] => [['ON', 1], ['D', 8], ['OFF', 15]]).flat(), ['OFF', 11], ['ON', 6]];
    const s = steps(ruleSet('US_PROPERTY_70_8', { shortHaul150AirMile: true }), T0, week);
    expect(s.at).toBe(at(clock(8, 23)));
    expect(clocksOf(s).cycleHoursUsed).toBe(69);
    expect(clocksOf(s).cycleHoursRecapturedTomorrow).toBe(9);
    const a = availability(s);
    // The window (14 h from 17:00 → 07:00) binds, not the cycle: 1 h until midnight, then 62 h used.
    expect(a).toMatchObject({ limitedBy: 'WINDOW', driveHours: 8 });
    expect(violationsOf(advance(s, 'ON_DUTY_DRIVING', 8))).toEqual([]);
    // Without the recap the cycle would bind at 1 h: driving 1.5 h straight into the next day is legal.
    expect(violationsOf(advance(s, 'ON_DUTY_DRIVING', 1.5))).toEqual([]);
  });

  it('keeps a bounded number of split hypotheses on pathological histories', () => {
    // Two weeks of chained 7.5 h / 2.5 h splits and never a 10-hour rest: legal, and it stays small.
    const list: Step[] = [];
    for (let i = 0; i < 24; i++) list.push(['D', 2], ['SB', 7.5], ['D', 2], ['OFF', 2.5]);
    const s = steps(US, T0, list);
    expect(s.hyps.length).toBeLessThanOrEqual(24);
    expect(read(s).hyps.length).toBeLessThanOrEqual(72);
    expect(violationsOf(s)).toEqual([]);
    expect(clocksOf(s)).toMatchObject({ hoursDriven: 2, onDutyHours: 2 });
    // And a messy one (short rests of every kind, no reset) stays bounded too.
    const messy: Step[] = [];
    for (let i = 0; i < 60; i++) messy.push(['D', 1], [i % 2 ? 'SB' : 'OFF', i % 3 ? 2.5 : 7.5]);
    expect(steps(US, T0, messy).hyps.length).toBeLessThanOrEqual(24);
  });
});

describe('evaluate, replay and audit', () => {
  const timeline = tl(T0, [['D', 4], ['OFF', 0.5], ['D', 4], ['ON', 1]]);

  it('validates the timeline: sorted, contiguous, finite', () => {
    const gap: DutyPeriod[] = [timeline[0]!, { ...timeline[1]!, start: timeline[1]!.start + 60_000 }];
    expect(() => evaluate(gap, US, at(10))).toThrow(/timeline\[1\] starts at .* but timeline\[0\] ends at .*sorted and contiguous/);
    expect(() => audit([{ status: 'OFF_DUTY', start: at(2), end: at(1) }], US)).toThrow(/ends before it starts/);
    expect(() => audit([{ status: 'OFF_DUTY', start: Number.NaN, end: at(1) }], US)).toThrow(HosError);
    try {
      evaluate(gap, US, at(10));
    } catch (e) {
      expect(e).toMatchObject({ code: 'INVALID_TIMELINE', field: 'timeline[1].start', statusCode: 400 });
    }
  });

  it('evaluates at a time inside a period, and lets the last period run until `at`', () => {
    expect(evaluate(timeline, US, at(2)).clocks).toMatchObject({ hoursDriven: 2, at: at(2) });
    expect(evaluate(timeline, US, at(6.5)).clocks).toMatchObject({ hoursDriven: 6, hoursSinceBreak: 2 });
    const later = evaluate(timeline, US, at(12));
    expect(later.clocks).toMatchObject({ hoursDriven: 8, onDutyHours: 12, dutyStatus: 'ON_DUTY_NOT_DRIVING' });
    expect(evaluate([], US, at(3)).clocks).toMatchObject({ hoursDriven: 0, at: at(3) });
    expect(() => replay([], US)).toThrow(HosError);
  });

  it('audit returns the violations with their times, rules and explanations', () => {
    const t = tl(T0, [['D', 9], ['OFF', 0.5], ['D', 3]]);
    const v = audit(t, US);
    expect(v).toEqual([
      {
        kind: 'BREAK',
        at: at(8),
        overHours: 1,
        rule: '49 CFR 395.3(a)(3)(ii) 30-minute break after 8 hours of driving',
        explanation: 'Drove 1:00 past the 8-hour limit on driving without a 30-minute break, first exceeded Mon, Mar 4, 08:00 UTC; a violation.',
      },
      {
        kind: 'DRIVE',
        at: at(11.5),
        overHours: 1,
        rule: '49 CFR 395.3(a)(3)(i) 11-hour driving limit',
        explanation: 'Drove 1:00 past the 11-hour limit on driving since Mon, Mar 4, 00:00 UTC, first exceeded Mon, Mar 4, 11:30 UTC; a violation.',
      },
    ]);
    expect(evaluate(t, US, t[t.length - 1]!.end).violations).toEqual(v);
    expect(audit([], US)).toEqual([]);
  });

  it('explains the calculation point, each clock and the binding limit', () => {
    const e = evaluate(tl(T0, [['D', 5], ['SB', 7], ['D', 6], ['OFF', 3]]), US, at(21));
    const text = e.explanation.join('\n');
    expect(text).toMatch(/Rule set: US property-carrying, 70 h \/ 8 days/);
    expect(text).toMatch(/Counted from Mon, Mar 4, 12:00 UTC: the end of the first split period \(7:00 from Mon, Mar 4, 05:00 UTC\), paired with 3:00/);
    expect(text).toMatch(/Driving 6:00 of 11:00/);
    expect(text).toMatch(/Duty window 6:00 of 14:00/);
    expect(text).toMatch(/The driving limit binds first: 5:00 of driving possible now/);
    // Words for people: no ISO timestamps, no decimal hours, no enum codes.
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT|\d+\.\d+ h\b|\b[A-Z]{2,}_[A-Z_]+\b/);
  });
});

describe('next required rest', () => {
  it('BREAK when the 8-hour driving clock binds first', () => {
    const e = evaluate(tl(T0, [['D', 6]]), US, at(6));
    expect(e.nextRest).toMatchObject({ kind: 'BREAK', requiredAfterDrivingHours: 2, requiredWithinHours: 8, durationHours: 0.5, limitedBy: 'BREAK' });
  });

  it('FULL_REST when the driving or window limit binds', () => {
    const e = evaluate(tl(T0, [['D', 8], ['OFF', 0.5], ['D', 1]]), US, at(9.5));
    expect(e.nextRest).toMatchObject({ kind: 'FULL_REST', requiredAfterDrivingHours: 2, requiredWithinHours: 4.5, durationHours: 10, limitedBy: 'DRIVE' });
  });

  it('SLEEPER_SPLIT when a pending sleeper period can be paired by a shorter rest', () => {
    const e = evaluate(tl(T0, [['D', 5], ['SB', 7], ['D', 5]]), US, at(17));
    expect(e.nextRest).toMatchObject({ kind: 'SLEEPER_SPLIT', durationHours: 3, requiredAfterDrivingHours: 1, limitedBy: 'DRIVE' });
    expect(e.nextRest.explanation).toMatch(/pairs with the 7:00 rest that ended Mon, Mar 4, 12:00 UTC/);
    // Taking it restores the driving it promises.
    const s = advance(fold(US, tl(T0, [['D', 5], ['SB', 7], ['D', 5]])), 'OFF_DUTY', 3);
    expect(availability(s).driveHours).toBeCloseTo(6, 9);
  });

  it('RESTART when the cycle binds', () => {
    const week: Step[] = [['OFF', 6], ...Array.from({ length: 7 }, (): Step[] => [['ON', 1], ['D', 8], ['OFF', 15]]).flat(), ['ON', 3]];
    const e = evaluate(tl(T0, week), US, T0 + week.reduce((h, [, x]) => h + x, 0) * HOUR_MS);
    expect(e.nextRest).toMatchObject({ kind: 'RESTART', durationHours: 34, limitedBy: 'CYCLE', requiredAfterDrivingHours: 4 });
    expect(e.nextRest.explanation).toMatch(/daily recap: 9:00 come back/);
  });
});
