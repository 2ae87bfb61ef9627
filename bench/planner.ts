/**
 * In-process planner throughput: a 2,500-mile, 5-stop trip with fuel stops, planned again and again on
 * one core (the HOS engine, rest and fuel optimizers, and the audit included). Target: 5,000 plans/s.
 */
import { haversineLegs } from '../src/adapters/maps/index.js';
import { ruleSet } from '../src/domain/hos/index.js';
import { planRoute } from '../src/domain/planning/planner.js';
import type { PlanInput, PlanStop } from '../src/domain/planning/types.js';

const STOPS: PlanStop[] = [
  { name: 'Seattle, WA', latitude: 47.6062, longitude: -122.3321, type: 'ORIGIN', dockDurationHours: 1 },
  { name: 'Boise, ID', latitude: 43.615, longitude: -116.2023, type: 'PICKUP', dockDurationHours: 2 },
  { name: 'Denver, CO', latitude: 39.7392, longitude: -104.9903, type: 'WAYPOINT', dockDurationHours: 0 },
  { name: 'Kansas City, MO', latitude: 39.0997, longitude: -94.5786, type: 'PICKUP', dockDurationHours: 1.5 },
  { name: 'Columbus, OH', latitude: 39.9612, longitude: -82.9988, type: 'DELIVERY', dockDurationHours: 2 },
];

/** Road miles: the great-circle legs scaled to 2,500 miles in all (roads run ~13 % longer here). */
const TRIP_MILES = 2500;

export function plannerInput(): PlanInput {
  const legs = haversineLegs(STOPS);
  const scale = TRIP_MILES / legs.reduce((sum, l) => sum + l.distanceMiles, 0);
  return {
    departureTime: Date.parse('2026-03-02T12:00:00Z'),
    stops: STOPS,
    legs: legs.map((l) => ({ ...l, distanceMiles: l.distanceMiles * scale })),
    rules: ruleSet(),
    history: { timeline: [] },
    averageSpeedMph: 55,
    fuel: { enabled: true, tankGallons: 150, mpg: 6.5, startingGallons: 100, defaultPricePerGallon: 3.85, prices: [] },
    restSites: [],
    nameNear: (p) => `near ${p.latitude.toFixed(1)},${p.longitude.toFixed(1)}`,
  };
}

/**
 * The bench trip with every plan's input different, so nothing can be reused from one plan to the next:
 * a pool of `n` variants whose stops move by up to ±0.05° (legs rescaled to the same 2,500 miles); callers
 * also move the departure by a minute per plan.
 */
export function plannerVariants(n: number): PlanInput[] {
  const base = plannerInput();
  const out: PlanInput[] = [];
  for (let k = 0; k < n; k++) {
    const stops = base.stops.map((s, i) => ({ ...s, latitude: s.latitude + 0.05 * Math.sin(k * 7 + i), longitude: s.longitude + 0.05 * Math.cos(k * 3 + i) }));
    const legs = haversineLegs(stops);
    const scale = TRIP_MILES / legs.reduce((sum, l) => sum + l.distanceMiles, 0);
    out.push({ ...base, stops, legs: legs.map((l) => ({ ...l, distanceMiles: l.distanceMiles * scale })) });
  }
  return out;
}

/** Input number i of the varied series: a variant from the pool, departing i minutes later. */
export function variedInput(pool: PlanInput[], i: number): PlanInput {
  const v = pool[i % pool.length]!;
  return { ...v, departureTime: v.departureTime + i * 60_000 };
}

export interface PlannerFigures {
  /** The bench trip planned again and again. */
  plansPerSecond: number;
  /** Every plan's input different (plannerVariants, variedInput): the figure the target is judged on. */
  variedPlansPerSecond: number;
  miles: number;
  restStops: number;
  fuelStops: number;
}

/** Whole plans per wall-clock second on this thread, after a warm-up. */
function rate(seconds: number, next: (i: number) => PlanInput): number {
  for (let i = 0; i < 500; i++) planRoute(next(i));
  let n = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  while (performance.now() < until) {
    for (let i = 0; i < 50; i++) planRoute(next(n + i));
    n += 50;
  }
  return n / ((performance.now() - t0) / 1000);
}

/** Both figures, `seconds` each; every plan audited by the planner as always. */
export function measurePlanner(seconds = 5): PlannerFigures {
  const input = plannerInput();
  const first = planRoute(input);
  const pool = plannerVariants(32);
  return {
    plansPerSecond: rate(seconds, () => input),
    variedPlansPerSecond: rate(seconds, (i) => variedInput(pool, i)),
    miles: first.summary.totalDistanceMiles,
    restStops: first.summary.restStops,
    fuelStops: first.summary.fuelStops,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = measurePlanner(Number(process.env.BENCH_DURATION ?? 5));
  console.log(
    `planner: ${r.plansPerSecond.toFixed(0)} plans/s (same input), ${r.variedPlansPerSecond.toFixed(0)} plans/s (every input different); ` +
      `${r.miles} miles, ${r.restStops} rests, ${r.fuelStops} fuel stops`,
  );
}
