import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpolate } from '../geo/geodesy.js';
import { HOUR_MS, ruleSet } from '../hos/index.js';
import { formatIso } from './iso.js';
import { planRoute } from './planner.js';
import { optimizeStopOrder } from './stop-order.js';
import { buildInput, CITIES, planProblems, stop } from './test-support.js';
import type { PlanResult, Segment } from './types.js';

const rests = (p: PlanResult) => p.segments.filter((s): s is Extract<Segment, { type: 'rest' }> => s.type === 'rest');
const hours = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / HOUR_MS;

describe('planner: Dallas → Chicago → Newark, fresh driver', () => {
  const input = buildInput([stop('Dallas, TX', { type: 'ORIGIN' }), stop('Chicago, IL', { type: 'PICKUP', dockDurationHours: 2 }), stop('Newark, NJ', { type: 'DELIVERY', dockDurationHours: 1 })]);
  const plan = planRoute(input);

  it('is compliant, contiguous and consistent', () => {
    expect(planProblems(input, plan, [])).toEqual([]);
    expect(plan.summary.hosViolations).toBe(0);
  });

  it('takes the breaks and full rests a dispatcher expects, at named places along the way', () => {
    // ~1,500 great-circle miles at 55 mph is ~27 h of driving: two 10-hour rests and at least one 30-minute break.
    expect(plan.summary.totalDriveHours).toBeGreaterThan(26);
    const full = rests(plan).filter((r) => r.rest_type === 'full_rest');
    const breaks = rests(plan).filter((r) => r.rest_type === 'break');
    expect(full.length + rests(plan).filter((r) => r.rest_type === 'partial_rest').length).toBeGreaterThanOrEqual(2);
    expect(breaks.length).toBeGreaterThanOrEqual(1);
    for (const r of full) {
      expect(r.duration_hours).toBe(10);
      expect(r.hos_state_after).toMatchObject({ hours_driven: 0, on_duty_hours: 0, hours_since_break: 0, drive_hours_remaining: 11 });
      expect(r.location).toMatch(/^near /);
      expect(r.reason).toMatch(/10-hour rest/);
    }
    for (const b of breaks) expect(b.duration_hours).toBe(0.5);
    expect(plan.summary.restStops).toBe(full.length + rests(plan).filter((r) => r.rest_type === 'partial_rest').length);
    expect(plan.summary.breaks).toBe(breaks.length);
  });

  it('never drives more than 11 hours between rests, nor more than 8 without a break', () => {
    let sinceRest = 0;
    let sinceBreak = 0;
    for (const s of plan.segments) {
      if (s.type === 'drive') {
        sinceRest += s.duration_hours;
        sinceBreak += s.duration_hours;
      }
      if (s.type === 'rest' && s.rest_type !== 'break') sinceRest = 0;
      if (s.duration_hours >= 0.5 && s.type !== 'drive') sinceBreak = 0;
      expect(sinceRest).toBeLessThanOrEqual(11.001);
      expect(sinceBreak).toBeLessThanOrEqual(8.001);
    }
  });

  it('gives each stop an ETA and ends with the last dock', () => {
    expect(plan.stops.map((s) => s.name)).toEqual(['Dallas, TX', 'Chicago, IL', 'Newark, NJ']);
    const chicago = plan.stops[1]!;
    expect(hours(chicago.arrivalTime, chicago.departureTime)).toBeCloseTo(2, 5);
    expect(plan.arrivalTime).toBe(plan.stops[2]!.departureTime);
    expect(plan.segments[plan.segments.length - 1]).toMatchObject({ type: 'dock', location: 'Newark, NJ' });
  });

  it('plans fuel stops that keep the tank above its reserve and prices them', () => {
    expect(plan.summary.fuelStops).toBeGreaterThanOrEqual(1);
    const fuel = plan.segments.filter((s) => s.type === 'fuel');
    for (const f of fuel) {
      if (f.type !== 'fuel') continue;
      expect(f.price_per_gallon).toBe(3.85);
      expect(f.cost).toBeCloseTo(f.gallons * 3.85, 1);
    }
    // What the stops buy is reported apart from what the trip burns.
    expect(plan.summary.fuelPurchasedCost).toBeCloseTo(fuel.reduce((s, f) => s + (f.type === 'fuel' ? f.cost : 0), 0), 1);
    expect(plan.summary.fuelPurchasedGallons).toBeCloseTo(fuel.reduce((s, f) => s + (f.type === 'fuel' ? f.gallons : 0), 0), 1);
  });

  it('estimatedFuelCost is the fuel the trip burns (miles / mpg × price), not what the stops buy', () => {
    const { totalDistanceMiles, estimatedFuelCost, fuelBurnedGallons, fuelPurchasedCost } = plan.summary;
    expect(fuelBurnedGallons).toBeCloseTo(totalDistanceMiles / 6.5, 1);
    // No station prices known: every gallon, in the tank at departure or bought, is priced at 3.85.
    expect(estimatedFuelCost).toBeCloseTo((totalDistanceMiles / 6.5) * 3.85, 1);
    // The truck leaves with a full tank, so the stops buy less than the trip burns.
    expect(fuelPurchasedCost).toBeLessThan(estimatedFuelCost - 100);
  });
});

