/**
 * Road-factor legs (`haversine_road`): the great-circle distance times a calibrated factor, offline
 * like haversine but without its systematic shortfall (roads are longer than the straight line).
 *
 * Calibration: ROAD_FACTOR is the median of road ÷ great-circle over the 39 published US city-pair
 * driving distances in test/fixtures/us-road-distances.ts (ratios 1.04–1.40, median 1.127, mean
 * 1.129), rounded to two decimals; road-factor.test.ts recomputes it and reports each method's median
 * and worst error against the table (bench/README.md). A distance-dependent factor was tried: short
 * pairs run a little straighter (median ratio 1.10 under ~200 mi, 1.15 over), but cross-validated
 * (leave-one-out) two distance bands cut the median error only from 4.2 % to 3.8–4.0 % at best and
 * make it worse (4.7 %) at another split — less than the table's own ±2 % — so one factor it is. The
 * ratio depends more on terrain and the road network (Denver → Salt Lake City goes round the
 * Rockies: 1.40) than on distance.
 * So this is an estimate good to about ±4 % typically and ±20 % at worst on the table; OSRM gives real roads.
 */
import { greatCirclePath, haversineMiles, type LatLng } from '../../domain/geo/index.js';
import type { DistanceProvider, Leg } from './distance.port.js';
import { assertValidPoints, DEFAULT_DENSIFY_MILES } from './haversine.js';

export const ROAD_FACTOR = 1.13;

export function roadFactorMiles(from: LatLng, to: LatLng): number {
  return haversineMiles(from, to) * ROAD_FACTOR;
}

/** Like haversine legs, but each leg's distance is the road estimate; the geometry stays the great circle. */
export function createHaversineRoadProvider(options: { densifyEveryMiles?: number } = {}): DistanceProvider {
  const densify = options.densifyEveryMiles ?? DEFAULT_DENSIFY_MILES;
  return {
    method: 'haversine_road',
    async legs(points) {
      assertValidPoints(points);
      const legs: Leg[] = [];
      for (let i = 1; i < points.length; i++) {
        const from = points[i - 1]!;
        const to = points[i]!;
        legs.push({ distanceMiles: roadFactorMiles(from, to), durationHours: null, geometry: greatCirclePath(from, to, densify) });
      }
      return legs;
    },
  };
}
