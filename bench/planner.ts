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

export function measurePlanner(seconds = 5): { plansPerSecond: number; miles: number; restStops: number; fuelStops: number } {
  const input = plannerInput();
  const first = planRoute(input);
  // Warm up, then count whole plans for the given time.
  for (let i = 0; i < 500; i++) planRoute(input);
  let n = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  while (performance.now() < until) {
    for (let i = 0; i < 50; i++) planRoute(input);
    n += 50;
  }
  const elapsed = (performance.now() - t0) / 1000;
  return { plansPerSecond: n / elapsed, miles: first.summary.totalDistanceMiles, restStops: first.summary.restStops, fuelStops: first.summary.fuelStops };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = measurePlanner(Number(process.env.BENCH_DURATION ?? 5));
  console.log(`planner: ${r.plansPerSecond.toFixed(0)} plans/s (${r.miles} miles, ${r.restStops} rests, ${r.fuelStops} fuel stops)`);
}