describe('planner: fuel cost', () => {
  type Fuel = Extract<Segment, { type: 'fuel' }>;
  /** An independent replay of the plan's segments: the tank holds fuel at its weighted-average price. */
  function replayBurnedCost(plan: PlanResult, mpg: number, startGallons: number, startPrice: number): { burned: number; tankGallons: number; tankPrice: number } {
    let gallons = startGallons;
    let price = startPrice;
    let burned = 0;
    for (const s of plan.segments) {
      if (s.type === 'drive') {
        burned += (s.distance_miles / mpg) * price;
        gallons -= s.distance_miles / mpg;
      } else if (s.type === 'fuel') {
        price = (gallons * price + s.gallons * s.price_per_gallon) / (gallons + s.gallons);
        gallons += s.gallons;
      }
    }
    return { burned, tankGallons: gallons, tankPrice: price };
  }

  it('prices the fuel burned at the planned purchase prices where fuel is bought and the default price for the tank at departure', () => {
    const stops = [stop('Dallas, TX'), stop('Newark, NJ')];
    const legs = buildInput(stops).legs;
    const g = legs[0]!.geometry;
    const along = (fraction: number) => g[Math.round(fraction * (g.length - 1))]!;
    const prices = [
      { name: 'Cheap Diesel', pricePerGallon: 3.1, ...along(0.4) },
      { name: 'Average Stop', pricePerGallon: 4.2, ...along(0.7) },
    ];
    const input = buildInput(stops, { fuel: { enabled: true, tankGallons: 200, mpg: 6.5, startingGallons: 80, defaultPricePerGallon: 4.5, prices } });
    const plan = planRoute(input);
    const fuel = plan.segments.filter((s): s is Fuel => s.type === 'fuel');
    expect(fuel.length).toBeGreaterThanOrEqual(1);
    const { summary } = plan;
    expect(summary.fuelBurnedGallons).toBeCloseTo(summary.totalDistanceMiles / 6.5, 1);
    const replay = replayBurnedCost(plan, 6.5, 80, 4.5);
    expect(summary.estimatedFuelCost).toBeCloseTo(replay.burned, 0);
    // Conservation: what was in the tank plus what was bought = what was burned + what is left.
    expect(80 * 4.5 + summary.fuelPurchasedCost).toBeCloseTo(summary.estimatedFuelCost + replay.tankGallons * replay.tankPrice, 0);
    // Cheaper diesel on the way: the trip burns for less than at the default price throughout, more than at the cheapest.
    expect(summary.estimatedFuelCost).toBeLessThan(summary.fuelBurnedGallons * 4.5);
    expect(summary.estimatedFuelCost).toBeGreaterThan(summary.fuelBurnedGallons * 3.1);
    expect(summary.fuelPurchasedGallons).toBeCloseTo(fuel.reduce((s, f) => s + f.gallons, 0), 1);
  });

  it('without fuel stops: the fuel burned at the default price, nothing purchased', () => {
    const input = buildInput([stop('Dallas, TX'), stop('Chicago, IL')], { fuel: { enabled: false, tankGallons: 150, mpg: 5, startingGallons: 150, defaultPricePerGallon: 4, prices: [] } });
    const { summary } = planRoute(input);
    expect(summary).toMatchObject({ fuelStops: 0, fuelPurchasedGallons: 0, fuelPurchasedCost: 0 });
    expect(summary.fuelBurnedGallons).toBeCloseTo(summary.totalDistanceMiles / 5, 1);
    expect(summary.estimatedFuelCost).toBeCloseTo((summary.totalDistanceMiles / 5) * 4, 1);
  });
});

