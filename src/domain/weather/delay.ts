/**
 * Weather-adjusted ETA: how many hours the weather adds to a route. A truck drives through a hazard
 * slower than it cruises, by a reduction per severity (ours, in line with the 10–40 % speed drops road
 * weather studies report for snow and ice, and more where roads are near closure); the delay of a
 * stretch is its miles at the reduced speed minus its miles at cruise speed. Pure.
 */
import { haversineMiles, type LatLng } from '../geo/index.js';
import type { WeatherSeverity } from './types.js';

/** Highway cruise speed of a loaded truck, mph. */
export const CRUISE_SPEED_MPH = 55;

/** The fraction of cruise speed lost in a hazard of each severity (strictly increasing with severity). */
export const SPEED_REDUCTION: Readonly<Record<WeatherSeverity, number>> = { MINOR: 0.1, MODERATE: 0.25, SEVERE: 0.4, EXTREME: 0.6 };

/** A stretch of road and the worst hazard on it (null: clear). */
export interface WeatherStretch {
  miles: number;
  severity: WeatherSeverity | null;
}

/** Hours the weather adds over the stretches: 0 when clear; never negative, never NaN. */
export function weatherDelayHours(stretches: readonly WeatherStretch[], cruiseMph = CRUISE_SPEED_MPH): number {
  let hours = 0;
  for (const s of stretches) {
    if (s.severity === null || !(s.miles > 0) || !Number.isFinite(s.miles)) continue;
    const reduction = SPEED_REDUCTION[s.severity];
    hours += (s.miles / cruiseMph) * (1 / (1 - reduction) - 1);
  }
  return hours;
}

/**
 * The miles of route each point stands for, points in route order: half the way to the previous point
 * plus half the way to the next. The shares add up to the length of the polyline through the points.
 */
export function pointShareMiles(points: readonly LatLng[]): number[] {
  const gaps = points.slice(1).map((p, i) => haversineMiles(points[i]!, p));
  return points.map((_, i) => ((gaps[i - 1] ?? 0) + (gaps[i] ?? 0)) / 2);
}

/**
 * The weather delay of a route from its sampled points in route order, each with the worst hazard
 * there; null when fewer than two points (no length to apply a speed to).
 */
export function routeWeatherDelayHours(points: readonly (LatLng & { severity: WeatherSeverity | null })[], cruiseMph = CRUISE_SPEED_MPH): number | null {
  if (points.length < 2) return null;
  const shares = pointShareMiles(points);
  return weatherDelayHours(points.map((p, i) => ({ miles: shares[i]!, severity: p.severity })), cruiseMph);
}
