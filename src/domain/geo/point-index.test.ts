import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMiles, type LatLng, PointIndex } from './index.js';

interface Town extends LatLng {
  name: string;
}

const town = (name: string, latitude: number, longitude: number): Town => ({ name, latitude, longitude });
const TOWNS = [
  town('Amarillo', 35.222, -101.8313),
  town('Dallas', 32.7831, -96.8067),
  town('Oklahoma City', 35.4676, -97.5164),
  town('Albuquerque', 35.0844, -106.6504),
];

const bruteForce = <T extends LatLng>(items: readonly T[], p: LatLng): number => Math.min(...items.map((i) => haversineMiles(i, p)));

const coordinate = fc.record({
  latitude: fc.double({ min: 10, max: 75, noNaN: true }),
  longitude: fc.double({ min: -170, max: -50, noNaN: true }),
});

describe('PointIndex', () => {
  it('finds the nearest item and its distance', () => {
    const index = PointIndex.build(TOWNS);
    const hit = index.nearest({ latitude: 35.19, longitude: -101.0 }); // on I-40, ~47 mi east of Amarillo
    expect(hit?.item.name).toBe('Amarillo');
    expect(hit?.distanceMiles).toBeCloseTo(haversineMiles(TOWNS[0]!, { latitude: 35.19, longitude: -101.0 }), 9);
    expect(index.nearest({ latitude: 35.19, longitude: -101.0 }, 40)).toBeNull(); // beyond maxMiles
    const london = { latitude: 51.5, longitude: -0.13 }; // far outside the grid still works
    expect(index.nearest(london)?.distanceMiles).toBeCloseTo(bruteForce(TOWNS, london), 9);
    expect(index.size).toBe(4);
  });

  it('handles empty and degenerate inputs', () => {
    expect(PointIndex.build<Town>([]).nearest({ latitude: 0, longitude: 0 })).toBeNull();
    expect(PointIndex.build([town('bad', Number.NaN, 0)]).size).toBe(0);
    const one = PointIndex.build([TOWNS[1]!]);
    expect(one.nearest({ latitude: 32.7831, longitude: -96.8067 })).toEqual({ item: TOWNS[1], distanceMiles: 0 });
    expect(() => PointIndex.build(TOWNS, 0)).toThrow(RangeError);
  });

  it('agrees with a brute-force scan for any data, cell size and query', () => {
    fc.assert(
      fc.property(
        fc.array(coordinate, { minLength: 1, maxLength: 200 }),
        fc.array(coordinate, { minLength: 1, maxLength: 20 }),
        fc.constantFrom(0.1, 0.5, 2, 10),
        (items, queries, cell) => {
          const index = PointIndex.build(items, cell);
          for (const q of queries) {
            const hit = index.nearest(q);
            expect(hit).not.toBeNull();
            expect(hit!.distanceMiles).toBeCloseTo(bruteForce(items, q), 6);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('respects maxMiles exactly like a filtered brute-force scan', () => {
    fc.assert(
      fc.property(
        fc.array(coordinate, { minLength: 1, maxLength: 100 }),
        coordinate,
        fc.double({ min: 1, max: 500, noNaN: true }),
        (items, q, max) => {
          const hit = PointIndex.build(items, 0.5).nearest(q, max);
          const truth = bruteForce(items, q);
          if (truth <= max - 1e-6) expect(hit?.distanceMiles).toBeCloseTo(truth, 6);
          if (truth > max + 1e-6) expect(hit).toBeNull();
        },
      ),
    );
  });
});
