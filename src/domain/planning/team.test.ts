/**
 * Team plans (issue 20, the planner's part): two drivers share the truck; while one drives the other is in
 * the sleeper berth. Every claim is checked against each driver's own log by the HOS engine's auditor, not
 * by the planner's bookkeeping.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audit, HOUR_MS, ruleSet, type DutyPeriod } from '../hos/index.js';
import { planRoute, SWAP_HOURS } from './planner.js';
import { buildInput, CITIES, stop } from './test-support.js';
import type { PlanInput, PlanResult, PlanStop, Segment } from './types.js';

const T0 = Date.parse('2026-03-02T12:00:00Z');
const IDS: [string, string] = ['drv_rosa', 'drv_omar'];
const NAMES: [string, string] = ['Rosa Diaz', 'Omar Haddad'];
const rested = (at: number): DutyPeriod[] => [{ status: 'OFF_DUTY', start: at - 34 * HOUR_MS, end: at }];
/** Rested, then `hours` of driving (a 30-minute break after 7.5 h) ending at `at`. */
function drove(at: number, hours: number): DutyPeriod[] {
  const first = Math.min(hours, 7.5);
  const second = hours - first;
  let t = at - (hours + (second > 0 ? 0.5 : 0)) * HOUR_MS;
  const out: DutyPeriod[] = [{ status: 'OFF_DUTY', start: t - 34 * HOUR_MS, end: t }];
  out.push({ status: 'ON_DUTY_DRIVING', start: t, end: (t += first * HOUR_MS) });
  if (second > 0) {
    out.push({ status: 'OFF_DUTY', start: t, end: (t += 0.5 * HOUR_MS) });
    out.push({ status: 'ON_DUTY_DRIVING', start: t, end: (t += second * HOUR_MS) });
  }
  return out;
}

function teamInput(stops: PlanStop[], a: DutyPeriod[], b: DutyPeriod[], extra: Partial<PlanInput> = {}): PlanInput {
  return buildInput(stops, { departureTime: T0, history: { timeline: a }, team: { driverIds: IDS, driverNames: NAMES, coDriverHistory: { timeline: b } }, ...extra });
}

/** Each driver's log (history + the trip as they log it) through the auditor: the violations from departure. */
function violationsOf(input: PlanInput, plan: PlanResult): string[][] {
  const histories = [(input.history as { timeline: DutyPeriod[] }).timeline, (input.team!.coDriverHistory as { timeline: DutyPeriod[] }).timeline];
  const rules = { ...input.rules, options: { ...input.rules.options, teamDriving: true } };
  return plan.teamTimelines!.map((trip, i) => audit([...histories[i]!, ...trip], rules).filter((v) => v.at >= input.departureTime).map((v) => v.explanation));
}

type Drive = Extract<Segment, { type: 'drive' }>;
const drives = (plan: PlanResult) => plan.segments.filter((s): s is Drive => s.type === 'drive');

/** The two timelines never have both drivers driving at once, and the drive segments are exactly the driving periods. */
function oneAtTheWheel(plan: PlanResult): void {
  const [a, b] = plan.teamTimelines!;
  const driving = (p: DutyPeriod[]) => p.filter((x) => x.status === 'ON_DUTY_DRIVING');
  for (const x of driving(a)) for (const y of driving(b)) expect(x.end <= y.start || y.end <= x.start, 'both drivers driving at once').toBe(true);
  const byDriver = (id: string) => drives(plan).filter((d) => d.driver_id === id).reduce((h, d) => h + (Date.parse(d.end_time) - Date.parse(d.start_time)), 0);
  const total = (p: DutyPeriod[]) => driving(p).reduce((h, x) => h + x.end - x.start, 0);
  expect(byDriver(IDS[0])).toBe(total(a));
  expect(byDriver(IDS[1])).toBe(total(b));
  for (const d of drives(plan)) expect(IDS).toContain(d.driver_id);
}

const DALLAS = stop('Dallas, TX', { type: 'ORIGIN' });
const LA = stop('Los Angeles, CA', { type: 'DELIVERY', dockDurationHours: 1 });

