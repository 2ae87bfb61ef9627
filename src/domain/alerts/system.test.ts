import { describe, expect, it } from 'vitest';
import { check, conditionOf, raiseThenCheck } from './test-checks.js';
import { at, buildSnapshot, MIN, onPlan, openAlert, T0 } from './test-support.js';
describe('TELEMETRY_STALE', () => {
  /** Positions on plan until `lastAt`, checked at `now`. */
  const silentSince = (lastAt: number, now: number, extra: Parameters<typeof buildSnapshot>[0] = {}) =>
    buildSnapshot({ now, positions: onPlan(T0, lastAt), ...extra });

  it('fires MEDIUM when the latest position is older than 15 min (3 intervals of 60 s are less)', () => {
    expect(conditionOf(silentSince(at(0.5), at(0.5) + 15 * MIN), 'TELEMETRY_STALE')).toBeUndefined();
    const c = conditionOf(silentSince(at(0.5), at(0.5) + 20 * MIN), 'TELEMETRY_STALE')!;
    expect(c.priority).toBe('MEDIUM');
    expect(c.title).toBe('No position for 20 min');
    expect(c.message).toMatch(/^The last position of Jane Doe \(unit 1042\) is 20 min old/);
    expect(c.metadata).toMatchObject({ lastPositionAt: new Date(at(0.5)).toISOString(), minutesSinceLastPosition: 20, staleAfterMinutes: 15 });
  });

  it('fires after the tenant’s telemetryStaleMinutes (a demo or a fleet that reports often: 2 min)', () => {
    const quick = { monitoring: { monitoringIntervalSeconds: 10, telemetryStaleMinutes: 2 } };
    expect(conditionOf(silentSince(at(0.5), at(0.5) + 2 * MIN, quick), 'TELEMETRY_STALE')).toBeUndefined();
    expect(conditionOf(silentSince(at(0.5), at(0.5) + 3 * MIN, quick), 'TELEMETRY_STALE')?.metadata).toMatchObject({ staleAfterMinutes: 2, minutesSinceLastPosition: 3 });
    // Never sooner than three checks could see: 3 × 60 s beats 1 min.
    expect(conditionOf(silentSince(at(0.5), at(0.5) + 2.5 * MIN, { monitoring: { monitoringIntervalSeconds: 60, telemetryStaleMinutes: 1 } }), 'TELEMETRY_STALE')).toBeUndefined();
  });

  it('uses 3 monitoring intervals when that is longer', () => {
    const slow = { monitoring: { monitoringIntervalSeconds: 600 } };
    expect(conditionOf(silentSince(at(0.5), at(0.5) + 25 * MIN, slow), 'TELEMETRY_STALE')).toBeUndefined();
    expect(conditionOf(silentSince(at(0.5), at(0.5) + 31 * MIN, slow), 'TELEMETRY_STALE')?.metadata['staleAfterMinutes']).toBe(30);
  });

  it('fires without any position once the route has been active that long, not before', () => {
    const activatedAt = at(0);
    expect(conditionOf(buildSnapshot({ now: activatedAt + 10 * MIN, positions: [], route: { activatedAt } }), 'TELEMETRY_STALE')).toBeUndefined();
    const c = conditionOf(buildSnapshot({ now: activatedAt + 16 * MIN, positions: [], route: { activatedAt } }), 'TELEMETRY_STALE')!;
    expect(c.title).toBe('No position reported');
    expect(c.metadata).toMatchObject({ lastPositionAt: null, minutesSinceLastPosition: null });
  });

  it('the silence growing is not an update; clears through reconcile when a position arrives', () => {
    const open = openAlert(conditionOf(silentSince(at(0.5), at(0.5) + 20 * MIN), 'TELEMETRY_STALE')!);
    expect(check(silentSince(at(0.5), at(0.5) + 90 * MIN), [open]).update).toEqual([]);
    const { result } = raiseThenCheck(silentSince(at(0.5), at(0.5) + 20 * MIN), silentSince(at(0.8), at(0.8) + MIN), 'TELEMETRY_STALE');
    expect(result.resolve[0]?.resolution).toBe('Position received at Mon, Mar 2, 06:45 CST');
  });
});
