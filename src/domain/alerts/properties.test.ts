/**
 * Properties of evaluate and reconcile over random snapshots of the test trip (fixed global seed, see
 * test/setup.ts): random clocks, positions (on plan, off it, parked, scattered), weather, faults, ETAs,
 * settings and open alerts in every status.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HosClocks, Violation } from '../hos/types.js';
import { evaluateAlerts } from './evaluate.js';
import { reconcile } from './reconcile.js';
import { RULES, TYPE_ORDER } from './rules.js';
import { applyReconciliation, at, buildClocks, buildSnapshot, driving, MIN, offRoute, onPlan, parked, planAt, pointAt, position, ROUTE_MILES, T0 } from './test-support.js';
import {
  ALERT_TYPES,
  HOS_APPROACHING_LIMIT_TYPES,
  type AlertPriority,
  type AlertSettings,
  type AlertType,
  type MonitoringSettings,
  type MonitoringSnapshot,
  type OpenAlert,
  type PositionReport,
  type RouteAlertType,
} from './types.js';

const PRIORITIES: AlertPriority[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
const RANK: Record<AlertPriority, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };
const hours = (max: number) => fc.oneof(fc.double({ min: 0, max: 1.5, noNaN: true }), fc.double({ min: 0, max, noNaN: true }));

const clocksArb = (now: number): fc.Arbitrary<HosClocks> =>
  fc
    .record({
      driveRemaining: hours(11),
      windowRemaining: hours(14),
      cycleRemaining: hours(70),
      breakRemaining: fc.oneof(hours(8), fc.constant(Infinity)),
      dutyStatus: fc.constantFrom('OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING' as const),
      ageMinutes: fc.integer({ min: 0, max: 60 }),
      periodStartHoursAgo: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
    })
    .map((c) =>
      buildClocks(now, {
        driveRemaining: c.driveRemaining,
        windowRemaining: c.windowRemaining,
        cycleRemaining: c.cycleRemaining,
        breakRemaining: c.breakRemaining,
        dutyStatus: c.dutyStatus,
        at: now - c.ageMinutes * MIN,
        periodStart: c.periodStartHoursAgo === null ? null : now - c.periodStartHoursAgo * 3_600_000,
      }),
    );

const violationArb = (now: number): fc.Arbitrary<Violation> =>
  fc.record({
    kind: fc.constantFrom('DRIVE', 'WINDOW', 'BREAK', 'CYCLE' as const),
    at: fc.integer({ min: 0, max: 30 * 60 }).map((m) => now - m * MIN),
    overHours: fc.double({ min: 0, max: 3, noNaN: true }),
    rule: fc.constant('49 CFR 395.3'),
    explanation: fc.constant('Drove past the limit'),
  });

/** Positions up to now: on plan (maybe ending off route), parked somewhere after driving, or scattered. */
const positionsArb = (now: number): fc.Arbitrary<PositionReport[]> => {
  const fuel = fc.option(fc.integer({ min: 0, max: 100 }), { nil: null });
  const onPlanTrack = fc.record({ minutes: fc.integer({ min: 5, max: 240 }), lateral: fc.oneof(fc.constant(0), fc.double({ min: -40, max: 40, noNaN: true })), fuel, ageMinutes: fc.integer({ min: 0, max: 60 }) }).map(({ minutes, lateral, fuel, ageMinutes }) => {
    const last = now - ageMinutes * MIN;
    const track = onPlan(last - minutes * MIN, last, 5, { fuelLevelPercent: fuel });
    const end = track[track.length - 1];
    if (end && lateral !== 0) track[track.length - 1] = { ...end, ...offRoute(planAt(end.at).miles, lateral) };
    return track;
  });
  const parkedTrack = fc.record({ miles: fc.double({ min: 0, max: ROUTE_MILES, noNaN: true }), parkedMinutes: fc.integer({ min: 0, max: 300 }), lateral: fc.double({ min: -3, max: 3, noNaN: true }), fuel }).map(({ miles, parkedMinutes, lateral, fuel }) => {
    const since = now - parkedMinutes * MIN;
    const before = driving(Math.max(0, miles - 20), since - 30 * MIN, since - 5 * MIN, 40, 5, { fuelLevelPercent: fuel });
    return [...before, ...parked(offRoute(miles, lateral), since, now, 5, { fuelLevelPercent: fuel })];
  });
  const scattered = fc
    .array(
      fc.record({ minutesAgo: fc.integer({ min: 0, max: 240 }), miles: fc.double({ min: 0, max: ROUTE_MILES, noNaN: true }), lateral: fc.double({ min: -20, max: 20, noNaN: true }), speed: fc.option(fc.constantFrom(0, 2, 30, 60), { nil: null }), fuel }),
      { maxLength: 12 },
    )
    .map((list) => list.map((p) => position(offRoute(p.miles, p.lateral), now - p.minutesAgo * MIN, { speedMph: p.speed, fuelLevelPercent: p.fuel })).sort((a, b) => a.at - b.at));
  return fc.oneof(onPlanTrack, parkedTrack, scattered, fc.constant<PositionReport[]>([]));
};

