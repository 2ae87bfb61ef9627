/**
 * The plan as monitoring sees it: the polyline the vehicle should follow and, for every plan time, how
 * far along that polyline it should be. Segments carry only their end points (no road geometry), so the
 * path is the chain of drive from/to points and rest, fuel, wait and dock locations in sequence.
 */
import { distanceToSegment, haversineMiles, type LatLng } from '../geo/geodesy.js';
import { cumulativeMiles } from '../geo/path.js';
import type { Segment, StopEta } from '../planning/types.js';

/** A plan time and the path miles the plan puts the vehicle at then. Knots are non-decreasing in both. */
export interface PlanKnot {
  at: number;
  miles: number;
}

export interface PlannedPath {
  points: LatLng[];
  /** Path miles at each point (same length as points). */
  cumulative: Float64Array;
  totalMiles: number;
  knots: PlanKnot[];
}

export interface PathLocation {
  /** Great-circle distance from the position to the path. */
  distanceMiles: number;
  /** Miles along the path of the nearest point. */
  milesAlong: number;
}

/** Points closer than this are one vertex (a drive's end and the rest taken there). */
const SAME_POINT_MILES = 0.01;
/** A vehicle this close (along the path) to a place where the plan stands is there. */
export const AT_PLACE_MILES = 1;
/** Nearest-point candidates this close to the best one are ties, settled by the plan (out-and-back routes). */
const TIE_MILES = 0.5;

/** The points a segment puts on the path, with the plan times at which the vehicle is at each. */
function segmentStations(segment: Segment): { point: LatLng; at: number }[] {
  const start = Date.parse(segment.start_time);
  const end = Date.parse(segment.end_time);
  if (segment.type === 'drive') return [{ point: segment.from, at: start }, { point: segment.to, at: end }];
  const point = { latitude: segment.latitude, longitude: segment.longitude };
  return [{ point, at: start }, { point, at: end }];
}

/** Without segments (an empty plan), the stops themselves at their planned arrival and departure. */
function stopStations(stops: StopEta[]): { point: LatLng; at: number }[] {
  return stops.flatMap((s) => [
    { point: s, at: Date.parse(s.arrivalTime) },
    { point: s, at: Date.parse(s.departureTime) },
  ]);
}

export function plannedPathOf(segments: Segment[], stops: StopEta[] = []): PlannedPath {
  const ordered = [...segments].sort((a, b) => a.sequence - b.sequence);
  const stations = (ordered.length > 0 ? ordered.flatMap(segmentStations) : stopStations(stops)).filter(
    (s) => Number.isFinite(s.at) && Number.isFinite(s.point.latitude) && Number.isFinite(s.point.longitude),
  );
  const points: LatLng[] = [];
  const vertexOfStation: number[] = [];
  for (const { point } of stations) {
    const last = points[points.length - 1];
    if (last === undefined || haversineMiles(last, point) > SAME_POINT_MILES) {
      points.push({ latitude: point.latitude, longitude: point.longitude });
    }
    vertexOfStation.push(points.length - 1);
  }
  const cumulative = cumulativeMiles(points);
  const knots: PlanKnot[] = [];
  stations.forEach((s, i) => {
    const miles = cumulative[vertexOfStation[i]!]!;
    const prev = knots[knots.length - 1];
    // A plan is contiguous in time; guard against a malformed one rather than trust it.
    knots.push({ at: prev ? Math.max(prev.at, s.at) : s.at, miles });
  });
  return { points, cumulative, totalMiles: points.length > 0 ? cumulative[points.length - 1]! : 0, knots };
}

/** Where the plan puts the vehicle at time `at` (path miles); before the plan 0, after it the end. */
export function plannedMilesAt(path: PlannedPath, at: number): number {
  const { knots } = path;
  const first = knots[0];
  if (first === undefined) return 0;
  if (at <= first.at) return first.miles;
  for (let i = 1; i < knots.length; i++) {
    const a = knots[i - 1]!;
    const b = knots[i]!;
    if (at <= b.at) return b.at === a.at ? b.miles : a.miles + ((at - a.at) / (b.at - a.at)) * (b.miles - a.miles);
  }
  return knots[knots.length - 1]!.miles;
}

/**
 * The plan times at which the vehicle is at `miles`: an interval, since the plan stands still at rests
 * and docks. A vehicle within `atPlaceMiles` of such a place counts as there: it parks a little off the
 * planned point, and its foot on the path can fall just short of it. Outside the path, the plan's first
 * or last time.
 */
export function planTimesAtMiles(path: PlannedPath, miles: number, atPlaceMiles = AT_PLACE_MILES): { first: number; last: number } | null {
  const { knots } = path;
  if (knots.length === 0) return null;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 1; i < knots.length; i++) {
    const a = knots[i - 1]!;
    const b = knots[i]!;
    if (b.miles === a.miles) {
      if (Math.abs(miles - a.miles) > atPlaceMiles) continue;
      first = Math.min(first, a.at);
      last = Math.max(last, b.at);
    } else if (miles >= a.miles && miles <= b.miles) {
      const t = a.at + ((miles - a.miles) / (b.miles - a.miles)) * (b.at - a.at);
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
  }
  if (first === Infinity) {
    const edge = miles <= knots[0]!.miles ? knots[0]! : knots[knots.length - 1]!;
    return { first: edge.at, last: edge.at };
  }
  return { first, last };
}

/**
 * The position's distance from the path and where along it it lies. Where the path passes the same
 * place twice (out and back), the candidate nearest to where the plan expects the vehicle wins.
 */
export function locateOnPath(path: PlannedPath, position: LatLng, expectedMiles: number): PathLocation | null {
  const { points, cumulative } = path;
  if (points.length === 0) return null;
  if (points.length === 1) return { distanceMiles: haversineMiles(position, points[0]!), milesAlong: 0 };
  const candidates: PathLocation[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const { distanceMiles, alongMiles } = distanceToSegment(position, points[i]!, points[i + 1]!);
    candidates.push({ distanceMiles, milesAlong: cumulative[i]! + alongMiles });
  }
  const best = Math.min(...candidates.map((c) => c.distanceMiles));
  const ties = candidates.filter((c) => c.distanceMiles <= best + TIE_MILES);
  ties.sort((a, b) => Math.abs(a.milesAlong - expectedMiles) - Math.abs(b.milesAlong - expectedMiles));
  const chosen = ties[0]!;
  // Report the true nearest distance even when a tie further along was chosen for progress.
  return { distanceMiles: best, milesAlong: chosen.milesAlong };
}

/**
 * How far behind plan a vehicle at `milesAlong` at time `at` is (ms, ≥ 0): the time past the last plan
 * moment the vehicle should have been there. Ahead of plan counts as on time: the plan's rests are
 * required by HOS, so being early on the road does not make later arrivals earlier.
 */
export function delayBehindPlan(path: PlannedPath, milesAlong: number, at: number): number {
  const times = planTimesAtMiles(path, milesAlong);
  if (times === null) return 0;
  return Math.max(0, at - times.last);
}
