import { describe, expect, it } from 'vitest';
import { evaluateAlerts } from './evaluate.js';
import { reconcile } from './reconcile.js';
import { RULES, TYPE_ORDER } from './rules.js';
import {
  ARDMORE_MI,
  at,
  buildSnapshot,
  DALLAS,
  driving,
  MIN,
  offRoute,
  onPlan,
  openAlert,
  parked,
  pointAt,
  T0,
} from './test-support.js';
import { ALERT_TYPES, type MonitoringSnapshot, type RouteAlertType } from './types.js';

/** One snapshot in which each type holds (the rule files test each in depth; this is the catalogue). */
const SCENARIOS: Record<RouteAlertType, MonitoringSnapshot> = {
  HOS_APPROACHING_DRIVE_LIMIT: buildSnapshot({ clocks: { driveRemaining: 0.5 } }),
  HOS_APPROACHING_DUTY_LIMIT: buildSnapshot({ clocks: { windowRemaining: 0.5 } }),
  HOS_APPROACHING_CYCLE_LIMIT: buildSnapshot({ clocks: { cycleRemaining: 0.5 } }),
  HOS_BREAK_REQUIRED: buildSnapshot({ clocks: { breakRemaining: 0.75 } }),
  HOS_VIOLATION: buildSnapshot({ violations: [{ kind: 'DRIVE', at: at(0.2), overHours: 0.3, rule: '49 CFR 395.3(a)(3)(i) 11-hour driving limit', explanation: 'Drove past 11 h' }] }),
  ROUTE_DEVIATION: buildSnapshot({ positions: [...onPlan(T0, at(0.4)), { ...onPlan(at(0.5), at(0.5))[0]!, ...offRoute(27.5, 9) }] }),
  UNPLANNED_STOP: buildSnapshot({ now: at(1.5), positions: [...driving(0, T0, at(0.5)), ...parked(pointAt(30), at(0.6), at(1.5))] }),
  MISSED_REST_STOP: buildSnapshot({ now: at(6.25), positions: driving(120, at(5), at(6.25)) }),
  SEVERE_WEATHER_IN_PATH: buildSnapshot({ weather: [{ severity: 'SEVERE', event: 'Ice Storm Warning', headline: 'Ice', startsAt: T0, endsAt: null, latitude: 34, longitude: -97, milesAhead: 60, source: 'nws' }] }),
  WEATHER_ADVISORY: buildSnapshot({ weather: [{ severity: 'MINOR', event: 'Fog Advisory', headline: 'Fog', startsAt: T0, endsAt: null, latitude: 34, longitude: -97, milesAhead: 20, source: 'nws' }] }),
  WEATHER_DELAY: buildSnapshot({ weatherDelayHours: 1 }),
  VEHICLE_FAULT: buildSnapshot({ faults: [{ code: 'SPN 100', description: 'Oil pressure low', severity: 'WARNING', active: true, at: at(0.3) }] }),
  LOW_FUEL: buildSnapshot({ positions: onPlan(T0, at(0.5), 5, { fuelLevelPercent: 10 }) }),
  VEHICLE_BREAKDOWN: buildSnapshot({ faults: [{ code: 'SPN 524', description: 'Brake failure', severity: 'CRITICAL', active: true, at: at(0.3) }] }),
  LATE_TO_APPOINTMENT: buildSnapshot({ etaPredictions: [{ stopIndex: 1, predictedArrival: at(5), source: 'visibility-sandbox', at: at(0.4) }] }),
  APPOINTMENT_AT_RISK: buildSnapshot({ etaPredictions: [{ stopIndex: 1, predictedArrival: at(3.8), source: 'visibility-sandbox', at: at(0.4) }] }),
  DOCK_DELAY: buildSnapshot({ now: at(6), positions: parked(pointAt(ARDMORE_MI), at(2.5), at(6)) }),
  DEPARTURE_DELAYED: buildSnapshot({ now: at(1), positions: parked(DALLAS, T0 - 30 * MIN, at(1)) }),
  TELEMETRY_STALE: buildSnapshot({ now: at(1), positions: onPlan(T0, at(0.5)) }),
};

describe('evaluateAlerts', () => {
  it('finds nothing on a trip going to plan', () => {
    expect(evaluateAlerts(buildSnapshot())).toEqual([]);
  });

  it('has a rule for each of the 19 types a route raises, under its own name; the 20th is the integrations worker’s', () => {
    expect(TYPE_ORDER).toHaveLength(19);
    for (const type of TYPE_ORDER) expect(RULES[type].type).toBe(type);
    expect(Object.keys(ALERT_TYPES).filter((t) => !(TYPE_ORDER as string[]).includes(t))).toEqual(['INTEGRATION_SYNC_FAILED']);
    // An open INTEGRATION_SYNC_FAILED (the integration's, no rule of the route's) is never resolved by a route's check.
    const integrationAlert = openAlert({ type: 'INTEGRATION_SYNC_FAILED', priority: 'MEDIUM', title: 't', message: 'm', metadata: { integrationId: 'int_1' } });
    expect(reconcile(buildSnapshot({ open: [integrationAlert] }), []).resolve).toEqual([]);
  });

  describe.each(TYPE_ORDER)('%s', (type) => {
    const conditions = evaluateAlerts(SCENARIOS[type]);
    const c = conditions.find((x) => x.type === type);

    it('holds in its scenario, with its default priority there', () => {
      expect(c?.priority).toBe(ALERT_TYPES[type].priority);
    });

    it('names the driver and the unit, and has a title', () => {
      expect(c!.title.length).toBeGreaterThan(5);
      expect(c!.message).toContain('Jane Doe');
      expect(c!.message).toContain('1042');
    });

    it('keeps its facts JSON-safe (stored as JSONB, sent in events)', () => {
      expect(JSON.parse(JSON.stringify(c!.metadata))).toEqual(c!.metadata);
    });

    it('gives the same fingerprint for stored (JSON) metadata', () => {
      const stored = JSON.parse(JSON.stringify(c!.metadata)) as Record<string, unknown>;
      expect(RULES[type].fingerprint(stored)).toBe(RULES[type].fingerprint(c!.metadata));
    });
  });

  it('returns conditions in the contract\'s type order', () => {
    const s = buildSnapshot({ now: at(1), clocks: { driveRemaining: 0.5, cycleRemaining: 0.5 }, weatherDelayHours: 1, positions: onPlan(T0, at(0.5)) });
    expect(evaluateAlerts(s).map((c) => c.type)).toEqual(['HOS_APPROACHING_DRIVE_LIMIT', 'HOS_APPROACHING_CYCLE_LIMIT', 'WEATHER_DELAY', 'TELEMETRY_STALE']);
  });
});
