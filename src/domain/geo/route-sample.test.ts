import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMiles } from './geodesy.js';
import { pathLengthMiles } from './path.js';
import { pathAhead, samplePath, type PlannedDrive } from './route-sample.js';

const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const OKC = { latitude: 35.4676, longitude: -97.5164 };
const TULSA = { latitude: 36.154, longitude: -95.9928 };
const HOUR = 3_600_000;

describe('pathAhead', () => {
  const drives: PlannedDrive[] = [
    { from: DALLAS, to: OKC, endsAt: 4 * HOUR },
    { from: OKC, to: TULSA, endsAt: 8 * HOUR },
  ];

  it('is the unfinished drives end to end, from the start of the first without a position', () => {
    expect(pathAhead(drives, 0, null)).toEqual([DALLAS, OKC, TULSA]);
    expect(pathAhead(drives, 5 * HOUR, null)).toEqual([OKC, TULSA]);
    expect(pathAhead(drives, 9 * HOUR, null)).toEqual([]);
  });

  it('starts at the foot of the vehicle on the path', () => {
    const ahead = pathAhead(drives, 0, { latitude: 34.1, longitude: -97.1 });
    expect(ahead).toHaveLength(3);
    expect(ahead[0]!.latitude).toBeGreaterThan(33.5);
    expect(ahead[0]!.latitude).toBeLessThan(34.5);
    expect(ahead.slice(1)).toEqual([OKC, TULSA]);
  });
});

describe('samplePath', () => {
  it('samples Dallas → Oklahoma City every ≤ 50 miles, both ends included', () => {
    const points = samplePath([DALLAS, OKC]);
    const miles = haversineMiles(DALLAS, OKC);
    expect(points).toHaveLength(Math.ceil(miles / 50) + 1);
    expect(points[0]).toEqual(DALLAS);
    expect(haversineMiles(points[points.length - 1]!, OKC)).toBeLessThan(0.01);
  });

  it('handles the empty and the one-point path', () => {
    expect(samplePath([])).toEqual([]);
    expect(samplePath([DALLAS])).toEqual([DALLAS]);
  });

  const point = fc.record({ latitude: fc.double({ min: 25, max: 49, noNaN: true }), longitude: fc.double({ min: -124, max: -67, noNaN: true }) });

  it('never exceeds maxPoints, keeps both ends, and spaces points evenly within the spacing unless capped', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 8 }), fc.integer({ min: 10, max: 200 }), fc.integer({ min: 2, max: 60 }), (path, spacingMiles, maxPoints) => {
        const out = samplePath(path, { spacingMiles, maxPoints });
        const total = pathLengthMiles(path);
        expect(out.length).toBeLessThanOrEqual(maxPoints);
        expect(out[0]).toEqual(path[0]);
        expect(haversineMiles(out[out.length - 1]!, path[path.length - 1]!)).toBeLessThan(0.01);
        if (total > 0 && Math.ceil(total / spacingMiles) + 1 <= maxPoints) {
          // Evenly spaced along the path: no straight-line gap exceeds the spacing.
          for (let i = 1; i < out.length; i++) expect(haversineMiles(out[i - 1]!, out[i]!)).toBeLessThanOrEqual(spacingMiles + 1e-6);
        }
      }),
    );
  });
});
