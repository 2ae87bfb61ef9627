import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FuelInputError, planFuelStops, type FuelPlan, type FuelPlanInput, type FuelPlanned, type FuelStation } from './fuel-optimizer.js';

const st = (milesAlong: number, pricePerGallon: number | null, extra: Partial<FuelStation> = {}): FuelStation => ({
  milesAlong,
  pricePerGallon,
  name: `Station @${milesAlong}`,
  latitude: 40,
  longitude: -90,
  ...extra,
});

// A Class 8 truck: 150 gal, 6.5 mpg, reserve 22.5 gal, range 828.75 miles above the reserve.
const TRUCK = { mpg: 6.5, tankGallons: 150, defaultPricePerGallon: 4 } as const;

function planned(p: FuelPlan): FuelPlanned {
  if (p.status !== 'PLANNED') throw new Error(`expected a plan, got ${JSON.stringify(p)}`);
  return p;
}

/** Replays a plan and checks the tank never goes below the reserve nor above capacity. */
function replay(input: FuelPlanInput, plan: FuelPlanned): { minAboveReserve: number; arrival: number } {
  const reserve = input.tankGallons * (input.reserveFraction ?? 0.15);
  let fuel = input.startingGallons;
  let pos = 0;
  let minAboveReserve = Number.POSITIVE_INFINITY;
  for (const s of plan.stops) {
    const leg = s.milesAlong - pos;
    expect(leg).toBeGreaterThanOrEqual(0);
    fuel -= leg / input.mpg;
    if (leg > 0) minAboveReserve = Math.min(minAboveReserve, fuel - reserve);
    expect(s.fuelOnArrivalGallons).toBeCloseTo(fuel, 6);
    expect(s.gallons).toBeGreaterThan(0);
    fuel += s.gallons;
    expect(fuel).toBeLessThanOrEqual(input.tankGallons + 1e-6);
    expect(s.fuelOnDepartureGallons).toBeCloseTo(fuel, 6);
    pos = s.milesAlong;
  }
  fuel -= (input.totalRouteMiles - pos) / input.mpg;
  if (input.totalRouteMiles > pos) minAboveReserve = Math.min(minAboveReserve, fuel - reserve);
  expect(plan.fuelAtArrivalGallons).toBeCloseTo(fuel, 6);
  return { minAboveReserve, arrival: fuel };
}

const rawCost = (p: FuelPlanned) => p.stops.reduce((s, x) => s + x.gallons * x.pricePerGallon, 0);

