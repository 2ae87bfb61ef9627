import { geoAlbersUsa } from 'd3-geo';
import { describe, expect, it } from 'vitest';
import { polylinePath, projectPoint, projectRuns, type Project } from './map-geometry';

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
