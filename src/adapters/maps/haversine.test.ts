import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMiles, type LatLng, pathLengthMiles } from '../../domain/geo/index.js';
import { createHaversineProvider, DistanceProviderError } from './index.js';

const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });
const DALLAS = at(32.7767, -96.797);
const CHICAGO = at(41.8781, -87.6298);
const NYC = at(40.7128, -74.006);

describe('haversine distance provider', () => {
  const provider = createHaversineProvider();

  it('gives great-circle legs with no durations and a densified path', async () => {
    const legs = await provider.legs([DALLAS, CHICAGO, NYC]);
    expect(provider.method).toBe('haversine');
    expect(legs).toHaveLength(2);
    expect(legs[0]!.distanceMiles).toBeCloseTo(haversineMiles(DALLAS, CHICAGO), 9);
    expect(legs[0]!.durationHours).toBeNull();
    expect(legs[0]!.geometry[0]).toEqual(DALLAS);
    expect(legs[0]!.geometry.at(-1)).toEqual(CHICAGO);
    expect(legs[1]!.geometry[0]).toEqual(CHICAGO);
    expect(legs[0]!.geometry).toHaveLength(Math.ceil(legs[0]!.distanceMiles / 25) + 1);
  });

  it('returns no legs for fewer than two points and rejects invalid ones', async () => {
    expect(await provider.legs([])).toEqual([]);
    expect(await provider.legs([DALLAS])).toEqual([]);
    await expect(provider.legs([DALLAS, at(Number.NaN, 0)])).rejects.toBeInstanceOf(DistanceProviderError);
  });

  it('has geometry as long as the leg, in steps of at most 25 miles', async () => {
    const point = fc.record({
      latitude: fc.double({ min: 20, max: 60, noNaN: true }),
      longitude: fc.double({ min: -130, max: -60, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(point, { minLength: 2, maxLength: 6 }), async (points) => {
        const legs = await provider.legs(points);
        expect(legs).toHaveLength(points.length - 1);
        for (const leg of legs) {
          expect(pathLengthMiles(leg.geometry)).toBeCloseTo(leg.distanceMiles, 6);
          for (let i = 1; i < leg.geometry.length; i++) {
            expect(haversineMiles(leg.geometry[i - 1]!, leg.geometry[i]!)).toBeLessThanOrEqual(25 + 1e-9);
          }
        }
      }),
      { numRuns: 50 },
    );
  });
});
