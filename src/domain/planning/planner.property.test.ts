/**
 * The random-trip audit: thousands of random trips across the US (random stops, starting clocks,
 * appointments, docks, fuel, sites and rule sets) are planned, and every plan is checked
 * independently: no HOS violation when its segments are replayed after the driver's history,
 * segments contiguous in time, distances and durations consistent with the legs and the speed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, ruleSet, snapshotTimeline, type ClockSnapshot } from '../hos/index.js';
import { planRoute } from './planner.js';
import { buildInput, CITIES, planProblems } from './test-support.js';
import type { PlanStop, RestSite, StopType } from './types.js';

const RUNS = Number(process.env.PLANNER_PROPERTY_RUNS ?? 5000);
const cityNames = Object.keys(CITIES);
const departure = Date.parse('2026-03-02T12:00:00Z');

const quarterHours = (max: number) => fc.integer({ min: 0, max: max * 4 }).map((q) => q / 4);

const stopArb = fc.record({
  city: fc.constantFrom(...cityNames),
  jitterLat: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
  jitterLng: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
  type: fc.constantFrom<StopType>('PICKUP', 'DELIVERY', 'WAYPOINT'),
  dock: fc.oneof(fc.constant(0), quarterHours(6)),
  appointment: fc.option(fc.record({ startsIn: quarterHours(96), width: fc.option(quarterHours(12), { nil: undefined }) }), { nil: undefined }),
});

/** A snapshot the rules allow: driving within the window, break clock within driving, cycle at least the driving. */
const snapshotArb: fc.Arbitrary<ClockSnapshot> = fc
  .record({ driven: quarterHours(11), extraWindow: quarterHours(3), sinceBreak: fc.double({ min: 0, max: 1, noNaN: true }), extraCycle: quarterHours(59) })
  .map(({ driven, extraWindow, sinceBreak, extraCycle }) => {
    const hoursSinceBreak = Math.round(Math.min(8, driven) * sinceBreak * 4) / 4;
    // A break in this window (since-break below driven) took at least 30 minutes of it.
    const onDutyHours = Math.min(14, driven + extraWindow + (hoursSinceBreak < driven ? 0.5 : 0));
    return { hoursDriven: driven, onDutyHours, hoursSinceBreak, cycleHoursUsed: Math.min(70, onDutyHours + extraCycle) };
  });

const siteArb = fc.record({
  city: fc.constantFrom(...cityNames),
  dLat: fc.double({ min: -1, max: 1, noNaN: true }),
  dLng: fc.double({ min: -1, max: 1, noNaN: true }),
  type: fc.constantFrom<RestSite['type']>('TRUCK_STOP', 'REST_AREA', 'FUEL_STATION'),
});

const tripArb = fc.record({
  stops: fc.array(stopArb, { minLength: 2, maxLength: 5 }),
  snapshot: fc.option(snapshotArb, { nil: undefined }),
  speed: fc.integer({ min: 45, max: 65 }),
  fuel: fc.record({ enabled: fc.boolean(), tank: fc.integer({ min: 100, max: 300 }), mpg: fc.double({ min: 5, max: 8, noNaN: true }), startFraction: fc.double({ min: 0.2, max: 1, noNaN: true }) }),
  sites: fc.array(siteArb, { maxLength: 6 }),
  rules: fc.constantFrom('US_PROPERTY_70_8', 'US_PROPERTY_70_8', 'US_PROPERTY_60_7' as const),
});

describe('random-trip audit', () => {
  it(`plans ${RUNS} random trips, every one compliant and consistent`, () => {
    fc.assert(
      fc.property(tripArb, (trip) => {
        const stops: PlanStop[] = trip.stops.map((s, i) => ({
          name: `${s.city} #${i + 1}`,
          latitude: CITIES[s.city]!.latitude + s.jitterLat,
          longitude: CITIES[s.city]!.longitude + s.jitterLng,
          type: i === 0 ? 'ORIGIN' : s.type,
          dockDurationHours: s.dock,
          ...(s.appointment
            ? {
                appointment: {
                  earliest: departure + s.appointment.startsIn * HOUR_MS,
                  ...(s.appointment.width !== undefined ? { latest: departure + (s.appointment.startsIn + s.appointment.width) * HOUR_MS } : {}),
                },
              }
            : {}),
        }));
        const rules = ruleSet(trip.rules);
        const input = buildInput(stops, {
          rules,
          averageSpeedMph: trip.speed,
          history: trip.snapshot ? { snapshot: trip.snapshot } : { timeline: [] },
          fuel: { enabled: trip.fuel.enabled, tankGallons: trip.fuel.tank, mpg: trip.fuel.mpg, startingGallons: trip.fuel.tank * trip.fuel.startFraction, defaultPricePerGallon: 3.85, prices: [] },
          restSites: trip.sites.map((x, i) => ({ name: `Site ${i}`, type: x.type, latitude: CITIES[x.city]!.latitude + x.dLat, longitude: CITIES[x.city]!.longitude + x.dLng })),
        });
        const plan = planRoute(input);
        const history = trip.snapshot ? snapshotTimeline(trip.snapshot, departure, rules) : [];
        const problems = planProblems(input, plan, history);
        expect(problems, JSON.stringify({ trip, problems: problems.slice(0, 5) })).toEqual([]);
        expect(plan.summary.hosViolations).toBe(0);
      }),
      { numRuns: RUNS, seed: 20261122 },
    );
  }, 600_000);
});
