import { geoAlbersUsa } from 'd3-geo';
import { describe, expect, it } from 'vitest';
import { boundsOf, fitViewBox, polylinePath, projectPoint, projectRuns, type Project } from './map-geometry';

const albers = geoAlbersUsa().scale(1300).translate([487.5, 305]);
const project: Project = (p) => albers(p);
const dallas = { latitude: 32.7767, longitude: -96.797 };
const chicago = { latitude: 41.8781, longitude: -87.6298 };
const mexicoCity = { latitude: 19.4326, longitude: -99.1332 };
const toronto = { latitude: 43.6532, longitude: -79.3832 };

describe('points on the Albers USA map', () => {
  it('places US points inside the box and answers null for points it cannot place', () => {
    const [x, y] = projectPoint(project, dallas)!;
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(975);
    expect(y).toBeGreaterThan(0);
    expect(y).toBeLessThan(610);
    expect(projectPoint(project, chicago)![1]).toBeLessThan(y); // north is up
    expect(projectPoint(project, mexicoCity)).toBeNull();
    expect(projectPoint(project, { latitude: Number.NaN, longitude: -96 })).toBeNull();
    expect(projectPoint(() => [Number.NaN, 1], dallas)).toBeNull();
  });

  it('cuts a line where its points fall off the map and drops single points', () => {
    expect(projectRuns(project, [dallas, chicago])).toHaveLength(1);
    const runs = projectRuns(project, [dallas, chicago, mexicoCity, dallas, chicago, mexicoCity, chicago]);
    expect(runs.map((r) => r.length)).toEqual([2, 2]);
    expect(projectRuns(project, [mexicoCity, mexicoCity])).toEqual([]);
    expect(projectRuns(project, [])).toEqual([]);
    // Toronto is outside the projection's lower-48 clip too: the line stops at the border.
    expect(projectRuns(project, [chicago, toronto]).length).toBeLessThanOrEqual(1);
  });

  it('writes one subpath per run', () => {
    expect(polylinePath([[[1, 2], [3.456, 4]], [[5, 6], [7, 8], [9, 10]]])).toBe('M1,2L3.5,4M5,6L7,8L9,10');
    expect(polylinePath([])).toBe('');
  });
});

describe('a view fitted to a route', () => {
  const frame = { x: 0, y: 0, width: 975, height: 610 };
  const opts = { padding: 0.15, minWidth: 100 };
  const seattle = { latitude: 47.6062, longitude: -122.3321 };
  const portland = { latitude: 45.5152, longitude: -122.6784 };
  const contains = (outer: { x: number; y: number; width: number; height: number }, inner: typeof outer) =>
    outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;

  it('finds the box around the points, skipping unreadable ones', () => {
    expect(boundsOf([[3, 4], [1, 9], [Number.NaN, 0], [2, 6]])).toEqual({ x: 1, y: 4, width: 2, height: 5 });
    expect(boundsOf([])).toBeNull();
  });

  it('zooms a Seattle → Portland route to fill most of the view, keeping the map’s proportions', () => {
    const bounds = boundsOf(projectRuns(project, [seattle, portland]).flat())!;
    // On the whole-country map the route is a short stroke.
    expect(bounds.height / frame.height).toBeLessThan(0.15);
    const view = fitViewBox(bounds, frame, opts);
    expect(contains(view, bounds)).toBe(true);
    expect(view.width / view.height).toBeCloseTo(frame.width / frame.height, 2);
    expect(Math.max(bounds.width / view.width, bounds.height / view.height)).toBeGreaterThan(0.6);
    expect(contains(frame, view)).toBe(true);
  });

  it('keeps a minimum span, so a short or one-point route is not absurdly zoomed', () => {
    const dallasXy = projectPoint(project, dallas)!;
    const view = fitViewBox({ x: dallasXy[0], y: dallasXy[1], width: 0, height: 0 }, frame, opts);
    expect(view.width).toBeCloseTo(100, 0);
    expect(view.height).toBeCloseTo(100 * (610 / 975), 0);
    expect(view.x + view.width / 2).toBeCloseTo(dallasXy[0], 0);
    expect(view.y + view.height / 2).toBeCloseTo(dallasXy[1], 0);
  });

  it('moves the view inside the map near its edge and shows the whole map for a coast-to-coast route or nothing', () => {
    const nearCorner = fitViewBox({ x: 2, y: 3, width: 10, height: 10 }, frame, opts);
    expect(nearCorner.x).toBe(0);
    expect(nearCorner.y).toBe(0);
    expect(contains(nearCorner, { x: 2, y: 3, width: 10, height: 10 })).toBe(true);
    expect(fitViewBox({ x: 40, y: 100, width: 880, height: 300 }, frame, opts)).toEqual(frame);
    expect(fitViewBox(null, frame, opts)).toEqual(frame);
  });
});
