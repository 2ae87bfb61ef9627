/**
 * Plan times are exact: integer milliseconds, each segment ending where the next begins, and each
 * segment's duration_hours giving its span to the millisecond (issue 10, item 2).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, ruleSet, type ClockSnapshot } from '../hos/index.js';
import { timeZoneAt } from './local-time.js';
import { planRoute } from './planner.js';
import { buildInput, CITIES, stop } from './test-support.js';
import type { PlanResult, PlanStop } from './types.js';

const RUNS = Number(process.env.PLANNER_TIMES_RUNS ?? 300);
const cityNames = Object.keys(CITIES);

/** The problems with a plan's local times: each the same instant as its UTC time, in its place's zone. */
function localProblems(plan: PlanResult): string[] {
  const out: string[] = [];
  for (const s of plan.segments) {
    if (Date.parse(s.local_start_time!) !== Date.parse(s.start_time) || Date.parse(s.local_end_time!) !== Date.parse(s.end_time)) out.push(`segment ${s.sequence}: local times ${s.local_start_time} → ${s.local_end_time}`);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?[+-]\d\d:\d\d$/.test(s.local_start_time!)) out.push(`segment ${s.sequence}: ${s.local_start_time} is not local ISO with an offset`);
    if (s.type === 'drive') {
      if (s.from.time_zone !== timeZoneAt(s.from) || s.to.time_zone !== timeZoneAt(s.to)) out.push(`segment ${s.sequence}: drive zones ${s.from.time_zone} → ${s.to.time_zone}`);
    } else if (s.time_zone !== timeZoneAt(s)) out.push(`segment ${s.sequence}: zone ${s.time_zone}`);
  }
  for (const st of plan.stops) {
    if (st.timeZone !== timeZoneAt(st)) out.push(`stop ${st.sequence}: zone ${st.timeZone}`);
    if (Date.parse(st.localArrivalTime!) !== Date.parse(st.arrivalTime) || Date.parse(st.localDepartureTime!) !== Date.parse(st.departureTime)) out.push(`stop ${st.sequence}: local times`);
  }
  return out;
}

/** The problems with a plan's times (empty when exact). */
function timeProblems(plan: PlanResult, departure: number): string[] {
  const out: string[] = [];
  let t = departure;
  if (plan.departureTime !== new Date(departure).toISOString()) out.push(`departureTime ${plan.departureTime}`);
  for (const s of plan.segments) {
    const start = Date.parse(s.start_time);
    const end = Date.parse(s.end_time);
    if (start !== t) out.push(`segment ${s.sequence} starts at ${s.start_time}, the previous ended at ${new Date(t).toISOString()}`);
    if (end < start) out.push(`segment ${s.sequence} ends before it starts`);
    if (Math.round(s.duration_hours * HOUR_MS) !== end - start) out.push(`segment ${s.sequence}: duration_hours ${s.duration_hours} is not ${end - start} ms`);
    // Durations computed in hours are rounded to whole seconds once (waits last until the window opens).
    if (s.type !== 'wait' && (end - start) % 1000 !== 0) out.push(`segment ${s.sequence} (${s.type}) lasts ${end - start} ms, not whole seconds`);
    t = end;
  }
  if (Date.parse(plan.arrivalTime) !== t) out.push(`arrivalTime ${plan.arrivalTime} is not the last segment's end`);
  for (const s of plan.stops) {
    const ends = [plan.departureTime, ...plan.segments.map((x) => x.end_time)];
    if (s.sequence > 1 && !ends.includes(s.arrivalTime)) out.push(`stop ${s.sequence} arrives at ${s.arrivalTime}, no segment ends then`);
  }
  return out;
}

