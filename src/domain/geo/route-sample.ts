/**
 * Points along the rest of an active route, for the integrations that look ahead of a truck (weather at
 * points along its path, fuel prices near it): the planned path from the vehicle's latest position (or
 * from the start of the first unfinished drive) to the last stop, sampled every `spacingMiles`.
 */
import { cumulativeMiles, nearestPointOnPath, pointAlongPath } from './path.js';
import type { LatLng } from './geodesy.js';

/** A drive of the plan: where it goes from and to, and when it ends (ms). */
export interface PlannedDrive {
  from: LatLng;
  to: LatLng;
  endsAt: number;
}

export interface SampleOptions {
  spacingMiles: number;
  /** At most this many points (the spacing widens to fit a long route). */
  maxPoints: number;
}

export const DEFAULT_SAMPLE: SampleOptions = { spacingMiles: 50, maxPoints: 40 };

/**
 * The path still ahead: the drives not yet ended at `now`, joined end to end, started at the foot of
 * `position` on that path when a position is known. Empty when no drive is left.
 */
export function pathAhead(drives: readonly PlannedDrive[], now: number, position: LatLng | null): LatLng[] {
  const left = drives.filter((d) => d.endsAt > now);
  if (left.length === 0) return [];
  const path: LatLng[] = [left[0]!.from];
  for (const d of left) path.push(d.to);
  if (position === null) return path;
  const foot = nearestPointOnPath(path, position);
  return [foot.point, ...path.slice(foot.segmentIndex + 1)];
}

/** Points every `spacingMiles` along the path, its first and last point included, never more than `maxPoints`. */
export function samplePath(path: readonly LatLng[], opts: SampleOptions = DEFAULT_SAMPLE): LatLng[] {
  if (path.length === 0) return [];
  const cum = cumulativeMiles(path);
  const total = cum[cum.length - 1]!;
  if (total === 0 || opts.maxPoints < 2) return [{ latitude: path[0]!.latitude, longitude: path[0]!.longitude }];
  const intervals = Math.min(opts.maxPoints - 1, Math.max(1, Math.ceil(total / opts.spacingMiles)));
  const out: LatLng[] = [];
  for (let i = 0; i <= intervals; i++) out.push(pointAlongPath(path, (total * i) / intervals, cum).point);
  return out;
}
