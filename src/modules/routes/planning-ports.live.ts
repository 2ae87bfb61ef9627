import { createHaversineProvider, createHaversineRoadProvider, createOsrmClient, type DistanceProvider } from '../../adapters/maps/index.js';
import type { Config } from '../../config.js';
import { offlineGeocoder } from '../../infra/geocoding/index.js';
import { invalid } from '../../lib/errors.js';
import { noFuelPrices, type FuelPriceSource, type PlanningPorts } from './planning-ports.js';

/** The production wiring: offline gazetteer, haversine or the configured OSRM service, fuel prices when a vendor is connected. */
export function livePlanningPorts(config: Config, fuelPrices: FuelPriceSource = noFuelPrices): PlanningPorts {
  const geocoder = offlineGeocoder();
  const haversine = createHaversineProvider();
  const haversineRoad = createHaversineRoadProvider();
  const osrm: DistanceProvider | null = config.osrmUrl ? createOsrmClient({ baseUrl: config.osrmUrl }) : null;
  return {
    geocode: (text) => geocoder.lookup(text),
    nameNear: (point) => {
      const place = geocoder.nearestPlace(point);
      return place ? `near ${place.name}` : `${point.latitude.toFixed(3)}, ${point.longitude.toFixed(3)}`;
    },
    distance: (method) => {
      if (method === 'haversine') return haversine;
      if (method === 'haversine_road') return haversineRoad;
      if (!osrm) throw invalid('Validation failed', [{ field: 'body.options.distanceMethod', message: 'osrm needs a mapping service: set OSRM_URL' }]);
      return osrm;
    },
    fuelPrices,
  };
}
