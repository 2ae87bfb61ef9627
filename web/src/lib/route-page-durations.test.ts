/**
 * The durations a route's page shows add up as shown (issue 26): read back from the very strings the
 * page writes (h:mm), over real plans (one driver and teams, odd-second departures, docks):
 * - the timeline's Duration column, by segment kind, sums to the Summary's Driving, On duty, Resting and
 *   Trip time;
 * - a team's "X drives h:mm of the trip's h:mm": the two drivers' figures sum to the trip's;
 * - the log grid: each day's four row totals sum to the hours of the day it covers (24:00 for a whole
 *   day), the driving row over the days to the Summary's Driving (each team driver's to their figure);
 * - the replan preview's changes are the differences of the figures shown beside them (replan.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRoute } from '../../../src/domain/planning/planner.js';
import { buildInput, CITIES, stop } from '../../../src/domain/planning/test-support.js';
import { dutySpans, logDays, planDutyChanges } from './duty';
import { formatMinutes, minutesBetween, summaryMinutes } from './durations';
import { drivingMinutesOf, teamDutyChanges } from './team';

const NAMES = Object.keys(CITIES);
/** "22:29" → 1349: a figure as the page shows it, read back. */
const shown = (text: string): number => {
  const m = /^(\d+):(\d\d)$/.exec(text);
  if (!m) throw new Error(`not h:mm: ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
};
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe('the durations on a route page', () => {
  it('every column adds up to its total, as shown', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 0, max: 59 * 60 + 59 }),
        fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        fc.constantFrom('America/Chicago', 'America/Los_Angeles', 'America/New_York'),
        (names, offsetSeconds, docks, team, zone) => {
          const stops = names.map((n, i) => stop(n, { type: i === 0 ? 'ORIGIN' : i === names.length - 1 ? 'DELIVERY' : 'PICKUP', dockDurationHours: i === 0 ? 0 : Math.round(docks[i]! * 100) / 100 }));
          const departureTime = Date.parse('2026-03-02T12:00:00Z') + offsetSeconds * 1000;
          const ids: [string, string] = ['drv_a', 'drv_b'];
          const plan = planRoute(
            buildInput(stops, { departureTime, ...(team ? { team: { driverIds: ids, driverNames: ['A A', 'B B'], coDriverHistory: { timeline: [] } } } : {}) }),
          );
          // The Summary (RouteSummary.tsx) and the timeline's Duration cells (RouteTimeline.tsx), as text.
          const totals = summaryMinutes(plan);
          const summary = { drive: formatMinutes(totals.drive), onDuty: formatMinutes(totals.onDuty), rest: formatMinutes(totals.rest), trip: formatMinutes(totals.trip) };
          const cells = plan.segments.map((s) => ({ type: s.type, text: formatMinutes(minutesBetween(s.start_time, s.end_time)) }));
          const column = (types: string[]) => sum(cells.filter((c) => types.includes(c.type)).map((c) => shown(c.text)));
          expect(column(['drive'])).toBe(shown(summary.drive));
          expect(column(['drive', 'dock', 'fuel'])).toBe(shown(summary.onDuty));
          expect(column(['rest', 'wait'])).toBe(shown(summary.rest));
          expect(column(['drive', 'dock', 'fuel', 'rest', 'wait'])).toBe(shown(summary.trip));

          const from = Date.parse(plan.departureTime);
          const to = Date.parse(plan.arrivalTime);
          // The log grid (LogGrid.tsx): each day's rows add up to the part of the day the trip covers.
          const grid = (changes: Parameters<typeof dutySpans>[0]) => {
            const days = logDays(dutySpans(changes, to), from, to, zone);
            for (const d of days) {
              const covered = Math.round(Math.min(d.endMs, to) / 60_000) - Math.round(Math.max(d.startMs, from) / 60_000);
              expect(sum(Object.values(d.minutes).map((m) => shown(formatMinutes(m))))).toBe(covered);
            }
            return sum(days.map((d) => shown(formatMinutes(d.minutes.ON_DUTY_DRIVING))));
          };
          if (!team) {
            expect(grid(planDutyChanges(plan.segments))).toBe(shown(summary.drive));
          } else {
            // RouteLogs.tsx: "A drives h:mm of the trip's h:mm", and each driver's own grid.
            const mine = ids.map((id) => formatMinutes(drivingMinutesOf(plan.segments, id)));
            expect(sum(mine.map(shown))).toBe(shown(summary.drive));
            ids.forEach((id, i) => expect(grid(teamDutyChanges(plan.segments, id))).toBe(shown(mine[i]!)));
          }
        },
      ),
      { numRuns: 40, seed: Number(process.env.FC_SEED ?? 20261129) },
    );
  });
});
