/** Geodesy for planning and monitoring: pure functions over {latitude, longitude} in degrees, distances in statute miles. */
export {
  EARTH_RADIUS_MILES,
  type LatLng,
  alongTrackMiles,
  angularDistance,
  crossTrackMiles,
  destinationPoint,
  distanceToSegment,
  haversineMiles,
  initialBearing,
  interpolate,
  isValidLatLng,
  normalizeLongitude,
  toDegrees,
  toRadians,
} from './geodesy.js';
export {
  type NearestOnPath,
  type PointOnPath,
  cumulativeMiles,
  densifyPath,
  greatCirclePath,
  nearestPointOnPath,
  pathLengthMiles,
  pointAlongPath,
} from './path.js';
export { type LandMass, isInNorthAmerica, landMassOf } from './region.js';
export { type NearestHit, PointIndex } from './point-index.js';
