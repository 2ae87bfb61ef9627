import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audit, HOUR_MS, ruleSet, type DutyPeriod } from '../hos/index.js';
import { planRoute } from '../planning/planner.js';
import { buildInput, CITIES, nameNear, stop, straightLegs } from '../planning/test-support.js';
import type { PlanResult, PlanStop, Segment } from '../planning/types.js';
import { mergeReplan, progressOn, remainingStops, replanChanges, type CurrentPlan } from './replan.js';

const T0 = Date.parse('2026-03-02T12:00:00Z');

/** A stored plan: Dallas → Kansas City (pickup, 1 h dock) → Minneapolis (delivery, 2 h dock, window). */
function storedPlan(): { plan: CurrentPlan; input: ReturnType<typeof buildInput> } {
  const stops: PlanStop[] = [
    stop('Dallas, TX', { type: 'ORIGIN' }),
    stop('Kansas City, MO', { type: 'PICKUP', dockDurationHours: 1 }),
    stop('Minneapolis, MN', { type: 'DELIVERY', dockDurationHours: 2, appointment: { earliest: T0 + 20 * HOUR_MS, latest: T0 + 30 * HOUR_MS } }),
  ];
  const input = buildInput(stops, { departureTime: T0 });
  const r = planRoute(input);
  return { plan: { departureTime: r.departureTime, arrivalTime: r.arrivalTime, summary: r.summary, stops: r.stops, segments: r.segments }, input };
}

/** Where the plan puts the truck at `t` (on a drive, interpolated). */
function plannedPoint(plan: CurrentPlan, t: number) {
  for (const s of plan.segments) {
    const a = Date.parse(s.start_time);
    const b = Date.parse(s.end_time);
    if (t < a || t > b) continue;
    if (s.type !== 'drive') return { latitude: s.latitude, longitude: s.longitude };
    const f = b === a ? 0 : (t - a) / (b - a);
    return { latitude: s.from.latitude + (s.to.latitude - s.from.latitude) * f, longitude: s.from.longitude + (s.to.longitude - s.from.longitude) * f };
  }
  throw new Error('t outside the plan');
}

/** The fresh plan a re-plan makes from `position` at `now` with the given history. */
function freshPlan(plan: CurrentPlan, completed: number, position: { latitude: number; longitude: number }, now: number, timeline: DutyPeriod[]): PlanResult {
  const origin: PlanStop = { name: 'Truck', ...position, type: 'ORIGIN', dockDurationHours: 0 };
  const stops = [origin, ...remainingStops(plan, completed)];
  return planRoute(buildInput(stops, { departureTime: now, legs: straightLegs(stops), history: { timeline } }));
}

const periodsOf = (segments: Segment[]): DutyPeriod[] =>
  segments.map((s) => ({
    status: s.type === 'drive' ? 'ON_DUTY_DRIVING' : s.type === 'dock' || s.type === 'fuel' ? 'ON_DUTY_NOT_DRIVING' : s.type === 'rest' ? (s.duty_status as DutyPeriod['status']) : 'OFF_DUTY',
    start: Date.parse(s.start_time),
    end: Date.parse(s.end_time),
  }));

describe('re-plan: progress on the plan', () => {
  const { plan } = storedPlan();
  const kcArrival = Date.parse(plan.stops[1]!.arrivalTime);

  it('counts the origin as completed at the start, and a stop once the truck is at or past it', () => {
    expect(progressOn(plan, { ...CITIES['Dallas, TX']!, at: T0 }).completed).toBe(1);
    const before = plannedPoint(plan, kcArrival - HOUR_MS);
    expect(progressOn(plan, { ...before, at: kcArrival - HOUR_MS }).completed).toBe(1);
    expect(progressOn(plan, { ...CITIES['Kansas City, MO']!, at: kcArrival }).completed).toBe(2);
    const after = plannedPoint(plan, Date.parse(plan.stops[1]!.departureTime) + 2 * HOUR_MS);
    const p = progressOn(plan, { ...after, at: Date.parse(plan.stops[1]!.departureTime) + 5 * HOUR_MS });
    expect(p.completed).toBe(2);
    expect(p.offPathMiles).toBeLessThan(0.5);
    // The plan had it there 3 h earlier than it is.
    expect(Math.abs(p.plannedAt - (Date.parse(plan.stops[1]!.departureTime) + 2 * HOUR_MS))).toBeLessThan(60_000 * 5);
  });

  it('takes nextStop from the caller when given (a truck still unloading at a stop)', () => {
    expect(progressOn(plan, { ...CITIES['Kansas City, MO']!, at: kcArrival }, 1).completed).toBe(1);
    expect(progressOn(plan, { ...CITIES['Dallas, TX']!, at: T0 }, 9).completed).toBe(plan.stops.length);
  });

  it('reads the remaining stops back with their windows and dock times', () => {
    expect(remainingStops(plan, 1).map((s) => [s.name, s.type, s.dockDurationHours])).toEqual([
      ['Kansas City, MO', 'PICKUP', 1],
      ['Minneapolis, MN', 'DELIVERY', 2],
    ]);
    expect(remainingStops(plan, 2)[0]!.appointment).toEqual({ earliest: T0 + 20 * HOUR_MS, latest: T0 + 30 * HOUR_MS });
  });
});