const settingsArb = fc.record({
  alerts: fc.record<AlertSettings>({
    hosApproachingThresholdHours: fc.double({ min: 0, max: 3, noNaN: true }),
    routeDeviationThresholdMiles: fc.double({ min: 0.5, max: 20, noNaN: true }),
    unplannedStopThresholdMinutes: fc.integer({ min: 5, max: 120 }),
    dockDelayThresholdMinutes: fc.integer({ min: 0, max: 180 }),
    enableWeatherAlerts: fc.boolean(),
    enableMechanicalAlerts: fc.boolean(),
  }),
  monitoring: fc.record<MonitoringSettings>({
    monitoringIntervalSeconds: fc.integer({ min: 30, max: 900 }),
    autoResolveDeviationAfterMinutes: fc.integer({ min: 0, max: 60 }),
    hosWarningThresholdMinutes: fc.integer({ min: 0, max: 120 }),
    telemetryStaleMinutes: fc.integer({ min: 1, max: 120 }),
  }),
});

const openArb = (now: number): fc.Arbitrary<OpenAlert[]> =>
  fc.subarray(TYPE_ORDER, { maxLength: 6 }).chain((types) =>
    fc.tuple(
      ...types.map((type, i) =>
        fc
          .record({
            status: fc.constantFrom('ACTIVE', 'ACKNOWLEDGED', 'SNOOZED' as const),
            priority: fc.constantFrom(...PRIORITIES),
            snoozeMinutes: fc.option(fc.integer({ min: -30, max: 30 }), { nil: null }),
          })
          .map(
            ({ status, priority, snoozeMinutes }): OpenAlert => ({
              id: `alt_p${i}`,
              type,
              status,
              priority,
              createdAt: T0 + i,
              snoozedUntil: status === 'SNOOZED' && snoozeMinutes !== null ? now + snoozeMinutes * MIN : null,
              metadata: {},
            }),
          ),
      ),
    ),
  );

