/**
 * Road distances between consecutive stops. The planner asks once per plan for every leg; what comes back
 * is all it needs to split legs by the HOS clocks and to place rests along the way.
 */
import type { LatLng } from '../../domain/geo/index.js';

/** Great circle (default), great circle × a calibrated road factor, or a routing engine's roads. */
export type DistanceMethod = 'haversine' | 'haversine_road' | 'osrm';
export const DISTANCE_METHODS = ['haversine', 'haversine_road', 'osrm'] as const;

export interface Leg {
  distanceMiles: number;
  /** Driving time from the routing engine; null when the method has none (haversine: the planner applies its speed). */
  durationHours: number | null;
  /** The leg's path from its start to its end stop (at least two points), for placing rests and drawing maps. */
  geometry: LatLng[];
}

export interface DistanceProvider {
  readonly method: DistanceMethod;
  /** One leg per consecutive pair of points (n points → n - 1 legs; fewer than two points → none). */
  legs(points: readonly LatLng[]): Promise<Leg[]>;
}

/**
 * Why no legs came back. The first three are the request's fault (a 400 naming the stops); the others
 * are the mapping service's (a 502/503: try again, or plan with haversine).
 */
export type DistanceErrorCode = 'NO_ROUTE' | 'NO_SEGMENT' | 'INVALID_INPUT' | 'TIMEOUT' | 'UNAVAILABLE' | 'BAD_RESPONSE';

export class DistanceProviderError extends Error {
  constructor(
    readonly code: DistanceErrorCode,
    message: string,
    readonly details: { httpStatus?: number; vendorCode?: string } = {},
  ) {
    super(message);
    this.name = 'DistanceProviderError';
  }

  /** True when the caller's input caused it (no road between the stops, a stop off the road network). */
  get isClientError(): boolean {
    return this.code === 'NO_ROUTE' || this.code === 'NO_SEGMENT' || this.code === 'INVALID_INPUT';
  }
}
