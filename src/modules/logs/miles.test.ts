import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMiles } from '../../domain/geo/index.js';
import { milesPerPeriod, type LogPosition } from './logs.repository.js';

/** The definition, one period at a time: consecutive positions of one route, both inside the period. */
function naive(positions: readonly LogPosition[], start: number, end: number): number | null {
  let miles = 0;
  let pairs = 0;
  for (let i = 1; i < positions.length; i++) {
    const a = positions[i - 1]!;
    const b = positions[i]!;
    if (a.routeId !== b.routeId || a.at < start || b.at >= end) continue;
    miles += haversineMiles(a, b);
    pairs++;
  }
  return pairs === 0 ? null : Math.round(miles * 10) / 10;
}

describe('miles driven per day from positions (one pass)', () => {
  it('equals the per-period definition for any positions and contiguous periods', () => {
    const position = fc.record({ routeId: fc.constantFrom('r1', 'r2'), at: fc.integer({ min: 0, max: 100 }), latitude: fc.double({ min: 30, max: 40, noNaN: true }), longitude: fc.double({ min: -100, max: -90, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(position, { maxLength: 40 }), fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 6 }), (raw, cuts) => {
        const positions = [...raw].sort((a, b) => a.routeId.localeCompare(b.routeId) || a.at - b.at);
        const bounds = [0, ...[...cuts].sort((a, b) => a - b), 101];
        const periods = bounds.slice(1).map((end, i) => ({ start: bounds[i]!, end }));
        expect(milesPerPeriod(positions, periods)).toEqual(periods.map((p) => naive(positions, p.start, p.end)));
      }),
    );
  });
});