const snapshotArb: fc.Arbitrary<MonitoringSnapshot> = fc.integer({ min: -60, max: 20 * 60 }).chain((minute) => {
  const now = at(minute / 60);
  return fc
    .record({
      positions: positionsArb(now),
      clocks: fc.option(clocksArb(now), { nil: null }),
      violations: fc.array(violationArb(now), { maxLength: 2 }),
      weather: fc.option(
        fc.array(
          fc.record({
            severity: fc.constantFrom('EXTREME', 'SEVERE', 'MODERATE', 'MINOR' as const),
            event: fc.constantFrom('Tornado Warning', 'Winter Storm Warning', 'Wind Advisory'),
            startsInMinutes: fc.integer({ min: -120, max: 240 }),
            lastsMinutes: fc.option(fc.integer({ min: 0, max: 600 }), { nil: null }),
            milesAhead: fc.double({ min: -20, max: 300, noNaN: true }),
          }),
          { maxLength: 3 },
        ),
        { nil: null },
      ),
      weatherDelayHours: fc.option(fc.double({ min: 0, max: 4, noNaN: true }), { nil: null }),
      faults: fc.option(
        fc.array(
          fc.record({ code: fc.constantFrom('SPN 100', 'SPN 110', 'SPN 524'), severity: fc.constantFrom('CRITICAL', 'WARNING', 'INFO' as const), active: fc.boolean(), minutesAgo: fc.integer({ min: 0, max: 120 }) }),
          { maxLength: 3 },
        ),
        { nil: null },
      ),
      etas: fc.array(fc.record({ stopIndex: fc.integer({ min: 0, max: 2 }), inHours: fc.double({ min: -2, max: 20, noNaN: true }) }), { maxLength: 2 }),
      settings: settingsArb,
      open: openArb(now),
      withVehicle: fc.boolean(),
    })
    .map((r) =>
      buildSnapshot({
        now,
        positions: r.positions,
        hos: r.clocks === null ? null : { clocks: r.clocks, violations: r.violations, source: 'MANUAL' },
        weather: r.weather?.map((w) => ({
          severity: w.severity,
          event: w.event,
          headline: w.event,
          startsAt: now + w.startsInMinutes * MIN,
          endsAt: w.lastsMinutes === null ? null : now + (w.startsInMinutes + w.lastsMinutes) * MIN,
          ...pointAt(100),
          milesAhead: w.milesAhead,
          source: 'nws',
        })) ?? null,
        weatherDelayHours: r.weatherDelayHours,
        faults: r.faults?.map((f) => ({ code: f.code, description: f.code, severity: f.severity, active: f.active, at: now - f.minutesAgo * MIN })) ?? null,
        etaPredictions: r.etas.map((e, i) => ({ stopIndex: e.stopIndex, predictedArrival: now + e.inHours * 3_600_000, source: 'vis', at: now - i * MIN })),
        alerts: r.settings.alerts,
        monitoring: r.settings.monitoring,
        vehicle: r.withVehicle ? { id: 'veh_1', unit: '1042' } : null,
        open: r.open,
      }),
    );
});

const typesOf = (s: MonitoringSnapshot): Set<AlertType> => new Set(evaluateAlerts(s).map((c) => c.type));
const withAlerts = (s: MonitoringSnapshot, alerts: Partial<AlertSettings>): MonitoringSnapshot => ({ ...s, settings: { ...s.settings, alerts: { ...s.settings.alerts, ...alerts } } });
const withMonitoring = (s: MonitoringSnapshot, monitoring: Partial<MonitoringSettings>): MonitoringSnapshot => ({
  ...s,
  settings: { ...s.settings, monitoring: { ...s.settings.monitoring, ...monitoring } },
});
const snoozing = (a: OpenAlert, now: number) => a.status === 'SNOOZED' && a.snoozedUntil !== null && a.snoozedUntil > now;

