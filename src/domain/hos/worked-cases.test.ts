/**
 * Worked cases from FMCSA's guidance and well-known regulatory examples, each written out with its
 * source, its timeline and the clocks / violations the source gives. Times are hours from the start
 * of the timeline (day 1 00:00 UTC unless the case starts later); the driver is fresh (10+ hours off)
 * at the start.
 */
import { describe, expect, it } from 'vitest';
import { availability, clocksOf, evaluate, ruleSet, violationsOf, type LimitKind, type RuleSet } from './index.js';
import { at, clock, fold, T0, tl, type Step } from './test-support/timeline.js';
import type { HosClocks } from './types.js';

interface WorkedCase {
  name: string;
  source: string;
  rules?: RuleSet;
  /** Hours after T0 at which the timeline starts. */
  start?: number;
  steps: Step[];
  clocks?: Partial<Pick<HosClocks, 'hoursDriven' | 'onDutyHours' | 'hoursSinceBreak' | 'cycleHoursUsed' | 'driveRemaining' | 'windowRemaining' | 'cycleHoursRecapturedTomorrow'>>;
  /** periodStart, in hours after T0. */
  periodStart?: number;
  driveHours?: number;
  limitedBy?: LimitKind;
  /** [kind, first exceeded (hours after T0), hours over]. */
  violations: Array<[LimitKind, number, number]>;
}

const US = ruleSet();

