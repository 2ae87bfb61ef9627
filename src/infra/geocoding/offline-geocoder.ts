/**
 * The Geocoder over the offline gazetteer. Resolution order for one input:
 *   1. a ZIP at the end, when it exists and agrees with the state given (a ZIP is more precise than a city);
 *   2. the city in each region the state token may mean (US, then Canada, then Mexico);
 *   3. a city named without a region (or with only a country): accepted only when exactly one place in
 *      the three countries (or in the country named) bears that name. Population plays no part, so the
 *      rule is the same for every name: "Columbus", "Springfield", "Dallas" and "Portland" all need their
 *      state, and the answer lists the places, most populous first.
 * When nothing is found, the answer carries the closest names (Damerau-Levenshtein, within the state
 * given), or, when the state holds none, the places of that exact name elsewhere.
 */
import type { LatLng } from '../../domain/geo/index.js';
import { suggestionBound } from './edit-distance.js';
import { type Gazetteer, type Place, loadGazetteer } from './gazetteer.js';
import type { GeocodeLookup, GeocodeResult, Geocoder, NearbyPlace, NearestPlaceOptions } from './geocoder.port.js';
import { type ParsedQuery, parseQuery } from './parse-query.js';
import { REGIONS } from './regions.js';

/** At most this many candidates or suggestions in one answer. */
export const MAX_CANDIDATES = 10;

export const DEFAULT_MIN_POPULATION = 5_000;
export const DEFAULT_MAX_DISTANCE_MILES = 100;

export function createOfflineGeocoder(gazetteer: () => Gazetteer = loadGazetteer): Geocoder {
  const lookup = (text: string): GeocodeLookup => {
    const query = parseQuery(text);
    return query === null ? { kind: 'not_found', suggestions: [] } : resolve(gazetteer(), query);
  };
  return {
    lookup,
    geocode(text) {
      const answer = lookup(text);
      return answer.kind === 'found' ? answer.result : null;
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

function resolve(gazetteer: Gazetteer, query: ParsedQuery): GeocodeLookup {
  if (query.zip !== null) {
    const zip = gazetteer.zip(query.zip);
    const stateAgrees = query.regions.length === 0 || query.regions.some((r) => r.country === 'US' && r.code === zip?.region);
    if (zip !== undefined && stateAgrees) {
      return found({
        latitude: zip.latitude,
        longitude: zip.longitude,
        name: zip.name,
        precision: 'zip',
        country: 'US',
        region: zip.region,
        postalCode: zip.zip,
        matched: `${zip.name} ${zip.zip}`,
      });
    }
  }
  for (const region of query.regions) {
    for (const key of query.cities) {
      const place = findInRegion(gazetteer, region, key);
      if (place !== undefined) return found(cityResult(place));
    }
  }
  // No region, or the city is in none of them: "Toronto, Canada", "Chicago", "Toluca, Mexico".
  // Only the whole name: without a state, the last word of "12345 Main Street" is no town to trust.
  const name = query.cities[0];
  if ((query.regions.length === 0 || query.country !== null) && name !== undefined) {
    const places = gazetteer.placesNamed(name, query.country);
    if (places.length === 1) return found(cityResult(places[0]!));
    if (places.length > 1) return { kind: 'ambiguous', candidates: places.slice(0, MAX_CANDIDATES).map((p) => p.name) };
  }
  return { kind: 'not_found', suggestions: suggestions(gazetteer, query) };
}

/**
 * Near misses for each city key in turn (the first key that has any wins), within the regions given,
 * or the country named, or anywhere; failing that, the places of the exact name in other regions
 * ("Dallas, OK" → Dallas, TX, …).
 */
function suggestions(gazetteer: Gazetteer, query: ParsedQuery): string[] {
  const scope = query.regions.length > 0 ? query.regions : query.country !== null ? REGIONS.filter((r) => r.country === query.country) : [];
  for (const key of query.cities) {
    const near = gazetteer.similarPlaces(key, scope, suggestionBound(key), MAX_CANDIDATES);
    if (near.length > 0) return near.map((p) => p.name);
  }
  if (query.regions.length === 0) return [];
  for (const key of query.cities) {
    const elsewhere = gazetteer.placesNamed(key, query.country);
    if (elsewhere.length > 0) return elsewhere.slice(0, MAX_CANDIDATES).map((p) => p.name);
  }
  return [];
}

/** "Ciudad Juárez" is "Juárez" in GeoNames and "Cd. Obregón" is "Ciudad Obregón": try both. */
function findInRegion(gazetteer: Gazetteer, region: Parameters<Gazetteer['cityInRegion']>[0], key: string): Place | undefined {
  const direct = gazetteer.cityInRegion(region, key);
  if (direct !== undefined || region.country !== 'MX') return direct;
  return key.startsWith('ciudad ') ? gazetteer.cityInRegion(region, key.slice(7)) : gazetteer.cityInRegion(region, `ciudad ${key}`);
}

const found = (result: GeocodeResult): GeocodeLookup => ({ kind: 'found', result });

const cityResult = (place: Place): GeocodeResult => ({
  latitude: place.latitude,
  longitude: place.longitude,
  name: place.name,
  precision: 'city',
  country: place.country,
  region: place.region,
  matched: place.name,
});
