/**
 * One rule for the minutes people read, on both sides: the server's summary.minutes (src/domain/planning/
 * minutes.ts) and the dashboard's timeline totals (web/src/lib/durations.ts) give the same answer for
 * the same plan, so the route list, the driver's page and the route's own page show the same minute.
 * Planned trips with departures at odd seconds, docks, appointments, team driving.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRoute } from '../src/domain/planning/planner.js';
import { buildInput, CITIES, stop } from '../src/domain/planning/test-support.js';
import { planTotals, summaryMinutes } from '../web/src/lib/durations.js';

const NAMES = Object.keys(CITIES);

describe('the minutes a plan shows', () => {
  it('the server’s summary.minutes equal the dashboard’s totals from the segments, and the parts add up to the trip', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 0, max: 59 * 60 + 59 }),
        fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (names, offsetSeconds, docks, team) => {
          const stops = names.map((n, i) => stop(n, { type: i === 0 ? 'ORIGIN' : i === names.length - 1 ? 'DELIVERY' : 'PICKUP', dockDurationHours: i === 0 ? 0 : Math.round(docks[i]! * 100) / 100 }));
          const departureTime = Date.parse('2026-03-02T12:00:00Z') + offsetSeconds * 1000;
          const input = buildInput(stops, {
            departureTime,
            ...(team ? { team: { driverIds: ['drv_a', 'drv_b'], driverNames: ['A A', 'B B'], coDriverHistory: { timeline: [] } } } : {}),
          });
          const plan = planRoute(input);
          const fromSegments = planTotals(plan);
          expect(plan.summary.minutes).toEqual(fromSegments);
          expect(summaryMinutes(plan)).toEqual(fromSegments);
          expect(fromSegments.onDuty + fromSegments.rest).toBe(fromSegments.trip);
          // Exact hours round to within a minute per segment of the timeline's count.
          const drives = plan.segments.filter((s) => s.type === 'drive').length;
          expect(Math.abs(plan.summary.totalDriveHours * 60 - plan.summary.minutes.drive)).toBeLessThanOrEqual(drives);
        },
      ),
      { numRuns: 60, seed: Number(process.env.FC_SEED ?? 20261129) },
    );
  });

  it('a route stored before summary.minutes existed shows its segments’ minutes, or its hours rounded once', () => {
    const plan = planRoute(buildInput([stop('Dallas, TX', { type: 'ORIGIN' }), stop('Chicago, IL', { type: 'DELIVERY', dockDurationHours: 1 })]));
    const { minutes, ...old } = plan.summary;
    expect(summaryMinutes({ ...plan, summary: old })).toEqual(minutes);
    expect(summaryMinutes({ summary: { ...old, totalDriveHours: 2 + 38 / 60 + 38 / 3600 } }).drive).toBe(159);
  });
});
