/** Fixtures for planner tests: real places, straight-line legs, a plan input builder and plan invariants. */
import { audit, ruleSet, HOUR_MS, type DutyPeriod } from '../hos/index.js';
import { haversineMiles } from '../geo/geodesy.js';
import { greatCirclePath } from '../geo/path.js';
import type { PlanInput, PlanLeg, PlanResult, PlanStop, Point } from './types.js';

export const CITIES: Record<string, Point> = {
  'Dallas, TX': { latitude: 32.7767, longitude: -96.797 },
  'Chicago, IL': { latitude: 41.8781, longitude: -87.6298 },
  'Newark, NJ': { latitude: 40.7357, longitude: -74.1724 },
  'Seattle, WA': { latitude: 47.6062, longitude: -122.3321 },
  'Boise, ID': { latitude: 43.615, longitude: -116.2023 },
  'Denver, CO': { latitude: 39.7392, longitude: -104.9903 },
  'Kansas City, MO': { latitude: 39.0997, longitude: -94.5786 },
  'Columbus, OH': { latitude: 39.9612, longitude: -82.9988 },
  'Los Angeles, CA': { latitude: 34.0522, longitude: -118.2437 },
  'Phoenix, AZ': { latitude: 33.4484, longitude: -112.074 },
  'Atlanta, GA': { latitude: 33.749, longitude: -84.388 },
  'Miami, FL': { latitude: 25.7617, longitude: -80.1918 },
  'Memphis, TN': { latitude: 35.1495, longitude: -90.049 },
  'Minneapolis, MN': { latitude: 44.9778, longitude: -93.265 },
  'Salt Lake City, UT': { latitude: 40.7608, longitude: -111.891 },
  'El Paso, TX': { latitude: 31.7619, longitude: -106.485 },
  'Boston, MA': { latitude: 42.3601, longitude: -71.0589 },
  'Charlotte, NC': { latitude: 35.2271, longitude: -80.8431 },
  'Portland, OR': { latitude: 45.5152, longitude: -122.6784 },
  'Houston, TX': { latitude: 29.7604, longitude: -95.3698 },
};

export function stop(name: keyof typeof CITIES | string, extra: Partial<PlanStop> = {}): PlanStop {
  const p = CITIES[name];
  if (!p) throw new Error(`unknown test city ${name}`);
  return { name, ...p, type: 'WAYPOINT', dockDurationHours: 0, ...extra };
}

export function straightLegs(stops: Point[]): PlanLeg[] {
  return stops.slice(1).map((to, i) => ({ distanceMiles: haversineMiles(stops[i]!, to), geometry: greatCirclePath(stops[i]!, to, 25) }));
}

export const nameNear = (p: Point) => `near ${p.latitude.toFixed(2)},${p.longitude.toFixed(2)}`;

export function buildInput(stops: PlanStop[], overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    departureTime: Date.parse('2026-03-02T12:00:00Z'),
    stops,
    legs: straightLegs(stops),
    rules: ruleSet(),
    history: { timeline: [] },
    averageSpeedMph: 55,
    fuel: { enabled: true, tankGallons: 150, mpg: 6.5, startingGallons: 150, defaultPricePerGallon: 3.85, prices: [] },
    restSites: [],
    nameNear,
    ...overrides,
  };
}

/**
 * The invariants every plan must satisfy; returns the problems found (empty when none). The HOS audit
 * here is independent of the planner's own: the plan's segments are turned back into a timeline.
 */
export function planProblems(input: PlanInput, plan: PlanResult, history: DutyPeriod[]): string[] {
  const problems: string[] = [];
  const segs = plan.segments;
  let t = input.departureTime;
  let drive = 0;
  let miles = 0;
  const timeline: DutyPeriod[] = [];
  for (const s of segs) {
    const start = Date.parse(s.start_time);
    const end = Date.parse(s.end_time);
    if (Math.abs(start - t) > 1000) problems.push(`segment ${s.sequence} starts at ${s.start_time}, not where the previous ended`);
    if (end < start) problems.push(`segment ${s.sequence} ends before it starts`);
    if (Math.abs((end - start) / HOUR_MS - s.duration_hours) > 0.011) problems.push(`segment ${s.sequence} duration_hours disagrees with its times`);
    const status = s.type === 'drive' ? 'ON_DUTY_DRIVING' : s.type === 'dock' || s.type === 'fuel' ? 'ON_DUTY_NOT_DRIVING' : s.type === 'rest' ? s.duty_status : end - start >= 7 * HOUR_MS ? 'SLEEPER_BERTH' : 'OFF_DUTY';
    if (end > start) timeline.push({ status, start, end });
    if (s.type === 'drive') {
      drive += (end - start) / HOUR_MS;
      miles += s.distance_miles;
      if (Math.abs(s.distance_miles - ((end - start) / HOUR_MS) * input.averageSpeedMph) > 0.05) problems.push(`segment ${s.sequence}: distance and time disagree with the speed`);
    }
    if (s.type === 'rest' && !s.location) problems.push(`rest ${s.sequence} has no location`);
    if (s.sequence !== segs.indexOf(s) + 1) problems.push(`segment ${s.sequence} is out of sequence`);
    t = end;
  }
  const total = input.legs.reduce((sum, l) => sum + l.distanceMiles, 0);
  // Legs under half a mile are not driven (the planner lists no "0 mi" drive): they count as there.
  const driven = input.legs.reduce((sum, l) => sum + (l.distanceMiles < 0.5 ? 0 : l.distanceMiles), 0);
  if (segs.some((s) => s.type === 'drive' && s.distance_miles < 0.05)) problems.push('a drive of no distance');
  if (Math.abs(miles - driven) > 0.1 + segs.length * 0.006) problems.push(`driven ${miles.toFixed(2)} mi, legs total ${total.toFixed(2)} mi`);
  if (Math.abs(plan.summary.totalDistanceMiles - total) > 0.01) problems.push('summary distance differs from the legs');
  if (Math.abs(plan.summary.totalDriveHours - drive) > 0.01 + segs.length * 0.006) problems.push('summary drive hours differ from the segments');
  if (Math.abs(Date.parse(plan.arrivalTime) - t) > 1000) problems.push('arrival time is not the end of the last segment');
  if (Math.abs(plan.summary.totalTripHours - (t - input.departureTime) / HOUR_MS) > 0.011) problems.push('total trip hours differ from the span');
  const violations = audit([...history, ...timeline], input.rules).filter((v) => v.at >= input.departureTime);
  for (const v of violations) problems.push(`HOS violation: ${v.explanation}`);
  // Stops are visited in order with their docks.
  plan.stops.forEach((s, i) => {
    if (Date.parse(s.departureTime) < Date.parse(s.arrivalTime)) problems.push(`stop ${i + 1} departs before it arrives`);
    if (i > 0 && Date.parse(s.arrivalTime) < Date.parse(plan.stops[i - 1]!.departureTime)) problems.push(`stop ${i + 1} is reached before stop ${i} is left`);
  });
  return problems;
}