describe('plan times', () => {
  it('a 2-hour drive from 13:00:00 ends at 15:00:00.000 (6 h driven, the break falls after 2 more)', () => {
    const departure = Date.parse('2026-03-02T13:00:00Z');
    const plan = planRoute(
      buildInput([stop('Dallas, TX', { type: 'ORIGIN' }), stop('Chicago, IL', { type: 'DELIVERY' })], {
        departureTime: departure,
        history: { snapshot: { hoursDriven: 6, onDutyHours: 6.5, hoursSinceBreak: 6, cycleHoursUsed: 20 } },
        fuel: { enabled: false, tankGallons: 150, mpg: 6.5, startingGallons: 150, defaultPricePerGallon: 3.85, prices: [] },
      }),
    );
    expect(plan.segments[0]).toMatchObject({ type: 'drive', start_time: '2026-03-02T13:00:00.000Z', end_time: '2026-03-02T15:00:00.000Z', duration_hours: 2 });
    expect(plan.segments[1]).toMatchObject({ type: 'rest', rest_type: 'break', start_time: '2026-03-02T15:00:00.000Z', end_time: '2026-03-02T15:30:00.000Z', duration_hours: 0.5 });
    expect(timeProblems(plan, departure)).toEqual([]);
  });

  it('a drive of 110 miles at 55 mph lasts exactly 2 hours', () => {
    const departure = Date.parse('2026-03-02T13:00:00Z');
    const input = buildInput([stop('Dallas, TX', { type: 'ORIGIN' }), stop('Chicago, IL', { type: 'DELIVERY' })], {
      departureTime: departure,
      fuel: { enabled: false, tankGallons: 150, mpg: 6.5, startingGallons: 150, defaultPricePerGallon: 3.85, prices: [] },
    });
    input.legs[0]!.distanceMiles = 110;
    const plan = planRoute(input);
    expect(plan.segments).toHaveLength(1);
    expect(plan.segments[0]).toMatchObject({ end_time: '2026-03-02T15:00:00.000Z', duration_hours: 2 });
  });

  it('gives local times: a drive from Dallas (Central) that ends in the Eastern zone, each end in its own zone', () => {
    const departure = Date.parse('2026-03-02T12:00:00Z');
    const plan = planRoute(buildInput([stop('Dallas, TX', { type: 'ORIGIN' }), stop('Newark, NJ', { type: 'DELIVERY' })], { departureTime: departure }));
    expect(plan.stops[0]).toMatchObject({ timeZone: 'America/Chicago', localArrivalTime: '2026-03-02T06:00:00-06:00' });
    expect(plan.stops[1]!.timeZone).toBe('America/New_York');
    expect(plan.stops[1]!.localArrivalTime).toMatch(/-05:00$/);
    expect(plan.segments[0]).toMatchObject({ type: 'drive', local_start_time: '2026-03-02T06:00:00-06:00', from: { time_zone: 'America/Chicago' } });
    const last = plan.segments.filter((s) => s.type === 'drive').at(-1)!;
    expect(last.type === 'drive' && last.to.time_zone).toBe('America/New_York');
    const rest = plan.segments.find((s) => s.type === 'rest')!;
    expect(rest.type === 'rest' && rest.time_zone).toMatch(/^America\//);
    expect(localProblems(plan)).toEqual([]);
  });

  const snapshotArb: fc.Arbitrary<ClockSnapshot> = fc
    .record({ driven: fc.double({ min: 0, max: 11, noNaN: true }), extra: fc.double({ min: 0, max: 2, noNaN: true }), sinceBreak: fc.double({ min: 0, max: 1, noNaN: true }), cycle: fc.double({ min: 0, max: 50, noNaN: true }) })
    .map(({ driven, extra, sinceBreak, cycle }) => {
      const hoursSinceBreak = Math.min(8, driven) * sinceBreak;
      const onDutyHours = Math.min(14, driven + extra + (hoursSinceBreak < driven ? 0.5 : 0));
      return { hoursDriven: driven, onDutyHours, hoursSinceBreak, cycleHoursUsed: Math.min(70, onDutyHours + cycle) };
    });

  it(`${RUNS} random plans: contiguous to the millisecond, durations exact`, () => {
    const base = Date.parse('2026-03-02T00:00:00Z');
    fc.assert(
      fc.property(
        fc.record({
          // Any millisecond of a month, odd milliseconds included.
          departure: fc.integer({ min: 0, max: 30 * 24 * HOUR_MS }),
          stops: fc.array(
            fc.record({
              city: fc.constantFrom(...cityNames),
              dLat: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
              dock: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5, noNaN: true })),
              appointmentIn: fc.option(fc.integer({ min: 0, max: 72 * HOUR_MS }), { nil: undefined }),
            }),
            { minLength: 2, maxLength: 5 },
          ),
          snapshot: fc.option(snapshotArb, { nil: undefined }),
          speed: fc.double({ min: 40, max: 70, noNaN: true }),
          fuel: fc.boolean(),
          rules: fc.constantFrom('US_PROPERTY_70_8' as const, 'US_PROPERTY_60_7' as const),
        }),
        (trip) => {
          const departure = base + trip.departure;
          const stops: PlanStop[] = trip.stops.map((s, i) => ({
            name: `${s.city} #${i + 1}`,
            latitude: CITIES[s.city]!.latitude + s.dLat,
            longitude: CITIES[s.city]!.longitude,
            type: i === 0 ? 'ORIGIN' : 'WAYPOINT',
            dockDurationHours: s.dock,
            ...(s.appointmentIn !== undefined ? { appointment: { earliest: departure + s.appointmentIn } } : {}),
          }));
          const plan = planRoute(
            buildInput(stops, {
              departureTime: departure,
              rules: ruleSet(trip.rules),
              averageSpeedMph: trip.speed,
              history: trip.snapshot ? { snapshot: trip.snapshot } : { timeline: [] },
              fuel: { enabled: trip.fuel, tankGallons: 200, mpg: 6.5, startingGallons: 120, defaultPricePerGallon: 3.85, prices: [] },
            }),
          );
          const problems = [...timeProblems(plan, departure), ...localProblems(plan)];
          expect(problems, JSON.stringify(problems.slice(0, 5))).toEqual([]);
        },
      ),
      { numRuns: RUNS, seed: 20261125 },
    );
  }, 120_000);
});
