import { planRoute } from '../src/domain/planning/planner.js';
import { ruleSet } from '../src/domain/hos/index.js';
import { haversineLegs } from '../src/adapters/maps/index.js';
const stops = [
  { name: 'Seattle, WA', latitude: 47.6062, longitude: -122.3321, type: 'ORIGIN' as const, dockDurationHours: 1 },
  { name: 'Boise, ID', latitude: 43.615, longitude: -116.2023, type: 'PICKUP' as const, dockDurationHours: 2 },
  { name: 'Denver, CO', latitude: 39.7392, longitude: -104.9903, type: 'WAYPOINT' as const, dockDurationHours: 0 },
  { name: 'Kansas City, MO', latitude: 39.0997, longitude: -94.5786, type: 'PICKUP' as const, dockDurationHours: 1.5 },
  { name: 'Columbus, OH', latitude: 39.9612, longitude: -82.9988, type: 'DELIVERY' as const, dockDurationHours: 2 },
];
const legs = haversineLegs(stops);
const input = { departureTime: Date.parse('2026-03-02T12:00:00Z'), stops, legs, rules: ruleSet(), history: { timeline: [] }, averageSpeedMph: 55,
  fuel: { enabled: true, tankGallons: 150, mpg: 6.5, startingGallons: 100, defaultPricePerGallon: 3.85, prices: [] }, restSites: [], nameNear: () => 'near X' };
const p = planRoute(input as never);
console.log(p.summary);
const n = Number(process.env.N ?? 2000); const t0 = performance.now();
for (let i = 0; i < n; i++) planRoute(input as never);
const ms = performance.now() - t0;
console.log(`${(n / ms * 1000).toFixed(0)} plans/s`);
