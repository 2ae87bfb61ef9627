/**
 * The Geocoder over the offline gazetteer. Resolution order for one input:
 *   1. a ZIP at the end, when it exists and agrees with the state given (a ZIP is more precise than a city);
 *   2. the city in each region the state token may mean (US, then Canada, then Mexico);
 *   3. a city named without a region (or with only a country) when one place of that name clearly
 *      dominates ("Chicago" yes; "Springfield" no: the caller's 400 asks for the state).
 */
import type { LatLng } from '../../domain/geo/index.js';
import { BARE_NAME_MIN_POPULATION, type Gazetteer, type Place, loadGazetteer } from './gazetteer.js';
import type { GeocodeResult, Geocoder, NearbyPlace, NearestPlaceOptions } from './geocoder.port.js';
import { type ParsedQuery, parseQuery } from './parse-query.js';
import type { Country } from './regions.js';

/** Without a region or a country, a name must be a big US city... */
const BARE_NAME_POPULATION = 100_000;
/** ...and this many times bigger than the next place of that name. */
const BARE_NAME_DOMINANCE = 5;

export const DEFAULT_MIN_POPULATION = 5_000;
export const DEFAULT_MAX_DISTANCE_MILES = 100;

export function createOfflineGeocoder(gazetteer: () => Gazetteer = loadGazetteer): Geocoder {
  return {
    geocode(text) {
      const query = parseQuery(text);
      return query === null ? null : resolve(gazetteer(), query);
    },
    nearestPlace(point: LatLng, options: NearestPlaceOptions = {}): NearbyPlace | null {
      const index = gazetteer().placeIndex(options.minPopulation ?? DEFAULT_MIN_POPULATION);
      const hit = index.nearest(point, options.maxDistanceMiles ?? DEFAULT_MAX_DISTANCE_MILES);
      if (hit === null) return null;
      const { name, latitude, longitude, population, country } = hit.item;
      return { name, latitude, longitude, population, country, distanceMiles: hit.distanceMiles };
    },
  };
}

let shared: Geocoder | undefined;

/** The process-wide offline geocoder (its data loads on first use). */
export function offlineGeocoder(): Geocoder {
  shared ??= createOfflineGeocoder();
  return shared;
}

function resolve(gazetteer: Gazetteer, query: ParsedQuery): GeocodeResult | null {
  if (query.zip !== null) {
    const zip = gazetteer.zip(query.zip);
    const stateAgrees = query.regions.length === 0 || query.regions.some((r) => r.country === 'US' && r.code === zip?.region);
    if (zip !== undefined && stateAgrees) {
      return {
        latitude: zip.latitude,
        longitude: zip.longitude,
        name: zip.name,
        precision: 'zip',
        country: 'US',
        region: zip.region,
        postalCode: zip.zip,
      };
    }
  }
  for (const region of query.regions) {
    for (const key of query.cities) {
      const place = findInRegion(gazetteer, region, key);
      if (place !== undefined) return cityResult(place);
    }
  }
  // No region, or the city is in none of them: "Toronto, Canada", "Chicago", "Toluca, Mexico".
  if (query.regions.length === 0 || query.country !== null) {
    for (const key of query.cities) {
      const place = dominantPlace(gazetteer, key, query.country);
      if (place !== undefined) return cityResult(place);
    }
  }
  return null;
}

/** "Ciudad Juárez" is "Juárez" in GeoNames and "Cd. Obregón" is "Ciudad Obregón": try both. */
function findInRegion(gazetteer: Gazetteer, region: Parameters<Gazetteer['cityInRegion']>[0], key: string): Place | undefined {
  const direct = gazetteer.cityInRegion(region, key);
  if (direct !== undefined || region.country !== 'MX') return direct;
  return key.startsWith('ciudad ') ? gazetteer.cityInRegion(region, key.slice(7)) : gazetteer.cityInRegion(region, `ciudad ${key}`);
}

/**
 * A name given without a region resolves only when one place clearly dominates it: within the country
 * named ("Toronto, Canada"), or, with no country, across North America and then only to a US city
 * ("Chicago" yes; "London" no, that is Ontario's and surely not what was meant; "Springfield" no).
 */
function dominantPlace(gazetteer: Gazetteer, key: string, country: Country | null): Place | undefined {
  const candidates = gazetteer.citiesNamed(key).filter((p) => country === null || p.country === country);
  const [first, second] = candidates;
  if (first === undefined) return undefined;
  if (country === null && (first.country !== 'US' || first.population < BARE_NAME_POPULATION)) return undefined;
  if (first.population < BARE_NAME_MIN_POPULATION) return undefined;
  if (second !== undefined && first.population < BARE_NAME_DOMINANCE * second.population) return undefined;
  return first;
}

const cityResult = (place: Place): GeocodeResult => ({
  latitude: place.latitude,
  longitude: place.longitude,
  name: place.name,
  precision: 'city',
  country: place.country,
  region: place.region,
});