describe('team plans', () => {
  it('Dallas → Los Angeles with two fresh drivers arrives at least 30 % sooner than one driver; both logs audit clean', () => {
    const input = teamInput([DALLAS, LA], rested(T0), rested(T0));
    const team = planRoute(input);
    const solo = planRoute(buildInput([DALLAS, LA], { departureTime: T0, history: { timeline: rested(T0) } }));
    const teamHours = (Date.parse(team.arrivalTime) - T0) / HOUR_MS;
    const soloHours = (Date.parse(solo.arrivalTime) - T0) / HOUR_MS;
    expect(teamHours).toBeLessThanOrEqual(0.7 * soloHours);
    expect(violationsOf(input, team)).toEqual([[], []]);
    oneAtTheWheel(team);
    // Both drove, and they changed over at short stops the plan shows (no 10-hour stop of the truck).
    expect(new Set(drives(team).map((d) => d.driver_id))).toEqual(new Set(IDS));
    const changes = team.segments.filter((s) => s.type === 'wait' && s.reason.startsWith('Driver change'));
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect(c.duration_hours).toBeCloseTo(SWAP_HOURS, 6);
    // Each change names who takes the wheel: the driver of the next drive.
    for (const c of changes) {
      const next = team.segments.slice(team.segments.indexOf(c)).find((s): s is Drive => s.type === 'drive');
      expect(c.type === 'wait' && c.driver_id).toBe(next!.driver_id);
      // In words, by name: "Driver change: Omar Haddad takes the wheel, Rosa Diaz goes to the sleeper berth (…)".
      const [taker, giver] = next!.driver_id === IDS[0] ? NAMES : [NAMES[1], NAMES[0]];
      const reason = c.type === 'wait' ? c.reason : '';
      expect(reason).toMatch(new RegExp(`^Driver change: ${taker} takes the wheel, ${giver} goes to the sleeper berth \\(.+\\)$`));
      expect(reason).not.toMatch(/drv_/);
    }
    expect(team.segments.filter((s) => s.type === 'rest' && s.rest_type !== 'break')).toEqual([]);
    expect(team.summary.hosViolations).toBe(0);
    expect(team.summary.totalDistanceMiles).toBeCloseTo(solo.summary.totalDistanceMiles, 6);
  });

  it('starts with the other driver when the route’s driver has 2 h of driving left', () => {
    const input = teamInput([DALLAS, LA], drove(T0, 9), rested(T0));
    const plan = planRoute(input);
    expect(drives(plan)[0]!.driver_id).toBe(IDS[1]);
    // And says why: the form named the other driver first.
    expect(plan.warnings).toContain(`${input.team!.driverNames[1]} starts at the wheel: 8:00 of driving before a break or rest, against 2:00 for ${input.team!.driverNames[0]}.`);
    expect(violationsOf(input, plan)).toEqual([[], []]);
    oneAtTheWheel(plan);
    // And the other way round.
    const other = teamInput([DALLAS, LA], rested(T0), drove(T0, 9));
    expect(drives(planRoute(other))[0]!.driver_id).toBe(IDS[0]);
    expect(planRoute(other).warnings.join()).not.toMatch(/starts at the wheel/);
  });

  it.each(['US_PROPERTY_70_8', 'US_PROPERTY_60_7', 'TEXAS_INTRASTATE', 'CALIFORNIA_INTRASTATE', 'CANADA_CYCLE_1', 'CANADA_CYCLE_2'] as const)(
    'under %s: both logs audit clean by that rule set’s team provisions, and the team arrives sooner than one driver',
    (id) => {
      const rules = ruleSet(id);
      const input = teamInput([DALLAS, LA], rested(T0), rested(T0), { rules });
      const team = planRoute(input);
      const teamRules = ruleSet(id, { teamDriving: true });
      const histories = [rested(T0), rested(T0)];
      team.teamTimelines!.forEach((trip, i) => expect(audit([...histories[i]!, ...trip], teamRules).filter((v) => v.at >= T0)).toEqual([]));
      oneAtTheWheel(team);
      const solo = planRoute(buildInput([DALLAS, LA], { departureTime: T0, rules, history: { timeline: rested(T0) } }));
      expect(Date.parse(team.arrivalTime)).toBeLessThan(Date.parse(solo.arrivalTime));
    },
  );

  it('a one-driver plan is what it was (no driver ids, no team timelines)', () => {
    const plan = planRoute(buildInput([DALLAS, LA], { departureTime: T0 }));
    expect(plan.teamTimelines).toBeUndefined();
    expect(drives(plan).every((d) => d.driver_id === undefined)).toBe(true);
  });
});

describe('team plans: property', () => {
  const names = Object.keys(CITIES);
  const trip = fc
    .record({
      picks: fc.uniqueArray(fc.integer({ min: 0, max: names.length - 1 }), { minLength: 2, maxLength: 6 }),
      docks: fc.array(fc.constantFrom(0, 0.5, 1, 2), { minLength: 6, maxLength: 6 }),
      windows: fc.array(fc.option(fc.integer({ min: 4, max: 90 }), { nil: undefined }), { minLength: 6, maxLength: 6 }),
      drivenA: fc.double({ min: 0, max: 10.9, noNaN: true }),
      drivenB: fc.double({ min: 0, max: 10.9, noNaN: true }),
    })
    .map(({ picks, docks, windows, drivenA, drivenB }) => {
      const stops = picks.map((p, i): PlanStop => {
        const window = windows[i];
        return stop(names[p]!, {
          type: i === 0 ? 'ORIGIN' : i === picks.length - 1 ? 'DELIVERY' : 'WAYPOINT',
          dockDurationHours: i === 0 ? 0 : docks[i]!,
          ...(i > 0 && window !== undefined ? { appointment: { earliest: T0 + window * HOUR_MS, latest: T0 + (window + 6) * HOUR_MS } } : {}),
        });
      });
      return { stops, drivenA: Math.round(drivenA * 4) / 4, drivenB: Math.round(drivenB * 4) / 4 };
    });

  it('audits clean for each driver, one driver at the wheel at a time, never slower than the better driver alone', () => {
    let alternated = 0;
    fc.assert(
      fc.property(trip, ({ stops, drivenA, drivenB }) => {
        const a = drivenA > 0 ? drove(T0, drivenA) : rested(T0);
        const b = drivenB > 0 ? drove(T0, drivenB) : rested(T0);
        const input = teamInput(stops, a, b);
        const plan = planRoute(input);
        expect(violationsOf(input, plan)).toEqual([[], []]);
        oneAtTheWheel(plan);
        const alone = [a, b].map((h) => Date.parse(planRoute(buildInput(stops, { departureTime: T0, history: { timeline: h } })).arrivalTime));
        expect(Date.parse(plan.arrivalTime)).toBeLessThanOrEqual(Math.min(...alone));
        if (new Set(drives(plan).map((d) => d.driver_id)).size === 2) alternated++;
      }),
      { numRuns: 80, seed: 20 },
    );
    // The property is about team plans: most of them did change over.
    expect(alternated).toBeGreaterThan(20);
  });
});
