/**
 * The time zone of a place from its coordinates, for times that happened there and that the API gives
 * without a zone (a segment of unassigned driving at its start place). An offline table
 * (@photostructure/tz-lookup, the one the server uses): no request, loaded only by the pages that need it.
 * Pure; tested in place-zone.test.ts.
 */
import tzLookup from '@photostructure/tz-lookup';

/** The IANA zone at the place ("America/Chicago"); `fallback` (UTC unless told) when there is no place or the lookup cannot say. */
export function placeZone(place: { latitude: number; longitude: number } | null | undefined, fallback = 'UTC'): string {
  if (!place || !Number.isFinite(place.latitude) || !Number.isFinite(place.longitude)) return fallback;
  try {
    return tzLookup(place.latitude, place.longitude);
  } catch {
    return fallback;
  }
}
