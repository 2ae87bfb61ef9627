/** Distances and road geometry for planning: great-circle (default, offline), great-circle × a calibrated road factor (offline), or an OSRM service. */
import type { DistanceMethod, DistanceProvider } from './distance.port.js';
import { createHaversineProvider } from './haversine.js';
import { createOsrmClient } from './osrm/osrm.client.js';
import { createHaversineRoadProvider } from './road-factor.js';

export * from './distance.port.js';
export { createHaversineProvider, haversineLegs } from './haversine.js';
export { createHaversineRoadProvider, ROAD_FACTOR, roadFactorMiles } from './road-factor.js';
export { createOsrmClient, OSRM_DEFAULT_TIMEOUT_MS, type OsrmClientOptions } from './osrm/osrm.client.js';

export interface DistanceConfig {
  /** DISTANCE_METHOD, or a plan's options.distanceMethod. */
  method: DistanceMethod;
  /** OSRM_URL; required for 'osrm'. */
  osrmUrl?: string;
  timeoutMs?: number;
}

export function createDistanceProvider(config: DistanceConfig): DistanceProvider {
  if (config.method === 'haversine') return createHaversineProvider();
  if (config.method === 'haversine_road') return createHaversineRoadProvider();
  if (!config.osrmUrl) throw new Error('OSRM_URL is required when the distance method is osrm');
  return createOsrmClient({ baseUrl: config.osrmUrl, timeoutMs: config.timeoutMs });
}
