/**
 * What a plan says about its distances. Great circle is the default (the spec's choice) but runs short
 * of the road; the figures come from the published road distances in test/fixtures/us-road-distances.ts
 * (checked by src/adapters/maps/road-factor.test.ts, reported in bench/README.md).
 */
import { ROAD_FACTOR, type DistanceMethod } from '../../adapters/maps/index.js';

/*
 * Written for the person reading the plan (the dashboard shows them as they are): the distance methods by
 * the names the plan form gives them, not the option's values, which docs/planning.md#distances lists.
 */
export const GREAT_CIRCLE_WARNING =
  'Distances are straight-line estimates: roads run longer, typically 4–20 % (median 13 % over 39 published US city pairs, up to 40 % where roads detour), so drive times and arrivals are optimistic. Plan with the road-factor estimate, or with road distances from a mapping service, for figures closer to the road.';

export const ROAD_FACTOR_WARNING = `Distances are road estimates: the straight line × ${ROAD_FACTOR} (median error 4 % against 39 published US road distances, up to 20 % where roads detour). Road distances from a mapping service are exact.`;

/** The warning a plan by `method` carries, if any (OSRM's distances are the road's). */
export function distanceWarning(method: DistanceMethod): string | null {
  if (method === 'haversine') return GREAT_CIRCLE_WARNING;
  if (method === 'haversine_road') return ROAD_FACTOR_WARNING;
  return null;
}
