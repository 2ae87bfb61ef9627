/**
 * Spherical-Earth geodesy in statute miles. Pure: no I/O, deterministic.
 *
 * A sphere of radius 3958.8 mi is within ~0.5 % of the WGS-84 ellipsoid everywhere, which is far below
 * the error of any road-distance estimate built on it; the formulas are the standard ones (Sinnott's
 * haversine, the great-circle intermediate point, and cross-/along-track distance).
 */
export const EARTH_RADIUS_MILES = 3958.8;

export interface LatLng {
  /** Degrees north, -90..90. */
  latitude: number;
  /** Degrees east, -180..180. */
  longitude: number;
}

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

export const toRadians = (degrees: number): number => degrees * RAD;
export const toDegrees = (radians: number): number => radians * DEG;

/** A finite latitude in [-90, 90] and longitude in [-180, 180]. */
export function isValidLatLng(p: LatLng): boolean {
  return (
    Number.isFinite(p.latitude) &&
    Number.isFinite(p.longitude) &&
    Math.abs(p.latitude) <= 90 &&
    Math.abs(p.longitude) <= 180
  );
}

/** Central angle between two points, in radians (0..π). */
export function angularDistance(a: LatLng, b: LatLng): number {
  const phi1 = a.latitude * RAD;
  const phi2 = b.latitude * RAD;
  const sinHalfDPhi = Math.sin((phi2 - phi1) / 2);
  const sinHalfDLambda = Math.sin(((b.longitude - a.longitude) * RAD) / 2);
  const h = sinHalfDPhi * sinHalfDPhi + Math.cos(phi1) * Math.cos(phi2) * sinHalfDLambda * sinHalfDLambda;
  // Rounding can push h a hair above 1 for antipodal points.
  return 2 * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** Great-circle distance in miles. */
export function haversineMiles(a: LatLng, b: LatLng): number {
  return angularDistance(a, b) * EARTH_RADIUS_MILES;
}

/** Initial bearing (forward azimuth) from a towards b, degrees clockwise from true north in [0, 360). */
export function initialBearing(a: LatLng, b: LatLng): number {
  const phi1 = a.latitude * RAD;
  const phi2 = b.latitude * RAD;
  const dLambda = (b.longitude - a.longitude) * RAD;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  const degrees = Math.atan2(y, x) * DEG;
  return (degrees + 360) % 360;
}

/** The point reached from `start` after `miles` on the initial bearing `bearingDegrees`. */
export function destinationPoint(start: LatLng, bearingDegrees: number, miles: number): LatLng {
  const delta = miles / EARTH_RADIUS_MILES;
  const theta = bearingDegrees * RAD;
  const phi1 = start.latitude * RAD;
  const sinPhi2 = Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta);
  const phi2 = Math.asin(Math.max(-1, Math.min(1, sinPhi2)));
  const lambda2 =
    start.longitude * RAD +
    Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * sinPhi2);
  return { latitude: phi2 * DEG, longitude: normalizeLongitude(lambda2 * DEG) };
}

/** Longitude folded into [-180, 180). */
export function normalizeLongitude(longitude: number): number {
  return ((((longitude + 180) % 360) + 360) % 360) - 180;
}

/**
 * The point a `fraction` of the way from a to b along the great circle (0 → a, 1 → b; values outside
 * [0, 1] extrapolate along the same circle). For antipodal endpoints the great circle is undefined and
 * the result is a.
 */
export function interpolate(a: LatLng, b: LatLng, fraction: number): LatLng {
  if (fraction === 0) return { latitude: a.latitude, longitude: a.longitude };
  if (fraction === 1) return { latitude: b.latitude, longitude: b.longitude };
  const delta = angularDistance(a, b);
  const sinDelta = Math.sin(delta);
  if (sinDelta < 1e-12) {
    // Coincident (or antipodal) endpoints: the straight lerp is exact for the former, a fallback for the latter.
    return {
      latitude: a.latitude + (b.latitude - a.latitude) * fraction,
      longitude: a.longitude + (b.longitude - a.longitude) * fraction,
    };
  }
  const wa = Math.sin((1 - fraction) * delta) / sinDelta;
  const wb = Math.sin(fraction * delta) / sinDelta;
  const phi1 = a.latitude * RAD;
  const phi2 = b.latitude * RAD;
  const lambda1 = a.longitude * RAD;
  const lambda2 = b.longitude * RAD;
  const x = wa * Math.cos(phi1) * Math.cos(lambda1) + wb * Math.cos(phi2) * Math.cos(lambda2);
  const y = wa * Math.cos(phi1) * Math.sin(lambda1) + wb * Math.cos(phi2) * Math.sin(lambda2);
  const z = wa * Math.sin(phi1) + wb * Math.sin(phi2);
  return { latitude: Math.atan2(z, Math.hypot(x, y)) * DEG, longitude: Math.atan2(y, x) * DEG };
}

/**
 * Signed distance in miles from `point` to the great circle through a and b: positive when the point is
 * to the right of the direction of travel a → b, negative to the left. When a and b coincide the circle
 * is undefined and the distance to a is returned (positive).
 */
export function crossTrackMiles(point: LatLng, a: LatLng, b: LatLng): number {
  const delta13 = angularDistance(a, point);
  if (angularDistance(a, b) === 0) return delta13 * EARTH_RADIUS_MILES;
  const theta13 = initialBearing(a, point) * RAD;
  const theta12 = initialBearing(a, b) * RAD;
  const sinXt = Math.sin(delta13) * Math.sin(theta13 - theta12);
  return Math.asin(Math.max(-1, Math.min(1, sinXt))) * EARTH_RADIUS_MILES;
}

/**
 * Distance in miles from a, along the great circle towards b, to the foot of the perpendicular from
 * `point`: negative when the point lies behind a, greater than |ab| when it lies beyond b.
 */
export function alongTrackMiles(point: LatLng, a: LatLng, b: LatLng): number {
  const delta13 = angularDistance(a, point);
  if (delta13 === 0 || angularDistance(a, b) === 0) return 0;
  const theta13 = initialBearing(a, point) * RAD;
  const theta12 = initialBearing(a, b) * RAD;
  const deltaXt = Math.asin(Math.max(-1, Math.min(1, Math.sin(delta13) * Math.sin(theta13 - theta12))));
  const cosXt = Math.cos(deltaXt);
  const ratio = cosXt === 0 ? 0 : Math.max(-1, Math.min(1, Math.cos(delta13) / cosXt));
  const sign = Math.cos(theta13 - theta12) < 0 ? -1 : 1;
  return sign * Math.acos(ratio) * EARTH_RADIUS_MILES;
}

/** Distance to the segment a–b itself (not the whole great circle), and how far along it the nearest point lies. */
export function distanceToSegment(point: LatLng, a: LatLng, b: LatLng): { distanceMiles: number; alongMiles: number } {
  const segmentMiles = haversineMiles(a, b);
  if (segmentMiles === 0) return { distanceMiles: haversineMiles(point, a), alongMiles: 0 };
  const along = alongTrackMiles(point, a, b);
  if (along <= 0) return { distanceMiles: haversineMiles(point, a), alongMiles: 0 };
  if (along >= segmentMiles) return { distanceMiles: haversineMiles(point, b), alongMiles: segmentMiles };
  return { distanceMiles: Math.abs(crossTrackMiles(point, a, b)), alongMiles: along };
}