describe('planner: starting clocks', () => {
  it('a driver who has already driven 10 hours rests before driving far', () => {
    const input = buildInput([stop('Dallas, TX'), stop('Chicago, IL')], {
      history: { snapshot: { hoursDriven: 10, onDutyHours: 10.5, hoursSinceBreak: 2, cycleHoursUsed: 40 } },
    });
    const plan = planRoute(input);
    const firstRest = plan.segments.findIndex((s) => s.type === 'rest' && s.rest_type !== 'break');
    const drivenBefore = plan.segments.slice(0, firstRest).reduce((h, s) => h + (s.type === 'drive' ? s.duration_hours : 0), 0);
    expect(drivenBefore).toBeLessThanOrEqual(1.0001);
    expect(plan.summary.hosViolations).toBe(0);
  });

  it('a driver at the end of the 70-hour cycle takes a 34-hour restart', () => {
    const input = buildInput([stop('Dallas, TX'), stop('Houston, TX')], {
      history: { snapshot: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 70 } },
    });
    const plan = planRoute(input);
    const restart = rests(plan).find((r) => r.duration_hours === 34);
    expect(restart?.reason).toMatch(/^34-hour restart/);
    expect(restart).toMatchObject({ rest_type: 'full_rest', restart: true });
    expect(restart?.hos_state_after.cycle_hours_used).toBe(0);
    // Every other rest says it is not one.
    expect(rests(plan).filter((r) => r !== restart).every((r) => r.restart === false)).toBe(true);
  });

  it('an ordinary 10-hour rest is not marked as a restart', () => {
    const plan = planRoute(buildInput([stop('Dallas, TX'), stop('Chicago, IL')]));
    const full = rests(plan).filter((r) => r.rest_type === 'full_rest');
    expect(full.length).toBeGreaterThan(0);
    expect(full.every((r) => r.restart === false && !/restart/.test(r.reason))).toBe(true);
  });
});

