import type { DistanceMethod } from '../../adapters/maps/index.js';
import type { PlanLeg, Point, FuelPricePoint } from '../../domain/planning/types.js';
import type { GeocodeLookup } from '../../infra/geocoding/index.js';

/** What planning needs from the outside world, behind small interfaces (tests and the demo use local fakes). */
export interface PlanningPorts {
  /**
   * Offline geocoding of a US/Canadian/Mexican address, city or ZIP: the place found, or the candidates
   * of an ambiguous name, or the closest names of one not found.
   */
  geocode(text: string): GeocodeLookup;
  /** A name for a point away from known sites, e.g. "near Amarillo, TX". */
  nameNear(point: Point): string;
  /** Legs between consecutive points, by great circle (× a road factor for haversine_road) or a mapping service. */
  distance(method: DistanceMethod): { legs(points: Point[]): Promise<PlanLeg[]> };
  fuelPrices: FuelPriceSource;
}

/** Diesel prices near a path, with a warning for the plan when they are not current. */
export interface FuelPriceAnswer {
  prices: FuelPricePoint[];
  warning?: string;
}

/**
 * Diesel prices near a path, for one tenant: its fuel integration's (asked now, or stored from its last
 * sync when the vendor does not answer); without one, no prices are known.
 */
export interface FuelPriceSource {
  pricesAlong(tenantId: string, path: Point[]): Promise<FuelPriceAnswer>;
}

export const noFuelPrices: FuelPriceSource = { pricesAlong: async () => ({ prices: [] }) };
