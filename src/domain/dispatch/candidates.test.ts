import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, ruleSet, type DutyPeriod } from '../hos/index.js';
import { planRoute } from '../planning/planner.js';
import { CITIES, nameNear, planProblems, straightLegs } from '../planning/test-support.js';
import type { FuelOptions, PlanStop, Point } from '../planning/types.js';
import { dispatchCandidates, formatHours, type CandidateDriver, type CandidateLoad } from './candidates.js';

const T0 = Date.parse('2026-03-02T12:00:00Z');
const FUEL: FuelOptions = { enabled: true, tankGallons: 150, mpg: 6.5, startingGallons: 150, defaultPricePerGallon: 3.85, prices: [] };

/** A history of `drivenHours` of driving (with the 30-minute break after 7.5 h) ending at `at`, after a 34-hour rest. */
function drivenBefore(at: number, drivenHours: number): DutyPeriod[] {
  if (drivenHours <= 0) return [{ status: 'OFF_DUTY', start: at - 34 * HOUR_MS, end: at }];
  const first = Math.min(drivenHours, 7.5);
  const second = drivenHours - first;
  const periods: DutyPeriod[] = [];
  let t = at - (drivenHours + (second > 0 ? 0.5 : 0)) * HOUR_MS;
  periods.push({ status: 'OFF_DUTY', start: t - 34 * HOUR_MS, end: t });
  periods.push({ status: 'ON_DUTY_DRIVING', start: t, end: (t += first * HOUR_MS) });
  if (second > 0) {
    periods.push({ status: 'OFF_DUTY', start: t, end: (t += 0.5 * HOUR_MS) });
    periods.push({ status: 'ON_DUTY_DRIVING', start: t, end: (t += second * HOUR_MS) });
  }
  return periods;
}

function load(stops: PlanStop[], extra: Partial<CandidateLoad> = {}): CandidateLoad {
  return { stops, legs: straightLegs(stops), averageSpeedMph: 55, restSites: [], nameNear, ...extra };
}

function driver(driverId: string, start: Point & { name: string }, firstStop: Point, drivenHours = 0, availableAt = T0): CandidateDriver & { timeline: DutyPeriod[] } {
  const timeline = drivenBefore(availableAt, drivenHours);
  return { driverId, start, availableAt, history: { timeline }, timeline, rules: ruleSet(), fuel: FUEL, deadhead: straightLegs([start, firstStop])[0]! };
}

const at = (name: string) => ({ name, ...CITIES[name]! });

describe('formatHours', () => {
  it('writes hours and minutes as a dispatcher reads them', () => {
    expect(formatHours(3 + 10 / 60)).toBe('3 h 10 min');
    expect(formatHours(0.75)).toBe('45 min');
    expect(formatHours(10)).toBe('10 h');
    expect(formatHours(1.999)).toBe('2 h');
  });
});

describe('dispatch candidates', () => {
  // Dallas → Memphis (~420 great-circle miles, 7.6 h at 55 mph): the pickup by T0 + 6 h, the delivery by T0 + 14 h.
  const pickup: PlanStop = { ...at('Dallas, TX'), type: 'PICKUP', dockDurationHours: 1, appointment: { latest: T0 + 6 * HOUR_MS } };
  const delivery: PlanStop = { ...at('Memphis, TN'), type: 'DELIVERY', dockDurationHours: 1, appointment: { latest: T0 + 14 * HOUR_MS } };
  const theLoad = load([pickup, delivery]);
  const near = driver('drv_near', { name: 'Fort Worth, TX', latitude: 32.7555, longitude: -97.3308 }, pickup);
  const far = driver('drv_far', { name: 'Waco, TX', latitude: 31.5493, longitude: -97.1467 }, pickup);
  const tired = driver('drv_tired', { name: 'Dallas yard', latitude: 32.78, longitude: -96.8 }, pickup, 10);

  it('ranks a fresh, near driver, then a far one, then a tired one as infeasible with the reason in words', () => {
    const ranked = dispatchCandidates(theLoad, [tired, far, near]);
    expect(ranked.map((c) => [c.driverId, c.feasible])).toEqual([
      ['drv_near', true],
      ['drv_far', true],
      ['drv_tired', false],
    ]);
    const [first, second, third] = ranked;
    expect(first!.reasons).toEqual([]);
    expect(first!.deadheadMiles).toBeLessThan(second!.deadheadMiles);
    expect(Date.parse(first!.arrivalTime!)).toBeLessThan(Date.parse(second!.arrivalTime!));
    expect(first!.departureTime).toBe(new Date(T0).toISOString());
    // 1 h of driving left: a 10-hour rest comes before the delivery, which is then hours late.
    expect(third!.reasons).toHaveLength(1);
    expect(third!.reasons[0]).toMatch(/^arrives at the delivery at Memphis, TN \d+ h( \d+ min)? after its window closes: a 10 h rest is due before the delivery at Memphis, TN$/);
    expect(third!.deadheadMiles).toBeLessThan(1);
    expect(third!.summary!.hosViolations).toBe(0);
  });

  it('planning a candidate with its input gives the plan it was shown', () => {
    for (const c of dispatchCandidates(theLoad, [near, far, tired])) expect(planRoute(c.input)).toEqual(c.plan);
  });

  it('sorts by deadhead or cost when asked, feasible first always', () => {
    const byDeadhead = dispatchCandidates(theLoad, [far, near, tired], 'deadhead');
    expect(byDeadhead.map((c) => c.driverId)).toEqual(['drv_near', 'drv_far', 'drv_tired']);
    const byCost = dispatchCandidates(theLoad, [far, near, tired], 'cost');
    expect(byCost.map((c) => c.driverId)).toEqual(['drv_near', 'drv_far', 'drv_tired']);
    expect(byCost[0]!.summary!.estimatedFuelCost).toBeLessThan(byCost[1]!.summary!.estimatedFuelCost);
  });

  it('starts a driver on a route where that route ends, at its arrival, and no one before departureNotBefore', () => {
    const busy = driver('drv_busy', at('Houston, TX'), pickup, 0, T0 + 3 * HOUR_MS);
    const later = dispatchCandidates(load([pickup, delivery], { departureNotBefore: T0 + HOUR_MS }), [busy, near]);
    const byId = new Map(later.map((c) => [c.driverId, c]));
    expect(byId.get('drv_busy')!.departureTime).toBe(new Date(T0 + 3 * HOUR_MS).toISOString());
    expect(byId.get('drv_near')!.departureTime).toBe(new Date(T0 + HOUR_MS).toISOString());
  });

  it('a trip the planner refuses is infeasible with the planner’s words', () => {
    const island = driver('drv_island', { name: 'Honolulu', latitude: 21.307, longitude: -157.858 }, pickup);
    const [c] = dispatchCandidates(theLoad, [{ ...island, deadhead: { distanceMiles: Number.NaN, geometry: island.deadhead.geometry } }]);
    expect(c!.feasible).toBe(false);
    expect(c!.plan).toBeNull();
    expect(c!.arrivalTime).toBeNull();
    expect(c!.reasons[0]).toEqual(expect.any(String));
  });
});