describe('re-plan: the merged plan and the changes', () => {
  const { plan } = storedPlan();
  const leftKc = Date.parse(plan.stops[1]!.departureTime);
  // Three hours behind plan, 100 miles past Kansas City; a fresh driver (the log says so).
  const position = plannedPoint(plan, leftKc + 2 * HOUR_MS);
  const now = leftKc + 5 * HOUR_MS;
  const progress = progressOn(plan, { ...position, at: now });
  const timeline: DutyPeriod[] = [{ status: 'OFF_DUTY', start: now - 40 * HOUR_MS, end: now }];
  const fresh = freshPlan(plan, progress.completed, position, now, timeline);
  const merged = mergeReplan(plan, progress.completed, fresh);

  it('keeps the completed stops and the driven part as they were, then the fresh plan', () => {
    expect(merged.stops.slice(0, 2)).toEqual(plan.stops.slice(0, 2));
    expect(merged.stops[2]).toMatchObject({ name: 'Minneapolis, MN', sequence: 3, arrivalTime: fresh.stops[1]!.arrivalTime });
    const kept = merged.segments.filter((s) => Date.parse(s.end_time) <= leftKc);
    expect(kept.map(({ sequence: _, ...s }) => s)).toEqual(plan.segments.filter((s) => Date.parse(s.end_time) <= leftKc).map(({ sequence: _, ...s }) => s));
    expect(merged.segments.map((s) => s.sequence)).toEqual(merged.segments.map((_, i) => i + 1));
    expect(merged.segments[kept.length]!.start_time).toBe(new Date(now).toISOString());
    expect(merged.departureTime).toBe(plan.departureTime);
    expect(merged.arrivalTime).toBe(fresh.arrivalTime);
  });

  it('sums the driven part and the fresh plan in the summary', () => {
    const keptMiles = merged.segments.filter((s): s is Extract<Segment, { type: 'drive' }> => s.type === 'drive').reduce((a, s) => a + s.distance_miles, 0);
    expect(merged.summary.totalDistanceMiles).toBeCloseTo(keptMiles, 1);
    expect(merged.summary.totalTripHours).toBeCloseTo((Date.parse(fresh.arrivalTime) - T0) / HOUR_MS, 2);
    expect(merged.summary.restStops).toBe(merged.segments.filter((s) => s.type === 'rest' && s.rest_type !== 'break').length);
    expect(merged.summary.hosViolations).toBe(0);
  });

  it('says per remaining stop the old and new ETA and whether its window is kept, and the rest of the trip before and after', () => {
    const changes = replanChanges(plan, progress, fresh);
    expect(changes.stops).toEqual([
      expect.objectContaining({ index: 2, name: 'Minneapolis, MN', oldArrivalTime: plan.stops[2]!.arrivalTime, newArrivalTime: fresh.stops[1]!.arrivalTime, newWithinWindow: fresh.stops[1]!.withinWindow }),
    ]);
    expect(changes.stops[0]!.changeHours).toBeCloseTo((Date.parse(fresh.stops[1]!.arrivalTime) - Date.parse(plan.stops[2]!.arrivalTime)) / HOUR_MS, 2);
    // The rest of the old trip from where the truck is equals (to a mile) the fresh plan's distance: same stops, same legs.
    expect(Math.abs(changes.before.distanceMiles - changes.after.distanceMiles)).toBeLessThan(2);
    expect(changes.after.arrivalTime).toBe(fresh.arrivalTime);
    expect(changes.before.arrivalTime).toBe(plan.arrivalTime);
  });

  it('lists a rest the fresh plan no longer needs as removed, one it adds elsewhere as added, one moved a little as neither', () => {
    // The rested driver reaches Minneapolis without the old plan's rest.
    const rested = replanChanges(plan, progress, fresh);
    expect(rested.removed.filter((r) => r.kind === 'rest')).toHaveLength(1);
    expect(rested.added.filter((r) => r.kind === 'rest')).toEqual([]);
    expect(rested.before.restStops).toBe(1);
    expect(rested.after.restStops).toBe(0);
    // A driver with 12 min of driving left rests almost at once: 40 miles before the old plan's rest.
    const history = (drivenHours: number): DutyPeriod[] => [
      { status: 'OFF_DUTY', start: now - 50 * HOUR_MS, end: now - (drivenHours + 0.5) * HOUR_MS },
      { status: 'ON_DUTY_DRIVING', start: now - (drivenHours + 0.5) * HOUR_MS, end: now - (drivenHours - 7) * HOUR_MS },
      { status: 'OFF_DUTY', start: now - (drivenHours - 7) * HOUR_MS, end: now - (drivenHours - 7.5) * HOUR_MS },
      { status: 'ON_DUTY_DRIVING', start: now - (drivenHours - 7.5) * HOUR_MS, end: now },
    ];
    const tired = replanChanges(plan, progress, freshPlan(plan, progress.completed, position, now, history(10.8)));
    expect(tired.added.filter((r) => r.kind === 'rest')).toHaveLength(1);
    expect(tired.removed.filter((r) => r.kind === 'rest')).toHaveLength(1);
    // With 1 h left the rest falls within 25 miles of the old one: the same rest, moved.
    const moved = replanChanges(plan, progress, freshPlan(plan, progress.completed, position, now, history(10)));
    expect(moved.added.filter((r) => r.kind === 'rest')).toEqual([]);
    expect(moved.removed.filter((r) => r.kind === 'rest')).toEqual([]);
  });
});

