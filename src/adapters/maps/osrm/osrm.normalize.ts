/**
 * OSRM route-service payloads → legs. Pure, tested against fixtures in the documented format
 * (osrm-backend docs/http.md: Route, RouteLeg, Annotation, Waypoint objects).
 *
 * With overview=full the route geometry is the legs' geometries joined end to start, each shared
 * waypoint coordinate kept once (osrm-backend assembleOverview). With annotations=distance each leg
 * carries one distance per segment of its own geometry, so leg i covers annotation.distance.length
 * segments of the overview: that is how the overview is cut per leg. Should the counts not add up (an
 * engine or a proxy that drops annotations), the cut falls back to the coordinate nearest each snapped
 * intermediate waypoint.
 */
import { haversineMiles, type LatLng } from '../../../domain/geo/index.js';
import { DistanceProviderError, type Leg } from '../distance.port.js';

const METRES_PER_MILE = 1609.344;

export interface OsrmRouteResponse {
  code: string;
  message?: string;
  routes?: Array<{
    distance: number;
    duration: number;
    geometry?: { type: 'LineString'; coordinates: Array<[number, number]> };
    legs: Array<{ distance: number; duration: number; annotation?: { distance?: number[] } }>;
  }>;
  waypoints?: Array<{ location: [number, number]; name?: string; distance?: number; hint?: string }>;
}

const bad = (message: string): DistanceProviderError => new DistanceProviderError('BAD_RESPONSE', `OSRM: ${message}`);

/** Maps a non-"Ok" code to the error the planner acts on. */
export function osrmError(code: string, message: string | undefined, httpStatus: number): DistanceProviderError {
  const details = { httpStatus, vendorCode: code };
  const text = message ? `${code}: ${message}` : code;
  switch (code) {
    case 'NoRoute':
      return new DistanceProviderError('NO_ROUTE', `No road route between the stops (OSRM ${text})`, details);
    case 'NoSegment':
      return new DistanceProviderError('NO_SEGMENT', `A stop is too far from any road (OSRM ${text})`, details);
    case 'InvalidQuery':
    case 'InvalidValue':
    case 'InvalidOptions':
    case 'TooBig':
      return new DistanceProviderError('INVALID_INPUT', `OSRM rejected the request (${text})`, details);
    default:
      return new DistanceProviderError('UNAVAILABLE', `OSRM answered ${text}`, details);
  }
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isPosition = (v: unknown): v is [number, number] => Array.isArray(v) && v.length >= 2 && isFiniteNumber(v[0]) && isFiniteNumber(v[1]);
const toLatLng = ([longitude, latitude]: [number, number]): LatLng => ({ latitude, longitude });

/** The legs of the first (recommended) route of a successful response for `pointCount` input points. */
export function legsFromOsrmResponse(body: unknown, pointCount: number): Leg[] {
  const response = body as OsrmRouteResponse;
  if (typeof response !== 'object' || response === null || typeof response.code !== 'string') throw bad('response has no code');
  if (response.code !== 'Ok') throw osrmError(response.code, response.message, 200);
  const route = response.routes?.[0];
  if (route === undefined) throw bad('no route in the response');
  const legs = route.legs;
  if (!Array.isArray(legs) || legs.length !== pointCount - 1) {
    throw bad(`expected ${pointCount - 1} legs, got ${Array.isArray(legs) ? legs.length : 'none'}`);
  }
  const coordinates = route.geometry?.coordinates;
  if (!Array.isArray(coordinates) || coordinates.length < 2 || !coordinates.every(isPosition)) {
    throw bad('route geometry missing (request overview=full&geometries=geojson)');
  }
  const path = coordinates.map(toLatLng);
  const geometries = splitByAnnotations(path, legs) ?? splitByWaypoints(path, response.waypoints, legs.length);
  return legs.map((leg, i) => {
    if (!isFiniteNumber(leg.distance) || !isFiniteNumber(leg.duration) || leg.distance < 0 || leg.duration < 0) {
      throw bad(`leg ${i + 1} has no distance or duration`);
    }
    return { distanceMiles: leg.distance / METRES_PER_MILE, durationHours: leg.duration / 3600, geometry: geometries[i]! };
  });
}

function splitByAnnotations(path: LatLng[], legs: NonNullable<OsrmRouteResponse['routes']>[number]['legs']): LatLng[][] | null {
  const counts = legs.map((leg) => leg.annotation?.distance?.length);
  if (counts.some((c) => c === undefined)) return null;
  const segments = (counts as number[]).reduce((a, b) => a + b, 0);
  if (segments + 1 !== path.length) return null;
  let start = 0;
  return (counts as number[]).map((count) => {
    const piece = path.slice(start, start + count + 1);
    start += count;
    return piece.length >= 2 ? piece : [piece[0]!, piece[0]!];
  });
}

function splitByWaypoints(path: LatLng[], waypoints: OsrmRouteResponse['waypoints'], legCount: number): LatLng[][] {
  if (!Array.isArray(waypoints) || waypoints.length !== legCount + 1 || !waypoints.every((w) => isPosition(w?.location))) {
    throw bad('cannot split the geometry per leg: no annotations and no waypoints');
  }
  const pieces: LatLng[][] = [];
  let start = 0;
  for (let leg = 0; leg < legCount; leg++) {
    let end = path.length - 1;
    if (leg < legCount - 1) {
      // The snapped waypoint lies on the path: take the nearest coordinate at or after the previous cut.
      const target = toLatLng(waypoints[leg + 1]!.location);
      let best = Infinity;
      for (let k = start; k < path.length; k++) {
        const d = haversineMiles(path[k]!, target);
        if (d < best) {
          best = d;
          end = k;
        }
      }
    }
    const piece = path.slice(start, end + 1);
    pieces.push(piece.length >= 2 ? piece : [piece[0]!, piece[0]!]);
    start = end;
  }
  return pieces;
}
