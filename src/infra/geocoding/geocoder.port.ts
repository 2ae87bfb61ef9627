/**
 * Turning what a dispatcher typed into coordinates, and coordinates into a place name people recognise.
 * Synchronous: the implementation is an in-memory gazetteer, and nothing may be fetched at run time.
 */
import type { LatLng } from '../../domain/geo/index.js';
import type { Country } from './regions.js';

export type { Country } from './regions.js';

export interface GeocodeResult extends LatLng {
  /** "Dallas, TX", "Toronto, ON", "Monterrey, NL". */
  name: string;
  /** 'zip': a ZIP code's centroid; 'city': a city's centre. */
  precision: 'zip' | 'city';
  country: Country;
  /** State / province code as in `name`. */
  region: string;
  /** The ZIP code used, when precision is 'zip'. */
  postalCode?: string;
  /** What the text was matched to: "Dallas, TX", or "Dallas, TX 75201" for a ZIP. */
  matched: string;
}

/**
 * The outcome of reading one text: a place; or several places the text may mean (a city without a
 * state that more than one place bears: "Columbus"); or none, with the closest names when there are
 * some ("Chicgo, IL" → "Chicago, IL"). Candidates and suggestions are display names, best first.
 */
export type GeocodeLookup =
  | { kind: 'found'; result: GeocodeResult }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'not_found'; suggestions: string[] };

export interface NearbyPlace extends LatLng {
  /** "Amarillo, TX": for "near Amarillo, TX". */
  name: string;
  distanceMiles: number;
  population: number;
  country: Country;
}

export interface NearestPlaceOptions {
  /** Only towns at least this big (default 5,000: a name a driver will have seen on the signs). */
  minPopulation?: number;
  /** Give up beyond this distance (default 100 miles). */
  maxDistanceMiles?: number;
}

export interface Geocoder {
  /** Coordinates for a US ZIP, a "City, ST" (US, Canada, Mexico) or a street address; null when unknown. */
  geocode(text: string): GeocodeResult | null;
  /** The same reading, saying why nothing was found: the candidates of an ambiguous name, or near misses. */
  lookup(text: string): GeocodeLookup;
  /** The nearest town of some size, or null when none is within reach. */
  nearestPlace(point: LatLng, options?: NearestPlaceOptions): NearbyPlace | null;
}
