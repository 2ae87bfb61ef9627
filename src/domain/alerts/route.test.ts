import { describe, expect, it } from 'vitest';
import { check, conditionOf, raiseThenCheck } from './test-checks.js';
import {
  ARDMORE_MI,
  at,
  buildSnapshot,
  driving,
  MIN,
  offRoute,
  onPlan,
  openAlert,
  parked,
  PAULS_VALLEY_MI,
  planAt,
  pointAt,
  position,
  SANGER_MI,
  T0,
} from './test-support.js';
import type { PositionReport } from './types.js';

describe('ROUTE_DEVIATION', () => {
  /** On plan until just before now, then `lateral` miles off the route at now. */
  const offBy = (lateral: number, extra: Parameters<typeof buildSnapshot>[0] = {}) => {
    const now = at(0.5);
    return buildSnapshot({ now, positions: [...onPlan(T0, now - 5 * MIN), position(offRoute(27.5, lateral), now, { speedMph: 50 })], ...extra });
  };
  /** Off route, then back on the planned path for the last `minutes`. */
  const backFor = (minutes: number, extra: Parameters<typeof buildSnapshot>[0] = {}) => {
    const now = at(0.75);
    const off = (t: number) => position(offRoute(planAt(t).miles, 8), t, { speedMph: 50 });
    const positions = [off(now - (minutes + 10) * MIN), off(now - (minutes + 5) * MIN), ...onPlan(now - minutes * MIN, now, 1)];
    return buildSnapshot({ now, positions, ...extra });
  };
  const openDeviation = () => openAlert(conditionOf(offBy(8), 'ROUTE_DEVIATION')!);

  it('does not fire on the planned path or within the threshold', () => {
    expect(conditionOf(buildSnapshot(), 'ROUTE_DEVIATION')).toBeUndefined();
    expect(conditionOf(offBy(4.5), 'ROUTE_DEVIATION')).toBeUndefined();
    expect(conditionOf(offBy(-4.5), 'ROUTE_DEVIATION')).toBeUndefined();
  });

  it('fires MEDIUM beyond the threshold, with the distance and where', () => {
    const c = conditionOf(offBy(7), 'ROUTE_DEVIATION')!;
    expect(c.priority).toBe('MEDIUM');
    expect(c.title).toBe('Off route: 7 mi from the planned path');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\) is 7 mi from the planned route \(alert threshold 5 mi\)/);
    expect(c.metadata).toMatchObject({ distanceMiles: 7, thresholdMiles: 5, offRoute: true, backOnRouteSince: null, positionAt: new Date(at(0.5)).toISOString() });
    expect(c.metadata['milesAlongRoute']).toBeCloseTo(27.5, 0);
  });

  it('is HIGH beyond three times the threshold, and escalates an open alert', () => {
    expect(conditionOf(offBy(14.9), 'ROUTE_DEVIATION')?.priority).toBe('MEDIUM');
    expect(conditionOf(offBy(16), 'ROUTE_DEVIATION')?.priority).toBe('HIGH');
    const r = check(offBy(20), [openDeviation()]);
    expect(r.update).toMatchObject([{ priorityChanged: true, condition: { priority: 'HIGH' } }]);
  });

  it('updates facts only in doubling bands of the threshold', () => {
    const open = openDeviation(); // 8 mi: 1-2x
    expect(check(offBy(9.5), [open]).update).toEqual([]);
    expect(check(offBy(11), [open]).update).toMatchObject([{ priorityChanged: false }]); // 2-4x
  });

  it('with an open alert, back within the threshold holds until back long enough (hysteresis)', () => {
    const open = openDeviation();
    const returning = conditionOf(backFor(5, { open: [open] }), 'ROUTE_DEVIATION')!;
    expect(returning).toMatchObject({ priority: 'MEDIUM', title: 'Back on route, confirming', metadata: { offRoute: false } });
    expect(returning.metadata['backOnRouteSince']).toBe(new Date(at(0.75) - 5 * MIN).toISOString());
    expect(check(backFor(5), [open]).update).toMatchObject([{ priorityChanged: false }]); // 'back' is a material change
    expect(conditionOf(backFor(9, { open: [open] }), 'ROUTE_DEVIATION')).toBeDefined();
  });

  it('clears through reconcile after autoResolveDeviationAfterMinutes back on route', () => {
    const { alert, result } = raiseThenCheck(offBy(8), backFor(10), 'ROUTE_DEVIATION');
    expect(result.resolve).toEqual([{ alert, resolution: expect.stringMatching(/^Vehicle back within 5 mi of the planned route since .* \(10 min\)$/) }]);
  });

  it('without an open alert, a vehicle back on route raises nothing', () => {
    expect(conditionOf(backFor(2), 'ROUTE_DEVIATION')).toBeUndefined();
  });

  it('keeps an open alert when the history is too short to judge, or there is no position', () => {
    const open = openDeviation();
    const single = buildSnapshot({ now: at(1), positions: [position(pointAt(55), at(1))], open: [open] });
    expect(conditionOf(single, 'ROUTE_DEVIATION')?.metadata['offRoute']).toBe(false);
    const none = check(buildSnapshot({ positions: [] }), [open]);
    expect(none.resolve).toEqual([]);
    expect(none.update).toEqual([]);
  });

  it('honours the threshold and the auto-resolve settings', () => {
    expect(conditionOf(offBy(7, { alerts: { routeDeviationThresholdMiles: 10 } }), 'ROUTE_DEVIATION')).toBeUndefined();
    expect(conditionOf(offBy(7, { alerts: { routeDeviationThresholdMiles: 2 } }), 'ROUTE_DEVIATION')?.priority).toBe('HIGH');
    const open = openDeviation();
    expect(check(backFor(5, { monitoring: { autoResolveDeviationAfterMinutes: 5 } }), [open]).resolve).toHaveLength(1);
    expect(check(backFor(10, { monitoring: { autoResolveDeviationAfterMinutes: 30 } }), [open]).resolve).toEqual([]);
  });

  it('measures against the polyline through rest and dock places too', () => {
    const now = at(3);
    const atArdmore = buildSnapshot({ now, positions: parked(pointAt(ARDMORE_MI), at(2.5), now) });
    expect(conditionOf(atArdmore, 'ROUTE_DEVIATION')).toBeUndefined();
  });
});