describe('re-plan: property', () => {
  it('for random delays and starting clocks, the merged plan keeps the completed stops and the new part audits to zero violations with the driver’s log', () => {
    const { plan } = storedPlan();
    const end = Date.parse(plan.arrivalTime);
    fc.assert(
      fc.property(fc.double({ min: 0.02, max: 0.9, noNaN: true }), fc.double({ min: 0, max: 6, noNaN: true }), fc.double({ min: 0, max: 10.5, noNaN: true }), (fraction, delayHours, drivenHours) => {
        const planned = Math.round(T0 + fraction * (end - T0));
        const position = plannedPoint(plan, planned);
        const now = Math.round(planned + delayHours * HOUR_MS);
        const progress = progressOn(plan, { ...position, at: now });
        if (progress.completed >= plan.stops.length) return;
        const periods: DutyPeriod[] = [
          { status: 'OFF_DUTY', start: now - 60 * HOUR_MS, end: now - drivenHours * HOUR_MS - 0.5 * HOUR_MS },
          ...(drivenHours > 0 ? [{ status: 'ON_DUTY_DRIVING' as const, start: now - drivenHours * HOUR_MS - 0.5 * HOUR_MS, end: now - 0.5 * HOUR_MS }] : []),
          { status: 'OFF_DUTY', start: now - 0.5 * HOUR_MS, end: now },
        ];
        const timeline = periods.filter((p) => p.end > p.start);
        const fresh = freshPlan(plan, progress.completed, position, now, timeline);
        const merged = mergeReplan(plan, progress.completed, fresh);
        expect(merged.stops.slice(0, progress.completed)).toEqual(plan.stops.slice(0, progress.completed));
        expect(merged.stops.map((s) => s.name)).toEqual(plan.stops.map((s) => s.name));
        const newPart = merged.segments.filter((s) => Date.parse(s.start_time) >= now);
        expect(newPart.length).toBe(fresh.segments.length);
        expect(audit([...timeline, ...periodsOf(newPart)], ruleSet()).filter((v) => v.at >= now)).toEqual([]);
        expect(merged.summary.appointmentsMissed).toBe(merged.stops.filter((s) => s.withinWindow === false).length);
      }),
      { numRuns: 40, seed: 19 },
    );
  });
});
