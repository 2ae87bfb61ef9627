/**
 * Points on the map: a projection may have no place for a point (geoAlbersUsa answers null outside the
 * lower 48, Alaska and Hawaii), so lines are cut where points fall off and markers there are skipped.
 * Pure; tested in map-geometry.test.ts.
 */
import type { GeoPoint } from './route-map';

export type Project = (lonLat: [number, number]) => [number, number] | null;

/** The projected point, or null when the projection has none (or answers nonsense). */
export function projectPoint(project: Project, p: GeoPoint): [number, number] | null {
  if (!Number.isFinite(p.latitude) || !Number.isFinite(p.longitude)) return null;
  const xy = project([p.longitude, p.latitude]);
  if (!xy || !Number.isFinite(xy[0]) || !Number.isFinite(xy[1])) return null;
  return xy;
}

/** Runs of consecutive projectable points (a run of one point draws nothing, so it is dropped). */
export function projectRuns(project: Project, points: readonly GeoPoint[]): Array<Array<[number, number]>> {
  const runs: Array<Array<[number, number]>> = [];
  let run: Array<[number, number]> = [];
  for (const p of points) {
    const xy = projectPoint(project, p);
    if (xy) {
      run.push(xy);
      continue;
    }
    if (run.length > 1) runs.push(run);
    run = [];
  }
  if (run.length > 1) runs.push(run);
  return runs;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** An SVG path `d` through the runs (each run its own subpath); '' when there is nothing to draw. */
export function polylinePath(runs: ReadonlyArray<ReadonlyArray<[number, number]>>): string {
  return runs.map((run) => run.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${r1(x)},${r1(y)}`).join('')).join('');
}