describe('UNPLANNED_STOP', () => {
  const stoppedAt = (miles: number, minutes: number, extra: Parameters<typeof buildSnapshot>[0] = {}) => {
    const now = at(1.5);
    const since = now - minutes * MIN;
    return buildSnapshot({ now, positions: [...driving(0, T0, since - 5 * MIN), ...parked(pointAt(miles), since, now)], ...extra });
  };

  it('fires MEDIUM after the threshold standing away from planned places', () => {
    const c = conditionOf(stoppedAt(30, 40), 'UNPLANNED_STOP')!;
    expect(c.priority).toBe('MEDIUM');
    expect(c.title).toBe('Unplanned stop: stopped for 40 min');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\) has been stopped for 40 min .*, 25 mi from the nearest planned stop \(Sanger, TX\)\.$/);
    expect(c.metadata).toMatchObject({ stoppedMinutes: 40, atLeast: false, nearestPlannedPlace: 'Sanger, TX', nearestPlannedPlaceMiles: 25, thresholdMinutes: 30 });
  });

  it('does not fire before the threshold, or while moving', () => {
    expect(conditionOf(stoppedAt(30, 25), 'UNPLANNED_STOP')).toBeUndefined();
    expect(conditionOf(buildSnapshot({ now: at(0.9), positions: driving(0, T0, at(0.9)) }), 'UNPLANNED_STOP')).toBeUndefined();
  });

  it('does not fire at a planned rest, dock or stop (within a mile)', () => {
    expect(conditionOf(stoppedAt(SANGER_MI, 90), 'UNPLANNED_STOP')).toBeUndefined();
    expect(conditionOf(stoppedAt(ARDMORE_MI - 0.8, 90), 'UNPLANNED_STOP')).toBeUndefined();
    expect(conditionOf(stoppedAt(ARDMORE_MI - 1.5, 90), 'UNPLANNED_STOP')).toBeDefined();
    expect(conditionOf(stoppedAt(0, 90), 'UNPLANNED_STOP')).toBeUndefined(); // the origin
  });

  it('counts positions without speed that stay put, and says "at least" when the stop starts the history', () => {
    const now = at(1.5);
    const noSpeed = parked(pointAt(30), now - 45 * MIN, now).map((p): PositionReport => ({ ...p, speedMph: null }));
    const c = conditionOf(buildSnapshot({ now, positions: noSpeed }), 'UNPLANNED_STOP')!;
    expect(c.metadata).toMatchObject({ stoppedMinutes: 45, atLeast: true });
    expect(c.message).toContain('at least 45 min');
  });

  it('honours the threshold setting', () => {
    expect(conditionOf(stoppedAt(30, 40, { alerts: { unplannedStopThresholdMinutes: 60 } }), 'UNPLANNED_STOP')).toBeUndefined();
    expect(conditionOf(stoppedAt(30, 15, { alerts: { unplannedStopThresholdMinutes: 10 } }), 'UNPLANNED_STOP')).toBeDefined();
  });

  it('updates hourly while the stop goes on, not every check', () => {
    const open = openAlert(conditionOf(stoppedAt(30, 40), 'UNPLANNED_STOP')!);
    expect(check(stoppedAt(30, 55), [open]).update).toEqual([]);
    expect(check(stoppedAt(30, 65), [open]).update).toMatchObject([{ priorityChanged: false }]);
  });

  it('clears through reconcile when the vehicle moves again', () => {
    const moving = buildSnapshot({ now: at(1.6), positions: [...parked(pointAt(30), at(0.8), at(1.5)), ...driving(30, at(1.55), at(1.6))] });
    const { result } = raiseThenCheck(stoppedAt(30, 40), moving, 'UNPLANNED_STOP');
    expect(result.resolve[0]?.resolution).toBe('The vehicle is moving again');
  });
});

