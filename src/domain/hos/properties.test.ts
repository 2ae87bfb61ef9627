/**
 * Property-based tests (fast-check, fixed seeds). Timelines are random sequences of duty periods in
 * quarter hours, biased towards the lengths that matter (30-minute breaks, 2–3 h and 7–9 h rests,
 * 10+ h and 34+ h rests), starting at a UTC midnight.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advance,
  availability,
  clocksOf,
  evaluate,
  initialState,
  limitsOf,
  ruleSet,
  snapshotTimeline,
  violationsOf,
  type ClockSnapshot,
  type HosState,
  type RuleSet,
  type RuleSetId,
  type Violation,
} from './index.js';
import { costOfOvers, oracle } from './test-support/oracle.js';
import { fold, T0, tl, type Step } from './test-support/timeline.js';
import { HOUR_MS, type DutyPeriod } from './types.js';

const quarters = (min: number, max: number) => fc.integer({ min: min * 4, max: max * 4 }).map((n) => n / 4);
const step: fc.Arbitrary<Step> = fc
  .oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constant('D' as const), quarters(0.25, 6)) },
    { weight: 2, arbitrary: fc.tuple(fc.constant('ON' as const), quarters(0.25, 3)) },
    { weight: 2, arbitrary: fc.tuple(fc.constant('OFF' as const), quarters(0.25, 4)) },
    { weight: 1, arbitrary: fc.tuple(fc.constant('OFF' as const), quarters(8, 36)) },
    { weight: 2, arbitrary: fc.tuple(fc.constant('SB' as const), quarters(1.75, 3.5)) },
    { weight: 2, arbitrary: fc.tuple(fc.constant('SB' as const), quarters(6.5, 10.5)) },
  )
  .map(([c, h]) => [c, h] as const);
const timelineArb = (max = 18) => fc.array(step, { minLength: 1, maxLength: max }).map((s) => tl(T0, s));

const US_IDS: RuleSetId[] = ['US_PROPERTY_70_8', 'US_PROPERTY_60_7'];
const ALL_IDS: RuleSetId[] = ['US_PROPERTY_70_8', 'US_PROPERTY_60_7', 'TEXAS_INTRASTATE', 'CALIFORNIA_INTRASTATE', 'CANADA_CYCLE_1', 'CANADA_CYCLE_2'];
const rulesArb = fc
  .record({
    id: fc.constantFrom(...ALL_IDS),
    adverse: fc.boolean(),
    sh16: fc.boolean(),
    sh150: fc.boolean(),
    offset: fc.constantFrom(0, -300, -480, 60),
  })
  .map((r) =>
    ruleSet(r.id, {
      adverseDrivingConditions: r.adverse || undefined,
      shortHaul16Hour: r.sh16 || undefined,
      shortHaul150AirMile: r.sh150 || undefined,
      homeTerminalUtcOffsetMinutes: r.offset || undefined,
    }),
  );

const score = (v: readonly Violation[]) => costOfOvers(v.map((x) => ({ over: x.overHours })));
const cmp = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
const extend = (timeline: DutyPeriod[], code: Step[0], hours: number) => [...timeline, ...tl(timeline[timeline.length - 1]!.end, [[code, hours]])];

describe('properties', () => {
  it('clocks are never negative and remaining time never exceeds the limit (every prefix)', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(), (rules, timeline) => {
        const lim = limitsOf(rules);
        let s = initialState(rules, T0);
        for (const p of timeline) {
          s = advance(s, p.status, (p.end - p.start) / HOUR_MS);
          const c = clocksOf(s);
          for (const k of ['hoursDriven', 'onDutyHours', 'hoursSinceBreak', 'cycleHoursUsed', 'driveRemaining', 'windowRemaining', 'breakRemaining', 'cycleRemaining', 'cycleHoursRecapturedTomorrow'] as const) {
            expect(c[k]).toBeGreaterThanOrEqual(-1e-9);
          }
          expect(c.driveRemaining).toBeLessThanOrEqual(lim.driveHours + 1e-9);
          expect(c.windowRemaining).toBeLessThanOrEqual(Math.max(lim.shortHaulWindowHours ?? 0, Math.min(lim.windowHours, lim.periodOnDutyHours)) + 1e-9);
          expect(c.breakRemaining).toBeLessThanOrEqual(lim.breakAfterDrivingHours);
          expect(c.cycleRemaining).toBeLessThanOrEqual(lim.cycleHours + 1e-9);
          const a = availability(s);
          expect(a.driveHours).toBeGreaterThanOrEqual(0);
          expect(a.driveHours).toBeLessThanOrEqual(Math.min(c.driveRemaining, c.windowRemaining, c.breakRemaining, c.cycleRemaining + 24) + 1e-9);
        }
      }),
      { seed: 101, numRuns: 400 },
    );
  });

  it('10 consecutive hours off reset the driving clock and the window (8 under Texas and Canada)', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(), fc.constantFrom<Step[0]>('OFF', 'SB'), (rules, timeline, code) => {
        const lim = limitsOf(rules);
        const s = fold(rules, extend(timeline, code, lim.resetOffHours));
        const c = clocksOf(s);
        expect(c.hoursDriven).toBe(0);
        expect(c.onDutyHours).toBe(0);
        expect(c.hoursSinceBreak).toBe(0);
        expect(c.driveRemaining).toBe(lim.driveHours);
        expect(c.periodStart).toBe(s.at);
      }),
      { seed: 102, numRuns: 400 },
    );
  });

  it('a restart (34 h off; 36/72 h in Canada) resets the cycle', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(), (rules, timeline) => {
        const lim = limitsOf(rules);
        const s = fold(rules, extend(timeline, 'OFF', lim.restartOffHours));
        expect(clocksOf(s).cycleHoursUsed).toBe(0);
        expect(clocksOf(s).lastRestartAt).toBe(s.at);
        expect(availability(s).driveHours).toBe(Math.min(lim.driveHours, lim.breakAfterDrivingHours, lim.windowHours, lim.periodOnDutyHours, lim.dailyDriveHours));
      }),
      { seed: 103, numRuns: 300 },
    );
  });

  it('appending off-duty or sleeper time never creates a violation', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(), fc.constantFrom<Step[0]>('OFF', 'SB'), quarters(0.25, 40), (rules, timeline, code, hours) => {
        const before = score(violationsOf(fold(rules, timeline)));
        const after = score(violationsOf(fold(rules, extend(timeline, code, hours))));
        expect(cmp(after, before)).toBeLessThanOrEqual(0);
      }),
      { seed: 104, numRuns: 800 },
    );
  });

  it('turning part of an on-duty or driving period into off-duty time never creates a violation', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (rules, timeline, pick, a, b) => {
        const work = timeline.map((p, i) => [p, i] as const).filter(([p]) => p.status === 'ON_DUTY_DRIVING' || p.status === 'ON_DUTY_NOT_DRIVING');
        fc.pre(work.length > 0);
        const [p, i] = work[pick % work.length]!;
        const q = Math.round(((p.end - p.start) / HOUR_MS) * 4);
        const from = Math.floor(Math.min(a, b) * q);
        const to = Math.ceil(Math.max(a, b) * q);
        fc.pre(to > from);
        const cut = (x: number) => p.start + (x / 4) * HOUR_MS;
        const pieces: DutyPeriod[] = [
          { status: p.status, start: p.start, end: cut(from) },
          { status: 'OFF_DUTY' as const, start: cut(from), end: cut(to) },
          { status: p.status, start: cut(to), end: p.end },
        ].filter((x) => x.end > x.start);
        const changed = [...timeline.slice(0, i), ...pieces, ...timeline.slice(i + 1)];
        const before = score(violationsOf(fold(rules, timeline)));
        const after = score(violationsOf(fold(rules, changed)));
        expect(cmp(after, before)).toBeLessThanOrEqual(0);
      }),
      { seed: 105, numRuns: 800 },
    );
  });

  it('evaluate(timeline) agrees with folding advance over the same timeline', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(), fc.double({ min: 0, max: 1.2, noNaN: true }), (rules, timeline, frac) => {
        const end = timeline[timeline.length - 1]!.end;
        const when = T0 + (end - T0) * frac;
        fc.pre(when > T0);
        // The fold: whole periods up to `when`, the one in progress cut there, the last one open until `when`.
        let s = initialState(rules, T0);
        for (const p of timeline) {
          if (p.start >= when) break;
          s = advance(s, p.status, (Math.min(p.end, when) - p.start) / HOUR_MS);
        }
        if (s.at < when) s = advance(s, timeline[timeline.length - 1]!.status, (when - s.at) / HOUR_MS);
        const e = evaluate(timeline, rules, when);
        const c = clocksOf(s);
        for (const [k, v] of Object.entries(e.clocks)) {
          if (typeof v === 'number' && Number.isFinite(v)) expect(v).toBeCloseTo(c[k as keyof typeof c] as number, 6);
        }
        const vs = violationsOf(s);
        expect(e.violations.map((v) => [v.kind, Math.round(v.at / 1000), v.overHours.toFixed(6)])).toEqual(vs.map((v) => [v.kind, Math.round(v.at / 1000), v.overHours.toFixed(6)]));
        expect(e.explanation.length).toBeGreaterThan(3);
      }),
      { seed: 106, numRuns: 400 },
    );
  });

  it('availability() is exact: driving exactly that long creates no violation, a minute more does', () => {
    let tested = 0;
    fc.assert(
      fc.property(rulesArb, timelineArb(12), fc.double({ min: 0, max: 23.99, noNaN: true }), (rules, timeline, shift) => {
        // Shift the timeline off the quarter-hour grid so limits fall at arbitrary times (and midnights).
        const moved = timeline.map((p) => ({ ...p, start: p.start + shift * HOUR_MS, end: p.end + shift * HOUR_MS }));
        const s = fold(rules, moved);
        fc.pre(violationsOf(s).length === 0);
        const a = availability(s);
        tested++;
        if (a.driveHours > 0) {
          const exact = advance(s, 'ON_DUTY_DRIVING', a.driveHours);
          expect(violationsOf(exact)).toEqual([]);
        }
        const more = advance(s, 'ON_DUTY_DRIVING', a.driveHours + 1 / 60);
        const v = violationsOf(more);
        expect(v.length).toBeGreaterThan(0);
        expect(v.map((x) => x.kind)).toContain(a.limitedBy);
      }),
      { seed: 107, numRuns: 1000 },
    );
    expect(tested).toBeGreaterThan(300);
  });

  it('advance is additive: one long step equals the same time in pieces', () => {
    fc.assert(
      fc.property(rulesArb, timelineArb(10), fc.constantFrom<Step[0]>('D', 'ON', 'OFF', 'SB'), quarters(0.25, 30), fc.double({ min: 0, max: 1, noNaN: true }), (rules, timeline, code, hours, f) => {
        const s = fold(rules, timeline);
        const status = tl(T0, [[code, 1]])[0]!.status;
        const one = advance(s, status, hours);
        const two = advance(advance(s, status, hours * f), status, hours * (1 - f));
        const c1 = clocksOf(one);
        const c2 = clocksOf(two);
        for (const k of ['hoursDriven', 'onDutyHours', 'hoursSinceBreak', 'cycleHoursUsed', 'driveRemaining', 'windowRemaining'] as const) expect(c1[k]).toBeCloseTo(c2[k], 6);
        expect(violationsOf(one).length).toBe(violationsOf(two).length);
      }),
      { seed: 108, numRuns: 300 },
    );
  });

  it('a snapshot timeline reproduces its snapshot, as does initialState(rules, at, snapshot)', () => {
    const snapshotArb = fc
      .record({
        rules: rulesArb,
        onDuty: quarters(0, 14).map((q) => q + 0.1),
        drivenF: fc.double({ min: 0, max: 1, noNaN: true }),
        breakF: fc.double({ min: 0, max: 1, noNaN: true }),
        cycleF: fc.double({ min: 0, max: 1, noNaN: true }),
        at: fc.integer({ min: 0, max: 7 * 24 * 60 }).map((m) => T0 + m * 60_000),
      })
      .map(({ rules, onDuty, drivenF, breakF, cycleF, at }) => {
        const lim = limitsOf(rules);
        // Within the limits: at most 8 h on each side of the break, and room for the break itself.
        let driven = Math.min(onDuty, lim.driveHours) * drivenF;
        let sinceBreak = Math.min(driven, 8) * breakF;
        if (driven - sinceBreak > 8) driven = sinceBreak + 8;
        if (driven - sinceBreak > 0 && onDuty - driven < 0.5) {
          driven = Math.min(driven, 8);
          sinceBreak = driven;
        }
        const snapshot: ClockSnapshot = { hoursDriven: driven, onDutyHours: onDuty, hoursSinceBreak: sinceBreak, cycleHoursUsed: onDuty + (lim.cycleHours - onDuty) * cycleF };
        return { rules, snapshot, at };
      });
    fc.assert(
      fc.property(snapshotArb, ({ rules, snapshot, at }) => {
        const timeline = snapshotTimeline(snapshot, at, rules);
        expect(timeline[timeline.length - 1]!.end).toBe(at);
        for (let i = 1; i < timeline.length; i++) expect(timeline[i]!.start).toBe(timeline[i - 1]!.end);
        for (const s of [fold(rules, timeline), initialState(rules, at, snapshot)] as HosState[]) {
          const c = clocksOf(s);
          expect(c.hoursDriven).toBeCloseTo(snapshot.hoursDriven, 6);
          expect(c.onDutyHours).toBeCloseTo(snapshot.onDutyHours, 6);
          expect(c.hoursSinceBreak).toBeCloseTo(snapshot.hoursSinceBreak, 6);
          expect(c.cycleHoursUsed).toBeCloseTo(snapshot.cycleHoursUsed, 6);
          // A snapshot within the limits gives a history without violations.
          expect(violationsOf(s)).toEqual([]);
        }
      }),
      { seed: 109, numRuns: 600 },
    );
  });

  it('agrees with a brute-force reference (every pairing plan enumerated, 15-minute slots)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...US_IDS), fc.boolean(), timelineArb(20), (id, options, timeline) => {
        const rules: RuleSet = ruleSet(id, options ? { adverseDrivingConditions: true, shortHaul150AirMile: true } : {});
        const s = fold(rules, timeline);
        const o = oracle(timeline, rules);
        const v = violationsOf(s);
        expect(score(v)).toEqual(o.cost);
        const shared = v.filter((x) => x.kind === 'BREAK' || x.kind === 'CYCLE').map((x) => [x.kind, x.at, +x.overHours.toFixed(6)]);
        expect(shared).toEqual(o.shared.map((x) => [x.kind, x.at, +x.over.toFixed(6)]));
        const c = clocksOf(s);
        expect(c.windowRemaining).toBeCloseTo(Math.max(0, o.windowRoom), 6);
        expect(Math.min(c.driveRemaining, c.windowRemaining)).toBeCloseTo(Math.max(0, o.driveRoom), 6);
        expect(c.hoursSinceBreak).toBeCloseTo(o.hoursSinceBreak, 6);
        expect(c.cycleHoursUsed).toBeCloseTo(o.cycleUsed, 6);
      }),
      { seed: 110, numRuns: 1000 },
    );
  });
});
