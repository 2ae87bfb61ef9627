export type { Country, GeocodeLookup, GeocodeResult, Geocoder, NearbyPlace, NearestPlaceOptions } from './geocoder.port.js';
export { createOfflineGeocoder, MAX_CANDIDATES, DEFAULT_MAX_DISTANCE_MILES, DEFAULT_MIN_POPULATION, offlineGeocoder } from './offline-geocoder.js';
export { type GazetteerStats, loadGazetteer, preloadGazetteer } from './gazetteer.js';
