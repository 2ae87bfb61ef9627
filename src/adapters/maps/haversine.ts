/**
 * Great-circle legs: no network, no durations. Each leg's geometry is the great circle densified every
 * ~25 miles so rests and fuel stops can be placed along it and drawn on a map.
 */
import { greatCirclePath, haversineMiles, isValidLatLng, type LatLng } from '../../domain/geo/index.js';
import { type DistanceProvider, DistanceProviderError, type Leg } from './distance.port.js';

export const DEFAULT_DENSIFY_MILES = 25;

export function haversineLegs(points: readonly LatLng[], densifyEveryMiles = DEFAULT_DENSIFY_MILES): Leg[] {
  const legs: Leg[] = [];
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1]!;
    const to = points[i]!;
    legs.push({ distanceMiles: haversineMiles(from, to), durationHours: null, geometry: greatCirclePath(from, to, densifyEveryMiles) });
  }
  return legs;
}

export function createHaversineProvider(options: { densifyEveryMiles?: number } = {}): DistanceProvider {
  const densify = options.densifyEveryMiles ?? DEFAULT_DENSIFY_MILES;
  return {
    method: 'haversine',
    async legs(points) {
      assertValidPoints(points);
      return haversineLegs(points, densify);
    },
  };
}

export function assertValidPoints(points: readonly LatLng[]): void {
  points.forEach((p, i) => {
    if (!isValidLatLng(p)) throw new DistanceProviderError('INVALID_INPUT', `Point ${i + 1} is not a valid latitude/longitude`);
  });
}
