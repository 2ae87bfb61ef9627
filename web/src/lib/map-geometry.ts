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

/** A box on the map, in the map's own units (an SVG viewBox). */
export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest box around the points; null when there are none. */
export function boundsOf(points: Iterable<readonly [number, number]>): ViewBox | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of points) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export interface FitOptions {
  /** Room around the content on each side, as a share of the content's larger side. */
  padding: number;
  /** The narrowest view (in map units): a short route is shown with some country around it. */
  minWidth: number;
}

/**
 * The view of `frame` that shows `content` large: the content's box padded, at least `minWidth` wide,
 * widened to the frame's proportions around the content's centre and moved inside the frame; the whole
 * frame when there is no content or the content needs (nearly) all of it.
 */
export function fitViewBox(content: ViewBox | null, frame: ViewBox, opts: FitOptions): ViewBox {
  if (!content) return frame;
  const pad = Math.max(content.width, content.height) * opts.padding;
  let width = Math.max(content.width + 2 * pad, opts.minWidth);
  let height = content.height + 2 * pad;
  const aspect = frame.width / frame.height;
  if (width / height > aspect) height = width / aspect;
  else width = height * aspect;
  if (width >= frame.width * 0.9) return frame;
  const cx = content.x + content.width / 2;
  const cy = content.y + content.height / 2;
  const x = Math.min(Math.max(cx - width / 2, frame.x), frame.x + frame.width - width);
  const y = Math.min(Math.max(cy - height / 2, frame.y), frame.y + frame.height - height);
  return { x: r1(x), y: r1(y), width: r1(width), height: r1(height) };
}
