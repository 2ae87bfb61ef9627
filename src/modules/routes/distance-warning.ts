/**
 * What a plan says about its distances. Great circle is the default (the spec's choice) but runs short
 * of the road; the figures come from the published road distances in test/fixtures/us-road-distances.ts
 * (checked by src/adapters/maps/road-factor.test.ts, reported in bench/README.md).
 */
import { ROAD_FACTOR, type DistanceMethod } from '../../adapters/maps/index.js';

export const GREAT_CIRCLE_WARNING =
  'Distances are great-circle (straight-line) estimates: road distances run longer, typically 4–20 % (median 13 % over 39 published US city pairs, up to 40 % where roads detour), so drive hours and arrival times are optimistic. Use options.distanceMethod "haversine_road" for a calibrated road estimate or "osrm" for real road distances.';

export const ROAD_FACTOR_WARNING = `Distances are great-circle × ${ROAD_FACTOR} road-factor estimates (median error 4 % against 39 published US road distances, up to 20 % where roads detour). Use options.distanceMethod "osrm" for real road distances.`;

/** The warning a plan by `method` carries, if any (OSRM's distances are the road's). */
export function distanceWarning(method: DistanceMethod): string | null {
  if (method === 'haversine') return GREAT_CIRCLE_WARNING;
  if (method === 'haversine_road') return ROAD_FACTOR_WARNING;
  return null;
}