describe('planner: appointments and docks', () => {
  it('waits off duty for a window that opens later, and docks on duty', () => {
    const departure = Date.parse('2026-03-02T12:00:00Z');
    const input = buildInput([
      stop('Dallas, TX'),
      stop('Houston, TX', { type: 'DELIVERY', dockDurationHours: 2, appointment: { earliest: departure + 12 * HOUR_MS, latest: departure + 14 * HOUR_MS } }),
    ]);
    const plan = planRoute(input);
    const wait = plan.segments.find((s) => s.type === 'wait');
    expect(wait).toBeDefined();
    expect(Date.parse(wait!.end_time)).toBe(departure + 12 * HOUR_MS);
    expect(plan.stops[1]!.withinWindow).toBe(true);
    expect(plan.segments[plan.segments.length - 1]).toMatchObject({ type: 'dock', duration_hours: 2 });
    expect(planProblems(input, plan, [])).toEqual([]);
  });

  it('flags a stop that cannot be reached in its window', () => {
    const departure = Date.parse('2026-03-02T12:00:00Z');
    const input = buildInput([stop('Seattle, WA'), stop('Miami, FL', { type: 'DELIVERY', appointment: { earliest: departure, latest: departure + 24 * HOUR_MS } })]);
    const plan = planRoute(input);
    expect(plan.stops[1]!.withinWindow).toBe(false);
    expect(plan.stops[1]!.lateByHours).toBeGreaterThan(24);
    expect(plan.summary.appointmentsMissed).toBe(1);
    expect(plan.warnings.join()).toMatch(/cannot be reached within its appointment window/);
  });

  it('uses a long early wait as the short part of a sleeper-berth split when that arrives sooner', () => {
    // Arrive early at a pickup and wait ~3.4 h off duty; the window then runs out 2-3 h of driving short of
    // Memphis. A 7-hour sleeper period pairs with the wait (7/3 split) and gets there 3 h sooner than 10 h off.
    const departure = Date.parse('2026-03-02T06:00:00Z');
    const input = buildInput(
      [
        stop('Dallas, TX'),
        stop('Houston, TX', { type: 'PICKUP', appointment: { earliest: departure + 7.5 * HOUR_MS } }),
        stop('Memphis, TN', { type: 'DELIVERY' }),
      ],
      { departureTime: departure },
    );
    const plan = planRoute(input);
    expect(planProblems(input, plan, [])).toEqual([]);
    const partial = rests(plan).filter((r) => r.rest_type === 'partial_rest');
    expect(partial).toHaveLength(1);
    expect(partial[0]).toMatchObject({ duration_hours: 7, duty_status: 'SLEEPER_BERTH' });
    expect(partial[0]!.reason).toMatch(/split/);
    expect(rests(plan).filter((r) => r.rest_type === 'full_rest')).toHaveLength(0);
  });
});

describe('planner: the tenant’s own sites', () => {
  it('rests at a truck stop shortly before the clock runs out instead of on the shoulder', () => {
    const base = buildInput([stop('Dallas, TX'), stop('Chicago, IL')], { fuel: { ...buildInput([]).fuel, enabled: false } });
    const free = planRoute(base);
    const first = rests(free)[0]!;
    const driveBefore = free.segments[first.sequence - 2]!;
    if (driveBefore.type !== 'drive') throw new Error('expected a drive before the first rest');
    // A truck stop about 20 miles before where the first rest fell, a mile off the line.
    const onLine = interpolate(driveBefore.from, driveBefore.to, 1 - 20 / driveBefore.distance_miles);
    const site = { name: 'Pilot Travel Center #123', type: 'TRUCK_STOP' as const, latitude: onLine.latitude + 0.01, longitude: onLine.longitude };
    const plan = planRoute({ ...base, restSites: [site] });
    expect(rests(plan)[0]!.location).toBe('Pilot Travel Center #123');
    expect(planProblems(base, plan, [])).toEqual([]);
  });
});

describe('planner: fuel prices', () => {
  it('buys where diesel is cheapest when prices are known', () => {
    const stops = [stop('Dallas, TX'), stop('Newark, NJ')];
    const legs = buildInput(stops).legs;
    const along = (fraction: number) => {
      const g = legs[0]!.geometry;
      return g[Math.round(fraction * (g.length - 1))]!;
    };
    const prices = [
      { name: 'Pricey Fuel', pricePerGallon: 4.9, ...along(0.3) },
      { name: 'Cheap Diesel', pricePerGallon: 3.1, ...along(0.4) },
      { name: 'Average Stop', pricePerGallon: 4.2, ...along(0.7) },
    ];
    const input = buildInput(stops, { fuel: { enabled: true, tankGallons: 200, mpg: 6.5, startingGallons: 80, defaultPricePerGallon: 4.5, prices } });
    const plan = planRoute(input);
    const fuel = plan.segments.filter((s): s is Extract<Segment, { type: 'fuel' }> => s.type === 'fuel');
    const cheap = fuel.find((f) => f.location === 'Cheap Diesel');
    expect(cheap).toBeDefined();
    expect(cheap!.price_per_gallon).toBe(3.1);
    expect(fuel.find((f) => f.location === 'Pricey Fuel')).toBeUndefined();
    // The cheap stop fills most of the tank.
    expect(cheap!.gallons).toBeGreaterThan(100);
    expect(planProblems(input, plan, [])).toEqual([]);
  });
});