describe('evaluateAlerts (properties)', () => {
  it('at most one condition per type; valid priority and category; JSON-safe facts; the driver named', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        const conditions = evaluateAlerts(s);
        expect(new Set(conditions.map((c) => c.type)).size).toBe(conditions.length);
        for (const c of conditions) {
          expect(PRIORITIES).toContain(c.priority);
          expect(ALERT_TYPES[c.type].category).toMatch(/^(HOS_VIOLATION|ROUTE_DEVIATION|WEATHER|MECHANICAL|SCHEDULING|SYSTEM)$/);
          expect(JSON.parse(JSON.stringify(c.metadata))).toEqual(c.metadata);
          expect(c.message).toContain('Jane Doe');
          if (s.vehicle) expect(c.message).toContain('1042');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic and leaves the snapshot as it was', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        const before = structuredClone(s);
        const first = evaluateAlerts(s);
        expect(s).toEqual(before);
        expect(evaluateAlerts(s)).toEqual(first);
      }),
    );
  });

  it('a larger approaching or warning threshold never drops an HOS approaching condition nor lowers its priority', () => {
    fc.assert(
      fc.property(snapshotArb, fc.double({ min: 0, max: 2, noNaN: true }), fc.integer({ min: 0, max: 60 }), (s, moreHours, moreMinutes) => {
        const bigger = withMonitoring(
          withAlerts(s, { hosApproachingThresholdHours: s.settings.alerts.hosApproachingThresholdHours + moreHours }),
          { hosWarningThresholdMinutes: s.settings.monitoring.hosWarningThresholdMinutes + moreMinutes },
        );
        const small = evaluateAlerts(s).filter((c) => HOS_APPROACHING_LIMIT_TYPES.includes(c.type));
        const large = new Map(evaluateAlerts(bigger).map((c) => [c.type, c.priority]));
        for (const c of small) {
          expect(large.has(c.type)).toBe(true);
          expect(RANK[large.get(c.type)!]).toBeGreaterThanOrEqual(RANK[c.priority]);
        }
      }),
    );
  });

  it('larger deviation, unplanned-stop and dock-delay thresholds never raise those alerts; a longer auto-resolve never clears a deviation', () => {
    fc.assert(
      fc.property(snapshotArb, fc.double({ min: 0, max: 10, noNaN: true }), fc.integer({ min: 0, max: 120 }), (s, miles, minutes) => {
        const a = s.settings.alerts;
        const base = typesOf(s);
        const looser = typesOf(
          withAlerts(s, {
            routeDeviationThresholdMiles: a.routeDeviationThresholdMiles + miles,
            unplannedStopThresholdMinutes: a.unplannedStopThresholdMinutes + minutes,
            dockDelayThresholdMinutes: a.dockDelayThresholdMinutes + minutes,
          }),
        );
        for (const type of ['ROUTE_DEVIATION', 'UNPLANNED_STOP', 'DOCK_DELAY'] as const) if (looser.has(type)) expect(base.has(type)).toBe(true);
        const patient = typesOf(withMonitoring(s, { autoResolveDeviationAfterMinutes: s.settings.monitoring.autoResolveDeviationAfterMinutes + minutes }));
        if (base.has('ROUTE_DEVIATION')) expect(patient.has('ROUTE_DEVIATION')).toBe(true);
      }),
    );
  });

  it('the enable flags only add their own category, leaving the other conditions exactly as they were', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        const off = evaluateAlerts(withAlerts(s, { enableWeatherAlerts: false, enableMechanicalAlerts: false }));
        const on = evaluateAlerts(withAlerts(s, { enableWeatherAlerts: true, enableMechanicalAlerts: true }));
        const gated = (type: AlertType) => ['WEATHER', 'MECHANICAL'].includes(ALERT_TYPES[type].category);
        expect(off.filter((c) => gated(c.type))).toEqual([]);
        expect(on.filter((c) => !gated(c.type))).toEqual(off);
      }),
    );
  });
});

describe('reconcile (properties)', () => {
  it('never creates an open type; touches only open alerts; never updates or resurfaces a running snooze; resolves what no longer holds', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        const conditions = evaluateAlerts(s);
        const r = reconcile(s, conditions);
        const openTypes = new Set(s.open.map((a) => a.type));
        const openIds = new Set(s.open.map((a) => a.id));
        const holding = new Set(conditions.map((c) => c.type));
        for (const c of r.create) expect(openTypes.has(c.type)).toBe(false);
        expect(r.create.length + s.open.filter((a) => holding.has(a.type)).length).toBe(conditions.length);
        for (const u of r.update) {
          expect(openIds.has(u.alert.id)).toBe(true);
          expect(snoozing(u.alert, s.now)).toBe(false);
          expect(u.priorityChanged).toBe(u.alert.priority !== u.condition.priority);
        }
        for (const a of r.resurface) {
          expect(a.status).toBe('SNOOZED');
          expect(snoozing(a, s.now)).toBe(false);
        }
        expect(r.resolve.map((x) => x.alert.type).sort()).toEqual(s.open.filter((a) => !holding.has(a.type)).map((a) => a.type).sort());
        for (const x of r.resolve) expect(x.resolution.length).toBeGreaterThan(5);
        const resolved = new Set(r.resolve.map((x) => x.alert.id));
        for (const u of r.update) expect(resolved.has(u.alert.id)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent: after applying one check, the same snapshot needs nothing more', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        const first = reconcile(s, evaluateAlerts(s));
        const after: MonitoringSnapshot = { ...s, open: applyReconciliation(s.open, first, s.now) };
        expect(reconcile(after, evaluateAlerts(after))).toEqual({ create: [], update: [], resolve: [], resurface: [] });
      }),
      { numRuns: 300 },
    );
  });

  it('fingerprints survive the round trip through storage', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        for (const c of evaluateAlerts(s)) {
          const stored = JSON.parse(JSON.stringify(c.metadata)) as Record<string, unknown>;
          const rule = RULES[c.type as RouteAlertType];
          expect(rule.fingerprint(stored)).toBe(rule.fingerprint(c.metadata));
        }
      }),
    );
  });
});
