/**
 * Where the truck fuels: candidates along the route (stations with known prices, the tenant's own
 * fuel network with its discounts, and — so a plan always exists — fallback points every few dozen
 * miles at the default price), handed to the fuel optimizer with the positions of the planned rests
 * so that fuel is bought where the driver stops anyway whenever that costs nothing extra.
 */
import { planFuelStops, type FuelStation } from '../fuel/fuel-optimizer.js';
import type { RoutePath, SiteOnRoute } from './route-path.js';
import type { PlanInput, Point } from './types.js';

export interface FuelPlanStop extends Point {
  tripMiles: number;
  name: string;
  pricePerGallon: number;
  /** Fuel in the tank when leaving, as the optimizer planned it. */
  fuelOnDepartureGallons: number;
}

const FALLBACK_SPACING_MILES = 200;
const PRICE_MATCH_MILES = 10;

export function planFuel(input: PlanInput, path: RoutePath, sites: SiteOnRoute[], restMiles: number[]): { stops: FuelPlanStop[]; warning?: string } {
  const stations: FuelStation[] = [];
  const priced = path.project(input.fuel.prices.map((p) => ({ ...p, type: 'FUEL_STATION' as const, diesel: true })));
  const priceOf = (p: SiteOnRoute) => (p.site as SiteOnRoute['site'] & { pricePerGallon: number }).pricePerGallon;
  for (const p of priced) {
    stations.push({ milesAlong: p.tripMiles, pricePerGallon: priceOf(p), name: p.site.name, latitude: p.site.latitude, longitude: p.site.longitude });
  }
  for (const s of sites) {
    if (s.site.diesel === false || (s.site.type !== 'TRUCK_STOP' && s.site.type !== 'FUEL_STATION')) continue;
    // The tenant's own station is priced like the nearest known pump, less its negotiated discount.
    const near = priced.find((p) => Math.abs(p.tripMiles - s.tripMiles) <= PRICE_MATCH_MILES);
    const price = near ? priceOf(near) : null;
    stations.push({ milesAlong: s.tripMiles, pricePerGallon: price, name: s.site.name, latitude: s.site.latitude, longitude: s.site.longitude, discountPerGallon: s.site.fuelDiscountPerGallon ?? 0 });
  }
  // Fallback points (named only if chosen): the truck can always find diesel near an interstate. They
  // are the only stations with an id.
  for (let m = 0; m <= path.totalMiles; m += FALLBACK_SPACING_MILES) {
    const leg = legAt(path, m);
    const p = path.pointInLeg(leg, m - path.legStart[leg]!);
    stations.push({ id: `fallback:${m}`, milesAlong: m, pricePerGallon: null, name: `en route (mile ${m})`, latitude: p.latitude, longitude: p.longitude });
  }
  const plan = planFuelStops({
    totalRouteMiles: path.totalMiles,
    mpg: input.fuel.mpg,
    tankGallons: input.fuel.tankGallons,
    startingGallons: input.fuel.startingGallons,
    stations,
    defaultPricePerGallon: input.fuel.defaultPricePerGallon,
    restStopMiles: restMiles,
  });
  if (plan.status !== 'PLANNED') {
    return { stops: [], warning: 'Fuel stops could not be planned: the truck starts below its fuel reserve; fuel before departure' };
  }
  return {
    stops: plan.stops.map((s) => {
      const point: Point = { latitude: s.station.latitude, longitude: s.station.longitude };
      const name = s.station.id !== undefined ? input.nameNear(point) : s.station.name;
      return { tripMiles: s.milesAlong, name, latitude: point.latitude, longitude: point.longitude, pricePerGallon: s.pricePerGallon, fuelOnDepartureGallons: s.fuelOnDepartureGallons };
    }),
  };
}

export function legAt(path: RoutePath, tripMiles: number): number {
  let leg = 0;
  while (leg + 1 < path.legStart.length && path.legStart[leg + 1]! <= tripMiles) leg++;
  return leg;
}