describe('planner: rule sets', () => {
  it('plans under the 60-hour/7-day rule and Texas intrastate limits without violations', () => {
    for (const id of ['US_PROPERTY_60_7', 'TEXAS_INTRASTATE', 'CALIFORNIA_INTRASTATE', 'CANADA_CYCLE_1'] as const) {
      const input = buildInput([stop('El Paso, TX'), stop('Houston, TX')], { rules: ruleSet(id) });
      const plan = planRoute(input);
      expect(planProblems(input, plan, []), id).toEqual([]);
    }
  });
});

describe('stop order optimisation', () => {
  const departure = Date.parse('2026-03-02T12:00:00Z');
  it('keeps the origin first and finds the shortest order', () => {
    const stops = [stop('Dallas, TX'), stop('Newark, NJ'), stop('Memphis, TN'), stop('Columbus, OH')];
    const order = optimizeStopOrder(stops, { departureTime: departure, averageSpeedMph: 55 }).map((s) => s.name);
    expect(order).toEqual(['Dallas, TX', 'Memphis, TN', 'Columbus, OH', 'Newark, NJ']);
  });

  it('puts each pickup before its delivery', () => {
    const stops = [
      stop('Dallas, TX'),
      stop('Memphis, TN', { type: 'DELIVERY', shipmentId: 'A' }),
      stop('Chicago, IL', { type: 'PICKUP', shipmentId: 'A' }),
    ];
    const order = optimizeStopOrder(stops, { departureTime: departure, averageSpeedMph: 55 }).map((s) => s.name);
    expect(order).toEqual(['Dallas, TX', 'Chicago, IL', 'Memphis, TN']);
  });

  it('respects appointment windows over distance', () => {
    const stops = [
      stop('Dallas, TX'),
      stop('Houston, TX', { appointment: { earliest: departure + 40 * HOUR_MS, latest: departure + 44 * HOUR_MS } }),
      stop('El Paso, TX', { appointment: { latest: departure + 14 * HOUR_MS } }),
    ];
    const order = optimizeStopOrder(stops, { departureTime: departure, averageSpeedMph: 55 }).map((s) => s.name);
    expect(order).toEqual(['Dallas, TX', 'El Paso, TX', 'Houston, TX']);
  });

  it('orders ten stops', () => {
    const names = Object.keys(CITIES).slice(0, 10);
    const order = optimizeStopOrder(names.map((n) => stop(n)), { departureTime: departure, averageSpeedMph: 55 });
    expect(order).toHaveLength(10);
    expect(order[0]!.name).toBe(names[0]);
    expect(new Set(order.map((s) => s.name)).size).toBe(10);
  });
});

describe('ISO formatting', () => {
  it('writes exactly what Date#toISOString writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (ms, frac) => {
        expect(formatIso(ms + frac)).toBe(new Date(Math.round(ms + frac)).toISOString());
      }),
      { numRuns: 5000, seed: 7 },
    );
  });
});

describe('planner: no drive of no distance', () => {
  it('a driver already at the pickup (a few hundred feet away) starts with the dock, not "Oklahoma City → Oklahoma City, 0 mi, 0:00"', () => {
    const okc = { latitude: 35.4676, longitude: -97.5164 };
    const input = buildInput([
      { name: 'Oklahoma City, OK', latitude: okc.latitude, longitude: okc.longitude, type: 'ORIGIN', dockDurationHours: 0 },
      { name: 'Oklahoma City, OK', latitude: okc.latitude + 0.002, longitude: okc.longitude, type: 'PICKUP', dockDurationHours: 1 },
      stop('Dallas, TX', { type: 'DELIVERY', dockDurationHours: 1 }),
    ]);
    const plan = planRoute(input);
    expect(plan.segments[0]).toMatchObject({ type: 'dock', stop_type: 'PICKUP' });
    expect(plan.segments.filter((s) => s.type === 'drive').every((s) => s.type === 'drive' && s.distance_miles >= 0.5)).toBe(true);
    expect(planProblems(input, plan, [])).toEqual([]);
  });
});