const CASES: WorkedCase[] = [
  {
    name: 'Split sleeper 7/3, sleeper first ("Juan")',
    source:
      'J. J. Keller, "Split-sleeper berth exception" (Encompass blog, Feb 2021): 5 h driving, 7 h sleeper, 6 h driving (11 of 11, 11 of 14), then 3 h off completes the pair; clocks count from the end of the sleeper period',
    steps: [['D', 5], ['SB', 7], ['D', 6], ['OFF', 3]],
    clocks: { hoursDriven: 6, onDutyHours: 6, driveRemaining: 5, windowRemaining: 8 },
    periodStart: 12,
    violations: [],
  },
  {
    name: 'Split sleeper 7/3, sleeper pending: the sleeper period does not count against the 14 hours',
    source: 'Same example, before the 3-hour break: "reaching the 11-hour driving limit and hour 11 out of his allowed 14"',
    steps: [['D', 5], ['SB', 7], ['D', 6]],
    clocks: { hoursDriven: 11, onDutyHours: 11, driveRemaining: 0, windowRemaining: 3 },
    limitedBy: 'DRIVE',
    driveHours: 0,
    violations: [],
  },
  {
    name: 'Split sleeper 8/2: 7 hours of driving within a 10-hour window',
    source:
      'J. J. Keller RegSense, "After obtaining 10 hours of rest in two separate periods, does the driver have a full 11 and 14 hours available?" (2023): drive 7, sleeper 8, drive 4, off 2 → 7 h driving within 10 h',
    steps: [['D', 7], ['SB', 8], ['D', 4], ['OFF', 2]],
    clocks: { hoursDriven: 4, onDutyHours: 4, driveRemaining: 7, windowRemaining: 10 },
    periodStart: 15,
    violations: [],
  },
  {
    name: 'Split 3/7, short period first: recalculated from the end of the 3-hour break',
    source:
      'J. J. Keller Institute, "Split-sleeper example": 6 h driving 1:30–7:30, off 8–11, 5 more hours of driving, 14-hour limit extended from 3 p.m. to 6 p.m., sleeper from 6:30 p.m.; afterwards 7½ h of the 14 used since 11 a.m. (6½ left) and 5 of the 11 (6 left)',
    start: 1,
    steps: [['ON', 0.5], ['D', 6], ['ON', 0.5], ['OFF', 3], ['ON', 0.5], ['D', 2], ['OFF', 0.5], ['D', 3], ['ON', 1.5], ['SB', 7]],
    clocks: { hoursDriven: 5, onDutyHours: 7.5, driveRemaining: 6, windowRemaining: 6.5 },
    periodStart: 11,
    violations: [],
  },
  {
    name: 'FMCSA guide sleeper example under the 2020 rule',
    source:
      'FMCSA, "Interstate Truck Driver\'s Guide to Hours of Service", sleeper-berth example: on duty 7 a.m., driving 10 a.m.–2 p.m., 8 h sleeper, driving 10 p.m.–5 a.m., 2 h off → new calculation point 10 p.m., 7 of 11 driving used (4 left). The guide (2005 rule) also counts the 2-hour period (9 of 14 used); since the 2020 rule neither period counts, so 7 of 14 are used',
    start: 7,
    steps: [['ON', 3], ['D', 4], ['SB', 8], ['D', 7], ['OFF', 2]],
    clocks: { hoursDriven: 7, onDutyHours: 7, driveRemaining: 4, windowRemaining: 7 },
    periodStart: 22,
    driveHours: 4,
    violations: [],
  },
  {
    name: 'FMCSA guide sleeper example at 10 p.m.: "you only used 7 of your 14 hours so far"',
    source: 'Same guide example, on leaving the 8-hour sleeper period: 7 of 14 used, 7 of 11 driving available',
    start: 7,
    steps: [['ON', 3], ['D', 4], ['SB', 8]],
    clocks: { hoursDriven: 4, onDutyHours: 7, driveRemaining: 7, windowRemaining: 7 },
    violations: [],
  },
  {
    name: '5 hours off, later 7 hours in the sleeper: both excluded once paired',
    source:
      'FMCSA, "Frequently Asked Questions Relating to 2020 Changes to Hours of Service Regulations", Q6: both are eligible periods that, when paired, qualify and are excluded from the 14-hour window',
    steps: [['D', 4], ['OFF', 5], ['D', 5], ['SB', 7]],
    clocks: { hoursDriven: 5, onDutyHours: 5, driveRemaining: 6, windowRemaining: 9 },
    periodStart: 9,
    violations: [],
  },
  {
    name: 'Several pairings possible: fewest violations wins over most available time',
    source:
      'FMCSA 2020 HOS FAQ Q4: "the pairing that should be used is the pairing that results in no violations or the fewest violations … If all options result in the same number … the most available on-duty and driving time". Pairing the 2 h break with the 8 h sleeper would leave 6.5 h of driving but puts 30 min of driving past the 14th hour; pairing the 3 h break avoids it (4.5 h left)',
    steps: [['D', 3], ['ON', 1], ['OFF', 3], ['D', 2], ['ON', 1], ['OFF', 2], ['D', 4.5], ['SB', 8]],
    clocks: { hoursDriven: 6.5, onDutyHours: 9.5, driveRemaining: 4.5, windowRemaining: 4.5 },
    periodStart: 7,
    violations: [],
  },
  {
    name: '14-hour window: on-duty work after the 14th hour is allowed, driving is not',
    source:
      '49 CFR 395.3(a)(2); J. J. Keller, "14-hour rule" ("a driver may continue to perform non-driving duties after the 14th hour"): on duty 6 a.m., window closes 8 p.m., loading until 9 p.m., then 30 min of driving',
    start: 6,
    steps: [['ON', 1], ['D', 4], ['OFF', 0.5], ['D', 4], ['ON', 5.5], ['D', 0.5]],
    clocks: { hoursDriven: 8.5, windowRemaining: 0 },
    limitedBy: 'WINDOW',
    driveHours: 0,
    violations: [['WINDOW', 21, 0.5]],
  },
  {
    name: '30-minute break satisfied by on-duty not-driving time',
    source:
      '49 CFR 395.3(a)(3)(ii) as amended 2020 (85 FR 33396): the break may be any 30 consecutive minutes not driving — on duty not driving, off duty, sleeper berth or a combination',
    steps: [['D', 8], ['ON', 0.5], ['D', 3]],
    clocks: { hoursSinceBreak: 3, hoursDriven: 11 },
    violations: [],
  },
  {
    name: '30-minute break made of 15 min on duty + 15 min off duty',
    source: 'Same rule: "or any combination of these taken consecutively"',
    steps: [['D', 8], ['ON', 0.25], ['OFF', 0.25], ['D', 2]],
    clocks: { hoursSinceBreak: 2 },
    violations: [],
  },
  {
    name: 'Driving past 8 hours without a 30-minute interruption',
    source: 'Same rule; FMCSA logbook examples 5 and 8 ("driving past the 8-hour mark with no break")',
    steps: [['D', 8], ['ON', 0.25], ['D', 1]],
    clocks: { hoursSinceBreak: 9 },
    violations: [['BREAK', 8.25, 1]],
  },
  {
    name: '70 hours / 8 days: the recap day drops off at midnight',
    source:
      '49 CFR 395.3(b)(2); FMCSA guide, "60/70-hour limit" (rolling period, oldest day drops off): 9 h on duty on days 1–7 (63 h); on day 8 the driver reaches 70 h after 1 h on duty + 6 h driving and drives 1 h more',
    steps: [['OFF', 6], ...Array.from({ length: 7 }, (): Step[] => [['ON', 1], ['D', 8], ['OFF', 15]]).flat(), ['ON', 1], ['D', 7]],
    clocks: { cycleHoursUsed: 71, cycleHoursRecapturedTomorrow: 9 },
    violations: [['CYCLE', clock(8, 13), 1]],
  },
  {
    name: '70 hours / 8 days: after midnight the cycle is recalculated without day 1',
    source: 'Same example, at 00:00 on day 9: 71 − 9 = 62 h used',
    steps: [['OFF', 6], ...Array.from({ length: 7 }, (): Step[] => [['ON', 1], ['D', 8], ['OFF', 15]]).flat(), ['ON', 1], ['D', 7], ['OFF', 10]],
    clocks: { cycleHoursUsed: 62 },
    violations: [['CYCLE', clock(8, 13), 1]],
  },
  {
    name: '34-hour restart resets the cycle',
    source: '49 CFR 395.3(c): any period of 7/8 consecutive days may end with the beginning of an off-duty period of 34 or more consecutive hours',
    steps: [['OFF', 6], ...Array.from({ length: 7 }, (): Step[] => [['ON', 1], ['D', 8], ['OFF', 15]]).flat(), ['ON', 1], ['D', 6], ['OFF', 34]],
    clocks: { cycleHoursUsed: 0 },
    driveHours: 8,
    violations: [],
  },
  {
    name: '33¾ hours off is no restart: only the daily recap applies',
    source: '49 CFR 395.3(c) (34 consecutive hours); days 2–7 (54 h) and day 8 (7 h) are still in the 8 days',
    steps: [['OFF', 6], ...Array.from({ length: 7 }, (): Step[] => [['ON', 1], ['D', 8], ['OFF', 15]]).flat(), ['ON', 1], ['D', 6], ['OFF', 33.75]],
    clocks: { cycleHoursUsed: 61 },
    violations: [],
  },
  {
    name: '16-hour short-haul exception: driving until the 16th hour',
    source:
      '49 CFR 395.1(o); FMCSA "Hours of Service Logbook Examples" 12 (16-hour driving window, no violation): on duty 6 a.m., released by 10 p.m., driving until 9:30 p.m.',
    rules: ruleSet('US_PROPERTY_70_8', { shortHaul16Hour: true }),
    start: 6,
    steps: [['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['ON', 4], ['D', 1.5]],
    clocks: { hoursDriven: 9.5, windowRemaining: 0.5 },
    violations: [],
  },
  {
    name: '16-hour exception used twice within 7 days',
    source: '49 CFR 395.1(o)(3); FMCSA logbook example 13 (with violations): the second long day in the same week falls back to 14 hours',
    rules: ruleSet('US_PROPERTY_70_8', { shortHaul16Hour: true }),
    start: 6,
    steps: [['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['ON', 4], ['D', 1.5], ['OFF', 10], ['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['ON', 4], ['D', 1.5]],
    violations: [['WINDOW', clock(2, 21.5), 1.5]],
  },
  {
    name: 'Adverse driving conditions: 13 hours of driving within 16',
    source: '49 CFR 395.1(b)(1) as amended 2020: the 11-hour and 14-hour limits may each be extended by up to 2 hours',
    rules: ruleSet('US_PROPERTY_70_8', { adverseDrivingConditions: true }),
    steps: [['D', 7], ['OFF', 0.5], ['D', 6.5]],
    clocks: { hoursDriven: 13.5 },
    violations: [['DRIVE', 13.5, 0.5]],
  },
];

describe('worked cases', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const rules = c.rules ?? US;
    const timeline = tl(at(c.start ?? 0), c.steps);
    const s = fold(rules, timeline);
    const clocks = clocksOf(s);
    for (const [k, v] of Object.entries(c.clocks ?? {})) expect(clocks[k as keyof HosClocks], `${k} (${c.source})`).toBeCloseTo(v as number, 6);
    if (c.periodStart !== undefined) expect(clocks.periodStart).toBe(at(c.periodStart));
    const a = availability(s);
    if (c.driveHours !== undefined) expect(a.driveHours).toBeCloseTo(c.driveHours, 6);
    if (c.limitedBy) expect(a.limitedBy).toBe(c.limitedBy);
    const v = violationsOf(s).map((x) => [x.kind, +((x.at - T0) / 3_600_000).toFixed(4), +x.overHours.toFixed(4)]);
    expect(v).toEqual(c.violations);
    // The replay (evaluate) and the incremental fold agree.
    const e = evaluate(timeline, rules, timeline[timeline.length - 1]!.end);
    expect(e.violations.length).toBe(c.violations.length);
    expect(e.clocks.hoursDriven).toBeCloseTo(clocks.hoursDriven, 9);
  });

  it('a short split period stays counted until its long partner comes (then violations fall away)', () => {
    // J. J. Keller Institute example at 5 p.m., before the sleeper period: counted pessimistically, the
    // window closed at 3 p.m.; once the 7-hour sleeper period pairs with the 3-hour break, it did not.
    const start = at(1);
    const before = fold(US, tl(start, [['ON', 0.5], ['D', 6], ['ON', 0.5], ['OFF', 3], ['ON', 0.5], ['D', 2], ['OFF', 0.5], ['D', 3]]));
    expect(violationsOf(before).map((v) => [v.kind, v.overHours])).toEqual([['WINDOW', 2]]);
    const after = fold(US, tl(start, [['ON', 0.5], ['D', 6], ['ON', 0.5], ['OFF', 3], ['ON', 0.5], ['D', 2], ['OFF', 0.5], ['D', 3], ['ON', 1.5], ['SB', 7]]));
    expect(violationsOf(after)).toEqual([]);
  });

  it('a 10-hour off-duty period without 7 sleeper hours loses the pause of the short break', () => {
    // J. J. Keller Institute: "If the driver takes 10-consecutive hours off-duty and not at least seven
    // consecutive hours in the sleeper, the driver loses the pause of the 14-hour clock".
    const s = fold(US, tl(at(1), [['ON', 0.5], ['D', 6], ['ON', 0.5], ['OFF', 3], ['ON', 0.5], ['D', 2], ['OFF', 0.5], ['D', 3], ['ON', 1.5], ['OFF', 10]]));
    expect(violationsOf(s).map((v) => [v.kind, v.overHours])).toEqual([['WINDOW', 2]]);
    // With the 10 hours in the sleeper berth, the same day is compliant.
    const sb = fold(US, tl(at(1), [['ON', 0.5], ['D', 6], ['ON', 0.5], ['OFF', 3], ['ON', 0.5], ['D', 2], ['OFF', 0.5], ['D', 3], ['ON', 1.5], ['SB', 10]]));
    expect(violationsOf(sb)).toEqual([]);
  });

  it('the rejected pairing in the FAQ Q4 case would have more time but a violation', () => {
    const s = fold(US, tl(T0, [['D', 3], ['ON', 1], ['OFF', 3], ['D', 2], ['ON', 1], ['OFF', 2], ['D', 4.5], ['SB', 8]]));
    expect(evaluate(tl(T0, [['D', 3], ['ON', 1], ['OFF', 3], ['D', 2], ['ON', 1], ['OFF', 2], ['D', 4.5], ['SB', 8]]), US, s.at).explanation.join('\n')).toMatch(
      /ways of pairing split-sleeper periods considered; the one with the fewest violations/,
    );
    // Without the 3-hour break (on duty instead), the only pairing left is 2 h + 8 h, with 30 min over.
    const alt = fold(US, tl(T0, [['D', 3], ['ON', 4], ['D', 2], ['ON', 1], ['OFF', 2], ['D', 4.5], ['SB', 8]]));
    expect(violationsOf(alt).map((v) => [v.kind, v.overHours])).toEqual([['WINDOW', 0.5]]);
    expect(clocksOf(alt).driveRemaining).toBeCloseTo(6.5, 9);
  });
});
