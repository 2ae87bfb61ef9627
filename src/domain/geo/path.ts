/**
 * Polylines (a route's path as a list of points joined by great-circle segments): length, position after
 * a given distance, nearest point to an observed position, and densification for display and placement.
 */
import { alongTrackMiles, crossTrackMiles, haversineMiles, interpolate, type LatLng } from './geodesy.js';

export interface PointOnPath {
  point: LatLng;
  /** Index i of the segment path[i] → path[i+1] that holds the point (0 for a one-point path). */
  segmentIndex: number;
  /** Miles from the start of the path, after clamping to [0, length]. */
  milesAlong: number;
}

export interface NearestOnPath extends PointOnPath {
  /** Great-circle distance from the query point to the path. */
  distanceMiles: number;
}

/** Total length of the polyline in miles (0 for fewer than two points). */
export function pathLengthMiles(path: readonly LatLng[]): number {
  let total = 0;
  for (let i = 1; i < path.length; i++) total += haversineMiles(path[i - 1]!, path[i]!);
  return total;
}

/**
 * Cumulative miles at each vertex: result[0] = 0, result[n-1] = path length. Callers that place many
 * points along one path compute this once and pass it to {@link pointAlongPath}.
 */
export function cumulativeMiles(path: readonly LatLng[]): Float64Array {
  const out = new Float64Array(path.length);
  for (let i = 1; i < path.length; i++) out[i] = out[i - 1]! + haversineMiles(path[i - 1]!, path[i]!);
  return out;
}

/**
 * The position `miles` from the start of the path, following its segments. Distances below 0 or past
 * the end are clamped to the endpoints.
 */
export function pointAlongPath(path: readonly LatLng[], miles: number, cumulative?: Float64Array): PointOnPath {
  const first = path[0];
  if (first === undefined) throw new RangeError('pointAlongPath: the path is empty');
  if (path.length === 1 || !(miles > 0)) {
    return { point: { latitude: first.latitude, longitude: first.longitude }, segmentIndex: 0, milesAlong: 0 };
  }
  const cum = cumulative ?? cumulativeMiles(path);
  const total = cum[cum.length - 1]!;
  const lastIndex = path.length - 1;
  if (miles >= total) {
    const last = path[lastIndex]!;
    return { point: { latitude: last.latitude, longitude: last.longitude }, segmentIndex: lastIndex - 1, milesAlong: total };
  }
  // Binary search for the last vertex at or before `miles`.
  let lo = 0;
  let hi = lastIndex;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (cum[mid]! <= miles) lo = mid;
    else hi = mid;
  }
  const segmentMiles = cum[lo + 1]! - cum[lo]!;
  const fraction = segmentMiles === 0 ? 0 : (miles - cum[lo]!) / segmentMiles;
  return { point: interpolate(path[lo]!, path[lo + 1]!, fraction), segmentIndex: lo, milesAlong: miles };
}

/**
 * The point of the path closest to `point`: how far from the path the point is (route deviation) and
 * how far along the path its foot lies (progress).
 *
 * Segments that cannot beat the best found so far are skipped without trigonometry: by the triangle
 * inequality every point of a segment a–b lies at least (|pa| + |pb| - |ab|) / 2 from p.
 */
export function nearestPointOnPath(path: readonly LatLng[], point: LatLng): NearestOnPath {
  const first = path[0];
  if (first === undefined) throw new RangeError('nearestPointOnPath: the path is empty');
  let bestDistance = haversineMiles(point, first);
  let best: PointOnPath = { point: { latitude: first.latitude, longitude: first.longitude }, segmentIndex: 0, milesAlong: 0 };
  let milesBefore = 0;
  let distanceToA = bestDistance;
  for (let i = 0; i + 1 < path.length; i++) {
    const a = path[i]!;
    const b = path[i + 1]!;
    const segmentMiles = haversineMiles(a, b);
    const distanceToB = haversineMiles(point, b);
    if (distanceToB < bestDistance) {
      bestDistance = distanceToB;
      best = { point: { latitude: b.latitude, longitude: b.longitude }, segmentIndex: i, milesAlong: milesBefore + segmentMiles };
    }
    if (segmentMiles > 0 && (distanceToA + distanceToB - segmentMiles) / 2 < bestDistance) {
      const along = alongTrackMiles(point, a, b);
      if (along > 0 && along < segmentMiles) {
        const across = Math.abs(crossTrackMiles(point, a, b));
        if (across < bestDistance) {
          bestDistance = across;
          best = { point: interpolate(a, b, along / segmentMiles), segmentIndex: i, milesAlong: milesBefore + along };
        }
      }
    }
    milesBefore += segmentMiles;
    distanceToA = distanceToB;
  }
  return { ...best, distanceMiles: bestDistance };
}

/**
 * The great circle from a to b as a polyline whose segments are at most `maxSegmentMiles` long
 * (both endpoints included, exactly as given).
 */
export function greatCirclePath(a: LatLng, b: LatLng, maxSegmentMiles = 25): LatLng[] {
  if (!(maxSegmentMiles > 0)) throw new RangeError('greatCirclePath: maxSegmentMiles must be positive');
  const segments = Math.max(1, Math.ceil(haversineMiles(a, b) / maxSegmentMiles));
  const out: LatLng[] = [{ latitude: a.latitude, longitude: a.longitude }];
  for (let k = 1; k < segments; k++) out.push(interpolate(a, b, k / segments));
  out.push({ latitude: b.latitude, longitude: b.longitude });
  return out;
}

/** A polyline through `points`, each leg densified as a great circle (shared vertices appear once). */
export function densifyPath(points: readonly LatLng[], maxSegmentMiles = 25): LatLng[] {
  const first = points[0];
  if (first === undefined) return [];
  const out: LatLng[] = [{ latitude: first.latitude, longitude: first.longitude }];
  for (let i = 1; i < points.length; i++) out.push(...greatCirclePath(points[i - 1]!, points[i]!, maxSegmentMiles).slice(1));
  return out;
}