describe('MISSED_REST_STOP', () => {
  /** Driving on from mile 120 at the planned rest's start (5.5 h), past the rest place. */
  const drivingPastRest = (now: number, extra: Parameters<typeof buildSnapshot>[0] = {}) =>
    buildSnapshot({ now, positions: driving(120, at(5.5) - 30 * MIN, now, 55, 5), ...extra });

  it('fires HIGH when the planned rest is 30 min overdue and the driver still drives', () => {
    const c = conditionOf(drivingPastRest(at(6.25)), 'MISSED_REST_STOP')!;
    expect(c.priority).toBe('HIGH');
    expect(c.title).toBe('Missed rest stop: Pauls Valley, OK');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\) is still driving 45 min after the planned full rest at Pauls Valley, OK \(10:00\) was due \(Mon, Mar 2, 11:30 CST\)/);
    expect(c.metadata).toMatchObject({
      restLocation: 'Pauls Valley, OK',
      restType: 'full_rest',
      segmentSequence: 6,
      plannedStart: new Date(at(5.5)).toISOString(),
      minutesOverdue: 45,
      delayMinutes: 0,
      dutyStatus: 'ON_DUTY_DRIVING',
    });
  });

  it('does not fire within the grace period', () => {
    expect(conditionOf(drivingPastRest(at(5.95)), 'MISSED_REST_STOP')).toBeUndefined();
  });

  it('does not fire when the driver has rested since (the duty period was recalculated after it)', () => {
    expect(conditionOf(drivingPastRest(at(6.25), { clocks: { periodStart: at(5.6) } }), 'MISSED_REST_STOP')).toBeUndefined();
  });

  it('does not fire for a driver who is not driving', () => {
    const now = at(6.25);
    const resting = buildSnapshot({ now, positions: parked(pointAt(PAULS_VALLEY_MI + 3), at(5.5), now), clocks: { dutyStatus: 'SLEEPER_BERTH' } });
    expect(conditionOf(resting, 'MISSED_REST_STOP')).toBeUndefined();
  });

  it('shifts the due time by the delay: a late vehicle reaches the rest place later', () => {
    const now = at(6.25);
    const late = buildSnapshot({ now, positions: driving(100, now - 20 * MIN, now, 55, 5) }); // mile ~118 at 6.25 h
    expect(conditionOf(late, 'MISSED_REST_STOP')).toBeUndefined();
  });

  it('ignores planned 30-minute breaks (HOS_BREAK_REQUIRED watches the break clock)', () => {
    const now = at(2.25); // the Sanger break was due at 1 h
    const s = buildSnapshot({ now, positions: driving(SANGER_MI, now - 40 * MIN, now), clocks: { periodStart: T0 - 60 * MIN } });
    expect(conditionOf(s, 'MISSED_REST_STOP')).toBeUndefined();
  });

  it('once open, holds through a short stop on duty, and clears when the driver rests', () => {
    const open = openAlert(conditionOf(drivingPastRest(at(6.25)), 'MISSED_REST_STOP')!);
    const now = at(6.5);
    const fueling = buildSnapshot({ now, positions: parked(pointAt(170), at(6.4), now), clocks: { dutyStatus: 'ON_DUTY_NOT_DRIVING' } });
    expect(check(fueling, [open])).toMatchObject({ resolve: [], update: [], create: [] });
    const sleeping = buildSnapshot({ now, positions: parked(pointAt(170), at(6.4), now), clocks: { dutyStatus: 'SLEEPER_BERTH' } });
    expect(check(sleeping, [open]).resolve[0]?.resolution).toBe('The driver is resting now (SLEEPER_BERTH)');
  });

  it('clears through reconcile once the driver has rested', () => {
    const { result } = raiseThenCheck(drivingPastRest(at(6.25)), drivingPastRest(at(17), { clocks: { periodStart: at(16.5) } }), 'MISSED_REST_STOP');
    expect(result.resolve[0]?.resolution).toBe('The driver has rested since the planned rest at Pauls Valley, OK was due');
  });

  it('without HOS clocks, judges driving and rest from the positions', () => {
    const c = conditionOf(drivingPastRest(at(6.25), { hos: null }), 'MISSED_REST_STOP')!;
    expect(c.metadata['dutyStatus']).toBeNull();
    const now = at(9);
    const restedThenDrove = buildSnapshot({ hos: null, now, positions: [...parked(pointAt(PAULS_VALLEY_MI + 10), at(5.6), at(8)), ...driving(160, at(8.5), now)] });
    expect(conditionOf(restedThenDrove, 'MISSED_REST_STOP')).toBeUndefined();
  });
});