describe('dispatch candidates (property)', () => {
  const cityNames = Object.keys(CITIES);
  const driverArb = fc.record({
    city: fc.constantFrom(...cityNames),
    drivenQuarterHours: fc.integer({ min: 0, max: 40 }),
    availableInHours: fc.integer({ min: 0, max: 12 }),
  });
  const loadArb = fc.record({
    pickup: fc.constantFrom(...cityNames),
    delivery: fc.constantFrom(...cityNames),
    pickupLatestHours: fc.integer({ min: 1, max: 48 }),
    deliveryAfterPickupHours: fc.integer({ min: 2, max: 72 }),
    withWindows: fc.boolean(),
  });

  it('every feasible candidate has an audited plan keeping every appointment; every infeasible one misses one or cannot be planned', () => {
    const seen = { feasible: 0, infeasible: 0 };
    fc.assert(
      fc.property(fc.array(driverArb, { minLength: 1, maxLength: 4 }), loadArb, (drivers, l) => {
        fc.pre(l.pickup !== l.delivery);
        const pickupLatest = T0 + l.pickupLatestHours * HOUR_MS;
        const pickup: PlanStop = { ...at(l.pickup), type: 'PICKUP', dockDurationHours: 1, ...(l.withWindows ? { appointment: { latest: pickupLatest } } : {}) };
        const delivery: PlanStop = {
          ...at(l.delivery),
          type: 'DELIVERY',
          dockDurationHours: 1,
          ...(l.withWindows ? { appointment: { latest: pickupLatest + l.deliveryAfterPickupHours * HOUR_MS } } : {}),
        };
        const fleet = drivers.map((d, i) => driver(`drv_${i}`, at(d.city), pickup, d.drivenQuarterHours / 4, T0 + d.availableInHours * HOUR_MS));
        const ranked = dispatchCandidates(load([pickup, delivery]), fleet);
        expect(ranked).toHaveLength(fleet.length);
        // Feasible ones first.
        const firstInfeasible = ranked.findIndex((c) => !c.feasible);
        if (firstInfeasible >= 0) expect(ranked.slice(firstInfeasible).every((c) => !c.feasible)).toBe(true);
        for (const c of ranked) {
          const timeline = fleet.find((d) => d.driverId === c.driverId)!.timeline;
          // Checked here from the plan's own segments and stop times, not from the candidate code's verdict.
          const missed = c.plan ? [pickup, delivery].filter((s, i) => s.appointment?.latest !== undefined && Date.parse(c.plan!.stops[i + 1]!.arrivalTime) > s.appointment.latest) : [];
          seen[c.feasible ? 'feasible' : 'infeasible']++;
          if (c.feasible) {
            expect(c.plan).not.toBeNull();
            expect(planProblems(c.input, c.plan!, timeline)).toEqual([]);
            expect(missed).toEqual([]);
            expect(c.reasons).toEqual([]);
          } else {
            expect(c.plan === null || missed.length > 0).toBe(true);
            expect(c.reasons.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 60, seed: 18_19 },
    );
    // Not vacuous: both verdicts were put to the test.
    expect(seen.feasible).toBeGreaterThan(10);
    expect(seen.infeasible).toBeGreaterThan(10);
  });
});
