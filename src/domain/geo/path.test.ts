import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cumulativeMiles,
  densifyPath,
  greatCirclePath,
  haversineMiles,
  interpolate,
  type LatLng,
  nearestPointOnPath,
  pathLengthMiles,
  pointAlongPath,
} from './index.js';

const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });
const DALLAS = at(32.7767, -96.797);
const OKLAHOMA_CITY = at(35.4676, -97.5164);
const AMARILLO = at(35.222, -101.8313);

const northAmerican = fc.record({
  latitude: fc.double({ min: 25, max: 60, noNaN: true }),
  longitude: fc.double({ min: -125, max: -65, noNaN: true }),
});
const route = fc.array(northAmerican, { minLength: 2, maxLength: 8 });

describe('pathLengthMiles', () => {
  it('adds the segments', () => {
    expect(pathLengthMiles([])).toBe(0);
    expect(pathLengthMiles([DALLAS])).toBe(0);
    expect(pathLengthMiles([DALLAS, OKLAHOMA_CITY, AMARILLO])).toBeCloseTo(
      haversineMiles(DALLAS, OKLAHOMA_CITY) + haversineMiles(OKLAHOMA_CITY, AMARILLO),
      9,
    );
  });

  it('of a densified great circle equals the great-circle distance', () => {
    fc.assert(
      fc.property(northAmerican, northAmerican, fc.integer({ min: 5, max: 200 }), (a, b, step) => {
        const path = greatCirclePath(a, b, step);
        expect(path[0]).toEqual(a);
        expect(path[path.length - 1]).toEqual(b);
        expect(pathLengthMiles(path)).toBeCloseTo(haversineMiles(a, b), 6);
        for (let i = 1; i < path.length; i++) expect(haversineMiles(path[i - 1]!, path[i]!)).toBeLessThanOrEqual(step + 1e-9);
      }),
    );
  });
});

describe('greatCirclePath / densifyPath', () => {
  it('densifies every ~25 miles and shares the joints', () => {
    const path = greatCirclePath(DALLAS, OKLAHOMA_CITY); // ~190 mi → 8 segments
    expect(path).toHaveLength(Math.ceil(haversineMiles(DALLAS, OKLAHOMA_CITY) / 25) + 1);
    const through = densifyPath([DALLAS, OKLAHOMA_CITY, AMARILLO]);
    expect(through.filter((p) => p.latitude === OKLAHOMA_CITY.latitude && p.longitude === OKLAHOMA_CITY.longitude)).toHaveLength(1);
    expect(pathLengthMiles(through)).toBeCloseTo(pathLengthMiles([DALLAS, OKLAHOMA_CITY, AMARILLO]), 6);
    expect(greatCirclePath(DALLAS, DALLAS)).toEqual([DALLAS, DALLAS]);
    expect(densifyPath([])).toEqual([]);
  });
});

describe('pointAlongPath', () => {
  it('walks the segments and clamps to the ends', () => {
    const path = [DALLAS, OKLAHOMA_CITY, AMARILLO];
    const first = haversineMiles(DALLAS, OKLAHOMA_CITY);
    expect(pointAlongPath(path, 0)).toEqual({ point: DALLAS, segmentIndex: 0, milesAlong: 0 });
    expect(pointAlongPath(path, -5).milesAlong).toBe(0);
    expect(pointAlongPath(path, first + 10).segmentIndex).toBe(1);
    expect(pointAlongPath(path, 1e6)).toEqual({ point: AMARILLO, segmentIndex: 1, milesAlong: pathLengthMiles(path) });
    expect(pointAlongPath([DALLAS], 50)).toEqual({ point: DALLAS, segmentIndex: 0, milesAlong: 0 });
    expect(() => pointAlongPath([], 1)).toThrow(RangeError);
    const halfway = pointAlongPath([DALLAS, OKLAHOMA_CITY], first / 2);
    expect(haversineMiles(halfway.point, interpolate(DALLAS, OKLAHOMA_CITY, 0.5))).toBeLessThan(1e-6);
  });

  it('agrees with the path length: the prefix up to the point is as long as asked', () => {
    fc.assert(
      fc.property(route, fc.double({ min: 0, max: 1, noNaN: true }), (path, fraction) => {
        const total = pathLengthMiles(path);
        const miles = fraction * total;
        const cum = cumulativeMiles(path);
        const hit = pointAlongPath(path, miles, cum);
        expect(hit).toEqual(pointAlongPath(path, miles)); // the precomputed table changes nothing
        expect(hit.milesAlong).toBeCloseTo(miles, 9);
        const prefix = [...path.slice(0, hit.segmentIndex + 1), hit.point];
        expect(pathLengthMiles(prefix)).toBeCloseTo(miles, 5);
        expect(cum[cum.length - 1]).toBeCloseTo(total, 9);
      }),
    );
  });
});

describe('nearestPointOnPath', () => {
  it('finds the deviation and the progress', () => {
    const path = greatCirclePath(DALLAS, OKLAHOMA_CITY);
    const onRoute = pointAlongPath(path, 60).point;
    const hit = nearestPointOnPath(path, onRoute);
    expect(hit.distanceMiles).toBeLessThan(1e-6);
    expect(hit.milesAlong).toBeCloseTo(60, 5);
    // Amarillo is well west of the I-35 corridor; its foot is past OKC so it clamps to the end.
    const off = nearestPointOnPath(path, AMARILLO);
    expect(off.milesAlong).toBeCloseTo(pathLengthMiles(path), 6);
    expect(off.distanceMiles).toBeCloseTo(haversineMiles(AMARILLO, OKLAHOMA_CITY), 6);
    expect(nearestPointOnPath([DALLAS], AMARILLO).distanceMiles).toBeCloseTo(haversineMiles(DALLAS, AMARILLO), 9);
    expect(() => nearestPointOnPath([], DALLAS)).toThrow(RangeError);
  });

  it('is never farther than the nearest vertex and matches a dense brute-force scan', () => {
    fc.assert(
      fc.property(route, northAmerican, (path, p) => {
        const hit = nearestPointOnPath(path, p);
        const nearestVertex = Math.min(...path.map((v) => haversineMiles(v, p)));
        expect(hit.distanceMiles).toBeLessThanOrEqual(nearestVertex + 1e-9);
        expect(haversineMiles(hit.point, p)).toBeCloseTo(hit.distanceMiles, 5);
        expect(pointAlongPath(path, hit.milesAlong).point).toMatchObject({
          latitude: expect.closeTo(hit.point.latitude, 5),
          longitude: expect.closeTo(hit.point.longitude, 5),
        });
        const dense = densifyPath(path, 2);
        const bruteForce = Math.min(...dense.map((v) => haversineMiles(v, p)));
        expect(hit.distanceMiles).toBeLessThanOrEqual(bruteForce + 1e-9);
        expect(bruteForce - hit.distanceMiles).toBeLessThan(1.01); // a 2-mile sampling is within 1 mile of the truth
      }),
      { numRuns: 60 },
    );
  });
});
