import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLAG_MINUTES, minutesWithin, unassignedFlags } from './unassigned.js';

const MIN = 60_000;
const NOW = Date.parse('2026-11-10T18:00:00Z');

describe('the unidentified-driving flag (ELD specification §4.6.1.6)', () => {
  it('flags more than 30 minutes in the last 24 hours, not 30 exactly; counts only the part inside the 24 hours', () => {
    expect(unassignedFlags([{ vehicleId: 'a', start: NOW - 60 * MIN, end: NOW - 29 * MIN }], NOW)).toEqual([{ vehicleId: 'a', unresolvedMinutesLast24Hours: 31, flagged: true }]);
    expect(unassignedFlags([{ vehicleId: 'a', start: NOW - 60 * MIN, end: NOW - 30 * MIN }], NOW)).toEqual([{ vehicleId: 'a', unresolvedMinutesLast24Hours: 30, flagged: false }]);
    // 45 minutes that began 24 h 20 min ago: 25 of them are in the window.
    expect(unassignedFlags([{ vehicleId: 'a', start: NOW - 24 * 60 * MIN - 20 * MIN, end: NOW - 24 * 60 * MIN + 25 * MIN }], NOW)[0]).toMatchObject({ unresolvedMinutesLast24Hours: 25, flagged: false });
    // Two short segments of one truck add up; another truck's are its own.
    expect(
      unassignedFlags(
        [
          { vehicleId: 'a', start: NOW - 300 * MIN, end: NOW - 280 * MIN },
          { vehicleId: 'b', start: NOW - 200 * MIN, end: NOW - 180 * MIN },
          { vehicleId: 'a', start: NOW - 100 * MIN, end: NOW - 85 * MIN },
        ],
        NOW,
      ),
    ).toEqual([
      { vehicleId: 'a', unresolvedMinutesLast24Hours: 35, flagged: true },
      { vehicleId: 'b', unresolvedMinutesLast24Hours: 20, flagged: false },
    ]);
  });

  it('property: the minutes are the sum of each segment’s part in the window, flagged exactly above 30', () => {
    const seg = fc.record({ vehicleId: fc.constantFrom('a', 'b', 'c'), start: fc.integer({ min: -3000, max: 60 }), length: fc.integer({ min: 1, max: 600 }) });
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 20 }), (raw) => {
        const segments = raw.map((s) => ({ vehicleId: s.vehicleId, start: NOW + s.start * MIN, end: NOW + (s.start + s.length) * MIN }));
        for (const f of unassignedFlags(segments, NOW)) {
          const exact = segments.filter((s) => s.vehicleId === f.vehicleId).reduce((m, s) => m + minutesWithin(s.start, s.end, NOW - 1440 * MIN, NOW), 0);
          expect(f.unresolvedMinutesLast24Hours).toBe(Math.round(exact));
          expect(f.flagged).toBe(exact > FLAG_MINUTES);
        }
      }),
    );
  });
});
