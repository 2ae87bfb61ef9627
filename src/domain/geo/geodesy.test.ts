import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EARTH_RADIUS_MILES,
  alongTrackMiles,
  crossTrackMiles,
  destinationPoint,
  distanceToSegment,
  haversineMiles,
  initialBearing,
  interpolate,
  isValidLatLng,
  type LatLng,
} from './index.js';

const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });
const DALLAS = at(32.7767, -96.797);
const CHICAGO = at(41.8781, -87.6298);
const NYC = at(40.7128, -74.006);
const LA = at(34.0522, -118.2437);

/** Points away from the poles, where bearings are well defined. */
const point = fc.record({
  latitude: fc.double({ min: -80, max: 80, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});
/** Points in and around North America: the region the service plans in. */
const northAmerican = fc.record({
  latitude: fc.double({ min: 15, max: 70, noNaN: true }),
  longitude: fc.double({ min: -165, max: -55, noNaN: true }),
});

describe('haversineMiles', () => {
  it('matches known great-circle distances', () => {
    expect(haversineMiles(DALLAS, CHICAGO)).toBeGreaterThan(798);
    expect(haversineMiles(DALLAS, CHICAGO)).toBeLessThan(808); // ≈ 802–805 depending on which downtown point
    expect(haversineMiles(NYC, LA)).toBeCloseTo(2445.6, 0);
    expect(haversineMiles(at(0, 0), at(0, 1))).toBeCloseTo((EARTH_RADIUS_MILES * Math.PI) / 180, 9); // 69.09 mi per degree
    expect(haversineMiles(at(0, 0), at(0, 180))).toBeCloseTo(EARTH_RADIUS_MILES * Math.PI, 6); // antipodes
    expect(haversineMiles(at(90, 0), at(-90, 0))).toBeCloseTo(EARTH_RADIUS_MILES * Math.PI, 6);
  });

  it('is zero for identical points and symmetric', () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        expect(haversineMiles(a, a)).toBe(0);
        expect(Math.abs(haversineMiles(a, b) - haversineMiles(b, a))).toBeLessThan(1e-9);
      }),
    );
  });

  it('is bounded by half the circumference and obeys the triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        const ab = haversineMiles(a, b);
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(EARTH_RADIUS_MILES * Math.PI + 1e-9);
        // Near-antipodal points lose a few micro-miles to floating point: allow 1e-5 miles.
        expect(haversineMiles(a, c)).toBeLessThanOrEqual(ab + haversineMiles(b, c) + 1e-5);
      }),
    );
  });
});

describe('initialBearing', () => {
  it('gives compass directions', () => {
    expect(initialBearing(at(0, 0), at(1, 0))).toBeCloseTo(0, 9);
    expect(initialBearing(at(0, 0), at(0, 1))).toBeCloseTo(90, 9);
    expect(initialBearing(at(1, 0), at(0, 0))).toBeCloseTo(180, 9);
    expect(initialBearing(at(0, 1), at(0, 0))).toBeCloseTo(270, 9);
    expect(initialBearing(NYC, LA)).toBeCloseTo(273.7, 1); // leaves New York heading slightly north of west
    expect(initialBearing(DALLAS, CHICAGO)).toBeCloseTo(36.0, 1);
  });

  it('is in [0, 360) and destinationPoint inverts it', () => {
    fc.assert(
      fc.property(northAmerican, northAmerican, (a, b) => {
        fc.pre(haversineMiles(a, b) > 0.01);
        const bearing = initialBearing(a, b);
        expect(bearing).toBeGreaterThanOrEqual(0);
        expect(bearing).toBeLessThan(360);
        expect(haversineMiles(destinationPoint(a, bearing, haversineMiles(a, b)), b)).toBeLessThan(1e-6);
      }),
    );
  });
});

describe('interpolate', () => {
  it('follows the great circle, not the rhumb line', () => {
    expect(interpolate(at(0, 0), at(0, 90), 0.5)).toMatchObject({ latitude: expect.closeTo(0, 9), longitude: expect.closeTo(45, 9) });
    // Between two points on the 45th parallel the great circle bulges poleward.
    expect(interpolate(at(45, -120), at(45, -80), 0.5).latitude).toBeGreaterThan(46);
    expect(interpolate(NYC, NYC, 0.3)).toEqual(NYC);
  });

  it('returns the endpoints exactly and splits the distance in proportion', () => {
    fc.assert(
      fc.property(northAmerican, northAmerican, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, f) => {
        expect(interpolate(a, b, 0)).toEqual(a);
        expect(interpolate(a, b, 1)).toEqual(b);
        const p = interpolate(a, b, f);
        const d = haversineMiles(a, b);
        expect(haversineMiles(a, p)).toBeCloseTo(f * d, 6);
        expect(haversineMiles(p, b)).toBeCloseTo((1 - f) * d, 6);
      }),
    );
  });
});

describe('crossTrackMiles / alongTrackMiles', () => {
  const a = at(0, 0);
  const b = at(0, 1);

  it('measures offset from and progress along a segment', () => {
    const oneDegree = (EARTH_RADIUS_MILES * Math.PI) / 180;
    expect(crossTrackMiles(at(1, 0.5), a, b)).toBeCloseTo(-oneDegree, 6); // north of an eastbound track: left
    expect(crossTrackMiles(at(-1, 0.5), a, b)).toBeCloseTo(oneDegree, 6); // south: right
    expect(alongTrackMiles(at(1, 0.5), a, b)).toBeCloseTo(oneDegree / 2, 2);
    expect(alongTrackMiles(at(0, -0.5), a, b)).toBeCloseTo(-oneDegree / 2, 6); // behind the start
    expect(alongTrackMiles(at(0, 2), a, b)).toBeCloseTo(2 * oneDegree, 6); // beyond the end
    expect(crossTrackMiles(at(0.2, 0.3), a, a)).toBeCloseTo(haversineMiles(at(0.2, 0.3), a), 9); // degenerate segment
  });

  it('recovers a known perpendicular offset from a point along a route', () => {
    fc.assert(
      fc.property(
        northAmerican,
        northAmerican,
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        (start, end, fraction, offset) => {
          const length = haversineMiles(start, end);
          fc.pre(length > 20 && length < 3000);
          const foot = interpolate(start, end, fraction);
          const onward = initialBearing(foot, end);
          const p = destinationPoint(foot, onward + 90, offset); // +offset: to the right
          expect(crossTrackMiles(p, start, end)).toBeCloseTo(offset, 6);
          expect(alongTrackMiles(p, start, end)).toBeCloseTo(fraction * length, 4);
          const toSegment = distanceToSegment(p, start, end);
          expect(toSegment.distanceMiles).toBeCloseTo(Math.abs(offset), 6);
          expect(toSegment.alongMiles).toBeCloseTo(fraction * length, 4);
        },
      ),
    );
  });

  it('distanceToSegment clamps to the endpoints', () => {
    expect(distanceToSegment(at(0, -1), a, b)).toEqual({ distanceMiles: haversineMiles(at(0, -1), a), alongMiles: 0 });
    expect(distanceToSegment(at(0.5, 3), a, b).alongMiles).toBeCloseTo(haversineMiles(a, b), 9);
  });
});

describe('isValidLatLng', () => {
  it('rejects out-of-range and non-finite coordinates', () => {
    expect(isValidLatLng(DALLAS)).toBe(true);
    expect(isValidLatLng(at(91, 0))).toBe(false);
    expect(isValidLatLng(at(0, -180.5))).toBe(false);
    expect(isValidLatLng(at(Number.NaN, 0))).toBe(false);
  });
});