describe('planFuelStops: scenarios', () => {
  it('buys just enough to reach a cheaper station, and fills nothing it will not burn', () => {
    const input: FuelPlanInput = {
      ...TRUCK,
      totalRouteMiles: 1500,
      startingGallons: 80,
      stations: [st(100, 4.1), st(300, 3.6), st(500, 3.9), st(800, 3.5), st(1000, null), st(1200, 4.2, { discountPerGallon: 0.5 })],
    };
    const p = planned(planFuelStops(input));
    expect(p.strategy).toBe('MIN_COST');
    expect(p.stops.map((s) => [s.milesAlong, Number(s.gallons.toFixed(3)), s.pricePerGallon, s.cost, s.fillUp])).toEqual([
      [300, 65.577, 3.6, 236.08, false],
      [800, 107.692, 3.5, 376.92, false],
    ]);
    expect(p.totalCost).toBe(613);
    expect(p.totalGallons).toBeCloseTo(1500 / 6.5 - (80 - 22.5), 6);
    expect(p.fuelAtArrivalGallons).toBeCloseTo(22.5, 9);
    expect(p).toMatchObject({ reserveGallons: 22.5, rangeMiles: 828.75, stopCount: 2, standaloneStopCount: 2, mergedStopCount: 0 });
    expect(replay(input, p).minAboveReserve).toBeGreaterThanOrEqual(-1e-9);
  });

  it('fills up when nothing cheaper is within range', () => {
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 1600, startingGallons: 40, stations: [st(50, 3.0), st(700, 4.5), st(900, 4.4)] };
    const p = planned(planFuelStops(input));
    expect(p.stops[0]).toMatchObject({ milesAlong: 50, fillUp: true, pricePerGallon: 3 });
    expect(p.stops[0]!.fuelOnDepartureGallons).toBeCloseTo(150, 9);
    // 900 is out of reach from 50 (878.75): just enough at 700 to reach the cheaper 900, then just enough to finish.
    expect(p.stops.slice(1).map((s) => [s.milesAlong, s.fillUp, s.fuelOnArrivalGallons])).toEqual([
      [700, false, expect.closeTo(150 - 650 / 6.5, 9)],
      [900, false, expect.closeTo(22.5, 9)],
    ]);
    replay(input, p);
  });

  it('no stop when the fuel on board covers the route with the reserve', () => {
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 300, startingGallons: 100, stations: [st(100, 3)] };
    const p = planned(planFuelStops(input));
    expect(p.stops).toEqual([]);
    expect(p.totalCost).toBe(0);
    expect(p.fuelAtArrivalGallons).toBeCloseTo(100 - 300 / 6.5, 9);
  });

  it('a route of zero length needs nothing, even below the reserve', () => {
    const p = planned(planFuelStops({ ...TRUCK, totalRouteMiles: 0, startingGallons: 5, stations: [] }));
    expect(p.stops).toEqual([]);
    expect(p.fuelAtArrivalGallons).toBe(5);
  });

  it('unknown prices: fewest stops (MIN_STOPS), at the default price', () => {
    const stations = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400].map((m) => st(m, null));
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 1500, startingGallons: 150, stations };
    const p = planned(planFuelStops(input));
    expect(p.strategy).toBe('MIN_STOPS');
    expect(p.stopCount).toBe(1); // 828.75 miles on the first tank, one stop covers the remaining ~671
    expect(p.stops[0]!.priceKnown).toBe(false);
    expect(p.stops[0]!.pricePerGallon).toBe(4);
    expect(p.totalCost).toBeCloseTo((1500 / 6.5 - 127.5) * 4, 2);
  });

  it('a discount makes a fleet-network station the cheapest', () => {
    const input: FuelPlanInput = {
      ...TRUCK,
      totalRouteMiles: 900,
      startingGallons: 70, // 308.75 miles above the reserve: both stations are reachable
      stations: [st(200, 3.8), st(250, 4.0, { discountPerGallon: 0.4, name: 'Network TA' })],
    };
    const p = planned(planFuelStops(input));
    expect(p.stops).toHaveLength(1);
    expect(p.stops[0]).toMatchObject({ milesAlong: 250, pricePerGallon: 3.6, listPricePerGallon: 4, discountPerGallon: 0.4, priceKnown: true });
    expect(p.stops[0]!.station.name).toBe('Network TA');
  });

  it('merges with a rest within ±25 miles when that costs nothing', () => {
    const stations = [st(500, null), st(600, null), st(700, null)];
    const base: FuelPlanInput = { ...TRUCK, totalRouteMiles: 1200, startingGallons: 150, stations };
    const none = planned(planFuelStops(base));
    expect(none.stopCount).toBe(1);
    expect(none.stops[0]!.mergedWithRestAtMiles).toBeNull();
    const withRest = planned(planFuelStops({ ...base, restStopMiles: [575] }));
    expect(withRest.stops.map((s) => [s.milesAlong, s.mergedWithRestAtMiles])).toEqual([[600, 575]]);
    expect(withRest).toMatchObject({ stopCount: 1, mergedStopCount: 1, standaloneStopCount: 0 });
    expect(withRest.totalCost).toBeCloseTo(none.totalCost, 6);
    // 25 miles is inside the tolerance, 25.1 is not.
    expect(planned(planFuelStops({ ...base, restStopMiles: [525] })).stops[0]!.mergedWithRestAtMiles).toBe(525);
    const outside = planned(planFuelStops({ ...base, restStopMiles: [474.9] }));
    expect(outside.stops[0]!.mergedWithRestAtMiles).toBeNull();
    expect(planned(planFuelStops({ ...base, restStopMiles: [474.9], mergeToleranceMiles: 30 })).stops[0]!.milesAlong).toBe(500);
  });

  it('prefers two stops merged with rests to one standalone stop', () => {
    // One stop would do at 800 (the only point both reachable on the first tank and within range of the
    // destination); the rests are at 400 and 1000, which need two stops.
    const stations = [st(400, null), st(800, null), st(1000, null)];
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 1600, startingGallons: 150, stations };
    expect(planned(planFuelStops(input)).stops.map((s) => s.milesAlong)).toEqual([800]);
    const p = planned(planFuelStops({ ...input, restStopMiles: [400, 1000] }));
    expect(p.stops.map((s) => s.milesAlong)).toEqual([400, 1000]);
    expect(p.standaloneStopCount).toBe(0);
    replay(input, p);
  });

  it('cost comes first; a standalone-stop penalty trades a few cents for a stop', () => {
    const stations = [st(300, 3.99), st(600, 4.0)];
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 1400, startingGallons: 120, stations };
    const cheapest = planned(planFuelStops(input));
    expect(cheapest.stops.map((s) => [s.milesAlong, s.fillUp])).toEqual([
      [300, true],
      [600, false],
    ]);
    const withPenalty = planned(planFuelStops({ ...input, standaloneStopPenaltyDollars: 25 }));
    expect(withPenalty.stops.map((s) => s.milesAlong)).toEqual([600]);
    expect(withPenalty.totalCost - cheapest.totalCost).toBeGreaterThan(0);
    expect(withPenalty.totalCost - cheapest.totalCost).toBeLessThan(1);
  });

  it('reports every uncovered gap instead of throwing', () => {
    const p = planFuelStops({ ...TRUCK, totalRouteMiles: 3000, startingGallons: 150, stations: [st(700, 4), st(1700, 4), st(2000, 4)] });
    expect(p.status).toBe('UNCOVERED_GAP');
    if (p.status !== 'UNCOVERED_GAP') return;
    expect(p.stops).toEqual([]);
    expect(p.gaps).toEqual([
      { fromMiles: 700, toMiles: 1700, lengthMiles: 1000, farthestReachableMiles: 1528.75, shortfallMiles: 171.25, additionalStopsNeeded: 1, reason: 'STATION_GAP' },
      { fromMiles: 2000, toMiles: 3000, lengthMiles: 1000, farthestReachableMiles: 2828.75, shortfallMiles: 171.25, additionalStopsNeeded: 1, reason: 'STATION_GAP' },
    ]);
  });

  it('a gap at the start when the fuel on board cannot reach the first station', () => {
    const p = planFuelStops({ ...TRUCK, totalRouteMiles: 2000, startingGallons: 40, stations: [st(500, 4)] });
    expect(p.status === 'UNCOVERED_GAP' && p.gaps[0]).toMatchObject({ fromMiles: 0, toMiles: 500, reason: 'STATION_GAP', additionalStopsNeeded: 1 });
    const long = planFuelStops({ ...TRUCK, totalRouteMiles: 3000, startingGallons: 40, stations: [] });
    expect(long.status === 'UNCOVERED_GAP' && long.gaps).toEqual([
      { fromMiles: 0, toMiles: 3000, lengthMiles: 3000, farthestReachableMiles: 17.5 * 6.5, shortfallMiles: 3000 - 113.75, additionalStopsNeeded: 4, reason: 'STATION_GAP' },
    ]);
  });

  it('starting below the reserve: a gap, unless fuel can be bought at mile 0', () => {
    const below = planFuelStops({ ...TRUCK, totalRouteMiles: 500, startingGallons: 10, stations: [st(100, 4)] });
    expect(below.status === 'UNCOVERED_GAP' && below.gaps[0]).toMatchObject({ fromMiles: 0, toMiles: 100, farthestReachableMiles: 0, reason: 'START_BELOW_RESERVE', additionalStopsNeeded: 1 });
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 500, startingGallons: 10, stations: [st(0, 4.2), st(100, 4)] };
    const p = planned(planFuelStops(input));
    expect(p.stops[0]).toMatchObject({ milesAlong: 0, fuelOnArrivalGallons: 10 });
    expect(replay(input, p).minAboveReserve).toBeGreaterThanOrEqual(-1e-9);
  });

  it('ignores stations off the route and honours reserveFraction 0', () => {
    const input: FuelPlanInput = { ...TRUCK, totalRouteMiles: 1000, startingGallons: 150, reserveFraction: 0, stations: [st(-5, 1), st(1200, 1), st(900, 4)] };
    const p = planned(planFuelStops(input));
    expect(p.stationsIgnored).toBe(2);
    expect(p.stops).toHaveLength(1);
    expect(replay(input, p).arrival).toBeCloseTo(0, 9);
  });

  it('rejects invalid input field by field', () => {
    const bad = (patch: Partial<FuelPlanInput>) => {
      try {
        planFuelStops({ ...TRUCK, totalRouteMiles: 100, startingGallons: 100, stations: [], ...patch });
      } catch (e) {
        expect(e).toBeInstanceOf(FuelInputError);
        expect((e as FuelInputError).statusCode).toBe(400);
        expect((e as FuelInputError).message).toBe('Validation failed');
        return (e as FuelInputError).details.map((d) => d.field);
      }
      throw new Error('expected FuelInputError');
    };
    expect(bad({ mpg: 0 })).toEqual(['mpg']);
    expect(bad({ tankGallons: Number.NaN })).toContain('tankGallons');
    expect(bad({ startingGallons: 200 })).toEqual(['startingGallons']);
    expect(bad({ totalRouteMiles: -1 })).toEqual(['totalRouteMiles']);
    expect(bad({ reserveFraction: 1 })).toEqual(['reserveFraction']);
    expect(bad({ stations: [st(10, -1), { ...st(20, 3), name: '' }] })).toEqual(['stations[0].pricePerGallon', 'stations[1].name']);
    expect(bad({ restStopMiles: [Number.POSITIVE_INFINITY] })).toEqual(['restStopMiles[0]']);
  });

  it('plans with 1,000 candidate stations', () => {
    const stations = Array.from({ length: 1000 }, (_, i) => st((i + 0.5) * 3, 3 + Math.abs(Math.sin(i * 12.9898)) * 0.8));
    const p = planned(planFuelStops({ ...TRUCK, totalRouteMiles: 3000, startingGallons: 60, stations }));
    expect(p.stopCount).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties

/**
 * Exhaustive oracle on integer instances (mpg 1, integer miles, tank, reserve and prices): dynamic
 * program over every integer fuel level at every station, minimising (cost, standalone stops, stops).
 */
function oracle(input: FuelPlanInput): [number, number, number] | null {
  const T = input.tankGallons;
  const R = Math.round(T * (input.reserveFraction ?? 0.15));
  const tol = input.mergeToleranceMiles ?? 25;
  const rests = input.restStopMiles ?? [];
  const st = [...input.stations].filter((s) => s.milesAlong >= 0 && s.milesAlong <= input.totalRouteMiles).sort((a, b) => a.milesAlong - b.milesAlong);
  type V = [number, number, number];
  const lt = (a: V, b: V) => (Math.abs(a[0] - b[0]) > 1e-9 ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2]);
  let states = new Map<number, V>([[input.startingGallons, [0, 0, 0]]]);
  let pos = 0;
  const drive = (to: number) => {
    const d = to - pos;
    const next = new Map<number, V>();
    for (const [f, v] of states) if (d === 0 || f - d >= R) next.set(f - d, v);
    states = next;
    pos = to;
  };
  for (const s of st) {
    drive(s.milesAlong);
    const price = Math.max(0, (s.pricePerGallon ?? input.defaultPricePerGallon) - (s.discountPerGallon ?? 0));
    const merged = rests.some((r) => Math.abs(r - s.milesAlong) <= tol) ? 0 : 1;
    const next = new Map<number, V>();
    for (const [f, v] of states) {
      for (let b = 0; f + b <= T; b++) {
        const nv: V = b === 0 ? v : [v[0] + b * price, v[1] + merged, v[2] + 1];
        const cur = next.get(f + b);
        if (!cur || lt(nv, cur)) next.set(f + b, nv);
      }
    }
    states = next;
  }
  drive(input.totalRouteMiles);
  let best: V | null = null;
  for (const v of states.values()) if (!best || lt(v, best)) best = v;
  return best;
}

const integerInstance = fc
  .record({
    tank: fc.constantFrom(20, 40),
    reserveFraction: fc.constantFrom(0, 0.15, 0.25),
    startFrac: fc.double({ min: 0.3, max: 1, noNaN: true }),
    total: fc.integer({ min: 0, max: 150 }),
    stations: fc.array(fc.record({ m: fc.integer({ min: 0, max: 150 }), p: fc.option(fc.integer({ min: 2, max: 6 }), { nil: null }), disc: fc.option(fc.constantFrom(1), { nil: undefined }) }), {
      maxLength: 9,
    }),
    rests: fc.array(fc.integer({ min: 0, max: 150 }), { maxLength: 3 }),
    equalPrices: fc.boolean(),
  })
  .map(({ tank, reserveFraction, startFrac, total, stations, rests, equalPrices }): FuelPlanInput => {
    const reserve = Math.round(tank * reserveFraction);
    return {
      totalRouteMiles: total,
      mpg: 1,
      tankGallons: tank,
      reserveFraction,
      startingGallons: Math.max(reserve, Math.round(tank * startFrac)),
      defaultPricePerGallon: 4,
      stations: stations.map(({ m, p, disc }) => st(m, equalPrices ? null : p, equalPrices || disc === undefined ? {} : { discountPerGallon: disc })),
      restStopMiles: rests,
      mergeToleranceMiles: 5,
    };
  });

/** The classic minimum number of stops: from each stop, go to the farthest station reachable. */
function greedyMinStops(input: FuelPlanInput): number {
  const reserve = input.tankGallons * (input.reserveFraction ?? 0.15);
  const range = (input.tankGallons - reserve) * input.mpg;
  const st = input.stations.map((s) => s.milesAlong).filter((m) => m >= 0 && m <= input.totalRouteMiles).sort((a, b) => a - b);
  const tol = 1e-9 * input.mpg; // the planner's tolerance, 1e-9 gal
  let reach = (input.startingGallons - reserve) * input.mpg;
  let stops = 0;
  while (reach < input.totalRouteMiles - tol) {
    const candidates = st.filter((m) => m <= reach + tol);
    const far = candidates[candidates.length - 1]!;
    stops++;
    reach = far + range;
    st.splice(0, candidates.length);
  }
  return stops;
}

/** The naive strategy: at a station, fill up if the fuel would not reach the next fuel point with the reserve. */
function naiveCost(input: FuelPlanInput): number {
  const reserve = input.tankGallons * (input.reserveFraction ?? 0.15);
  const st = [...input.stations].filter((s) => s.milesAlong >= 0 && s.milesAlong <= input.totalRouteMiles).sort((a, b) => a.milesAlong - b.milesAlong);
  let fuel = input.startingGallons;
  let pos = 0;
  let cost = 0;
  st.forEach((s, i) => {
    fuel -= (s.milesAlong - pos) / input.mpg;
    pos = s.milesAlong;
    const next = st[i + 1]?.milesAlong ?? input.totalRouteMiles;
    if (fuel - (next - pos) / input.mpg < reserve - 1e-9) {
      const price = Math.max(0, (s.pricePerGallon ?? input.defaultPricePerGallon) - (s.discountPerGallon ?? 0));
      cost += (input.tankGallons - fuel) * price;
      fuel = input.tankGallons;
    }
  });
  return cost;
}

const realInstance = fc
  .record({
    total: fc.double({ min: 0, max: 3000, noNaN: true }),
    startFrac: fc.double({ min: 0.15, max: 1, noNaN: true }),
    stations: fc.array(
      fc.record({ m: fc.double({ min: 0, max: 3000, noNaN: true }), p: fc.option(fc.double({ min: 3, max: 5, noNaN: true }), { nil: null }) }),
      { maxLength: 40 },
    ),
    rests: fc.array(fc.double({ min: 0, max: 3000, noNaN: true }), { maxLength: 4 }),
    equalPrices: fc.boolean(),
  })
  .map(
    ({ total, startFrac, stations, rests, equalPrices }): FuelPlanInput => ({
      ...TRUCK,
      totalRouteMiles: total,
      startingGallons: 150 * startFrac,
      stations: stations.map(({ m, p }) => st(m, equalPrices ? 3.9 : p)),
      restStopMiles: rests,
    }),
  );

describe('planFuelStops: properties', () => {
  it('matches an exhaustive search on integer instances: minimum cost, then fewest standalone stops, then fewest stops', () => {
    fc.assert(
      fc.property(integerInstance, (input) => {
        const p = planFuelStops(input);
        const best = oracle(input);
        if (best === null) {
          expect(p.status).toBe('UNCOVERED_GAP');
          return;
        }
        const plan = planned(p);
        expect(rawCost(plan)).toBeCloseTo(best[0], 6);
        expect(plan.standaloneStopCount).toBe(best[1]);
        expect(plan.stopCount).toBe(best[2]);
      }),
      { numRuns: 1500 },
    );
  });

  it('fuel never goes below the reserve between stops, nor above the tank', () => {
    fc.assert(
      fc.property(realInstance, (input) => {
        const p = planFuelStops(input);
        if (p.status !== 'PLANNED') return;
        expect(replay(input, p).minAboveReserve).toBeGreaterThanOrEqual(-1e-6);
      }),
      { numRuns: 1000 },
    );
  });

  it('with equal prices and no rests, the minimum number of stops', () => {
    fc.assert(
      fc.property(realInstance, (input) => {
        const noRests = { ...input, restStopMiles: [], stations: input.stations.map((s) => ({ ...s, pricePerGallon: 3.9 })) };
        const p = planFuelStops(noRests);
        if (p.status !== 'PLANNED') return;
        expect(p.strategy).toBe(noRests.stations.length > 0 ? 'MIN_STOPS' : p.strategy);
        expect(p.stopCount).toBe(greedyMinStops(noRests));
      }),
      { numRuns: 1000 },
    );
  });

  it('never costs more than filling up whenever the next fuel point is out of reach', () => {
    fc.assert(
      fc.property(realInstance, (input) => {
        const p = planFuelStops(input);
        if (p.status !== 'PLANNED') return;
        expect(rawCost(p)).toBeLessThanOrEqual(naiveCost(input) + 1e-6);
      }),
      { numRuns: 1000 },
    );
  });

  it('rests never make a plan costlier or add standalone stops; merged stops lie within the tolerance', () => {
    fc.assert(
      fc.property(realInstance, (input) => {
        const withRests = planFuelStops(input);
        const without = planFuelStops({ ...input, restStopMiles: [] });
        expect(withRests.status).toBe(without.status);
        if (withRests.status !== 'PLANNED' || without.status !== 'PLANNED') return;
        expect(rawCost(withRests)).toBeCloseTo(rawCost(without), 6);
        expect(withRests.standaloneStopCount).toBeLessThanOrEqual(without.standaloneStopCount);
        for (const s of withRests.stops) {
          if (s.mergedWithRestAtMiles !== null) expect(Math.abs(s.mergedWithRestAtMiles - s.milesAlong)).toBeLessThanOrEqual(25 + 1e-9);
          else for (const r of input.restStopMiles ?? []) expect(Math.abs(r - s.milesAlong)).toBeGreaterThan(25);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a plan exists exactly when no gap is reported, and gaps are longer than the range', () => {
    fc.assert(
      fc.property(realInstance, (input) => {
        const p = planFuelStops(input);
        if (p.status === 'UNCOVERED_GAP') {
          expect(p.gaps.length).toBeGreaterThan(0);
          for (const g of p.gaps) {
            expect(g.shortfallMiles).toBeGreaterThan(0);
            expect(g.farthestReachableMiles).toBeLessThan(g.toMiles);
            expect(g.additionalStopsNeeded).toBeGreaterThanOrEqual(1);
          }
        } else {
          expect(p.totalCost).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
