/**
 * Fixtures for the alert rules' tests: one known trip and a snapshot builder.
 *
 * The trip: Dallas, TX → Oklahoma City, OK on the great circle (about 191 mi), departing 2026-03-02 12:00 UTC.
 *
 *   seq  type   where (path miles)               plan time (h after departure)
 *   1    drive  Dallas 0 → Sanger 55             0    – 1
 *   2    rest   Sanger (break, 30 min)           1    – 1.5
 *   3    drive  Sanger 55 → Ardmore 100          1.5  – 2.5
 *   4    dock   Ardmore PICKUP, 2 h              2.5  – 4.5   appointment 2 – 4
 *   5    drive  Ardmore 100 → Pauls Valley 150   4.5  – 5.5
 *   6    rest   Pauls Valley (full rest, 10 h)   5.5  – 15.5
 *   7    drive  Pauls Valley 150 → OKC end       15.5 – 16.5
 *   8    dock   Oklahoma City DELIVERY, 1.5 h    16.5 – 18    appointment 16 – 18
 *
 * The default snapshot is 30 minutes into the trip, on plan, with every clock comfortable: no condition.
 */
import { destinationPoint, haversineMiles, initialBearing, interpolate, type LatLng } from '../geo/geodesy.js';
import type { HosClocks, Violation } from '../hos/types.js';
import type { HosStateAfter, Segment, StopEta } from '../planning/types.js';
import type {
  AlertCondition,
  AlertSettings,
  AlertType,
  MonitoringSettings,
  MonitoringSnapshot,
  OpenAlert,
  PositionReport,
  Reconciliation,
} from './types.js';

export const MIN = 60_000;
export const HOUR = 3_600_000;
/** The planned departure. */
export const T0 = Date.parse('2026-03-02T12:00:00.000Z');
/** `hours` after the planned departure. */
export const at = (hours: number): number => T0 + hours * HOUR;

export const DALLAS: LatLng = { latitude: 32.7767, longitude: -96.797 };
export const OKC: LatLng = { latitude: 35.4676, longitude: -97.5164 };
export const ROUTE_MILES = haversineMiles(DALLAS, OKC);
export const SANGER_MI = 55;
export const ARDMORE_MI = 100;
export const PAULS_VALLEY_MI = 150;

/** The point `miles` along the trip. */
export const pointAt = (miles: number): LatLng => interpolate(DALLAS, OKC, miles / ROUTE_MILES);

/** A point `lateral` miles to the right of the trip at `miles` along it (negative: to the left). */
export function offRoute(miles: number, lateral: number): LatLng {
  const here = pointAt(miles);
  const bearing = initialBearing(here, OKC);
  return destinationPoint(here, bearing + (lateral >= 0 ? 90 : -90), Math.abs(lateral));
}

const iso = (ms: number) => new Date(ms).toISOString();
const STATE: HosStateAfter = {
  hours_driven: 0,
  on_duty_hours: 0,
  hours_since_break: 0,
  drive_hours_remaining: 11,
  duty_hours_remaining: 14,
  cycle_hours_used: 0,
  cycle_hours_remaining: 70,
};
const named = (name: string, miles: number) => ({ name, ...pointAt(miles) });
const base = (sequence: number, from: number, to: number) => ({
  sequence,
  start_time: iso(at(from)),
  end_time: iso(at(to)),
  duration_hours: to - from,
  hos_state_after: STATE,
});
const drive = (sequence: number, from: number, to: number, a: [string, number], b: [string, number]): Segment => ({
  ...base(sequence, from, to),
  type: 'drive',
  from: named(...a),
  to: named(...b),
  distance_miles: b[1] - a[1],
});

export const SEGMENTS: Segment[] = [
  drive(1, 0, 1, ['Dallas, TX', 0], ['Sanger, TX', SANGER_MI]),
  { ...base(2, 1, 1.5), type: 'rest', location: 'Sanger, TX', ...pointAt(SANGER_MI), rest_type: 'break', duty_status: 'OFF_DUTY', reason: '30-minute break' },
  drive(3, 1.5, 2.5, ['Sanger, TX', SANGER_MI], ['Ardmore, OK', ARDMORE_MI]),
  {
    ...base(4, 2.5, 4.5),
    type: 'dock',
    location: 'Ardmore, OK',
    ...pointAt(ARDMORE_MI),
    stop_type: 'PICKUP',
    appointment: { earliest: iso(at(2)), latest: iso(at(4)) },
  },
  drive(5, 4.5, 5.5, ['Ardmore, OK', ARDMORE_MI], ['Pauls Valley, OK', PAULS_VALLEY_MI]),
  {
    ...base(6, 5.5, 15.5),
    type: 'rest',
    location: 'Pauls Valley, OK',
    ...pointAt(PAULS_VALLEY_MI),
    rest_type: 'full_rest',
    duty_status: 'SLEEPER_BERTH',
    reason: '10-hour rest',
  },
  drive(7, 15.5, 16.5, ['Pauls Valley, OK', PAULS_VALLEY_MI], ['Oklahoma City, OK', ROUTE_MILES]),
  {
    ...base(8, 16.5, 18),
    type: 'dock',
    location: 'Oklahoma City, OK',
    ...pointAt(ROUTE_MILES),
    stop_type: 'DELIVERY',
    appointment: { earliest: iso(at(16)), latest: iso(at(18)) },
  },
];

const stopEta = (sequence: number, name: string, type: StopEta['type'], miles: number, arrive: number, leave: number, window: [number, number] | null): StopEta => ({
  sequence,
  name,
  type,
  ...pointAt(miles),
  arrivalTime: iso(at(arrive)),
  departureTime: iso(at(leave)),
  appointment: window ? { earliest: iso(at(window[0])), latest: iso(at(window[1])) } : null,
  withinWindow: window ? true : null,
  lateByHours: 0,
});

export const STOPS: StopEta[] = [
  stopEta(1, 'Dallas, TX', 'ORIGIN', 0, 0, 0, null),
  stopEta(2, 'Ardmore, OK', 'PICKUP', ARDMORE_MI, 2.5, 4.5, [2, 4]),
  stopEta(3, 'Oklahoma City, OK', 'DELIVERY', ROUTE_MILES, 16.5, 18, [16, 18]),
];

/** Where the plan puts the vehicle at time t (trip miles), and whether it is driving then. */
export function planAt(t: number): { miles: number; driving: boolean } {
  for (const s of SEGMENTS) {
    const start = Date.parse(s.start_time);
    const end = Date.parse(s.end_time);
    if (t < start || t > end) continue;
    if (s.type !== 'drive') return { miles: milesOf(s), driving: false };
    const fromMiles = milesOf(s);
    return { miles: fromMiles + ((t - start) / (end - start)) * s.distance_miles, driving: t < end };
  }
  return { miles: t < T0 ? 0 : ROUTE_MILES, driving: false };
}

function milesOf(s: Segment): number {
  const p = s.type === 'drive' ? s.from : s;
  return haversineMiles(DALLAS, p);
}

export function position(point: LatLng, when: number, extra: Partial<PositionReport> = {}): PositionReport {
  return { at: when, latitude: point.latitude, longitude: point.longitude, speedMph: 0, fuelLevelPercent: null, ...extra };
}

/** Positions every `everyMinutes` from `from` to `to` (inclusive) wherever `where(t)` says. */
export function track(from: number, to: number, everyMinutes: number, where: (t: number) => { point: LatLng; speedMph: number | null }, extra: Partial<PositionReport> = {}): PositionReport[] {
  const out: PositionReport[] = [];
  for (let t = from; t <= to; t += everyMinutes * MIN) {
    const { point, speedMph } = where(t);
    out.push(position(point, t, { speedMph, ...extra }));
  }
  return out;
}

/** Positions that follow the plan exactly. */
export const onPlan = (from: number, to: number, everyMinutes = 5, extra: Partial<PositionReport> = {}): PositionReport[] =>
  track(from, to, everyMinutes, (t) => {
    const p = planAt(t);
    return { point: pointAt(p.miles), speedMph: p.driving ? 55 : 0 };
  }, extra);

/** Positions of a vehicle standing at `point`. */
export const parked = (point: LatLng, from: number, to: number, everyMinutes = 5, extra: Partial<PositionReport> = {}): PositionReport[] =>
  track(from, to, everyMinutes, () => ({ point, speedMph: 0 }), extra);

/** Positions driving along the trip from `fromMiles` at `from` at `mph`, until `to`. */
export const driving = (fromMiles: number, from: number, to: number, mph = 55, everyMinutes = 5, extra: Partial<PositionReport> = {}): PositionReport[] =>
  track(from, to, everyMinutes, (t) => ({ point: pointAt(fromMiles + (mph * (t - from)) / HOUR), speedMph: mph }), extra);

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  hosApproachingThresholdHours: 1,
  routeDeviationThresholdMiles: 5,
  unplannedStopThresholdMinutes: 30,
  dockDelayThresholdMinutes: 60,
  enableWeatherAlerts: true,
  enableMechanicalAlerts: true,
};

export const DEFAULT_MONITORING_SETTINGS: MonitoringSettings = {
  monitoringIntervalSeconds: 60,
  autoResolveDeviationAfterMinutes: 10,
  hosWarningThresholdMinutes: 30,
  telemetryStaleMinutes: 15,
};

export function buildClocks(now: number, overrides: Partial<HosClocks> = {}): HosClocks {
  return {
    hoursDriven: 0.5,
    onDutyHours: 0.75,
    hoursSinceBreak: 0.5,
    cycleHoursUsed: 20,
    driveRemaining: 10.5,
    windowRemaining: 13.25,
    breakRemaining: 7.5,
    cycleRemaining: 50,
    cycleHoursRecapturedTomorrow: 0,
    lastRestartAt: null,
    periodStart: T0 - 15 * MIN,
    dutyStatus: 'ON_DUTY_DRIVING',
    at: now,
    ...overrides,
  };
}

export interface SnapshotOverrides extends Partial<Omit<MonitoringSnapshot, 'settings' | 'route'>> {
  route?: Partial<MonitoringSnapshot['route']>;
  alerts?: Partial<AlertSettings>;
  monitoring?: Partial<MonitoringSettings>;
  /** Merged into the default clocks (ignored when `hos` is given). */
  clocks?: Partial<HosClocks>;
  /** The default HOS record's violations (ignored when `hos` is given). */
  violations?: Violation[];
}

export function buildSnapshot(overrides: SnapshotOverrides = {}): MonitoringSnapshot {
  const { route, alerts, monitoring, clocks, violations, ...rest } = overrides;
  const now = overrides.now ?? at(0.5);
  return {
    now,
    route: {
      id: 'rte_test',
      activatedAt: T0 - 30 * MIN,
      departureTime: T0,
      arrivalTime: at(18),
      segments: SEGMENTS,
      stops: STOPS,
      ...route,
    },
    driver: { id: 'drv_1', name: 'Jane Doe' },
    vehicle: { id: 'veh_1', unit: '1042' },
    hos: { clocks: buildClocks(now, clocks), violations: violations ?? [], source: 'MANUAL' },
    positions: onPlan(T0, now, 5, { fuelLevelPercent: 80 }),
    weather: [],
    weatherDelayHours: 0,
    faults: [],
    etaPredictions: [],
    settings: { alerts: { ...DEFAULT_ALERT_SETTINGS, ...alerts }, monitoring: { ...DEFAULT_MONITORING_SETTINGS, ...monitoring } },
    open: [],
    ...rest,
  };
}

let nextId = 1;

/** An open alert as the store would hold it after raising `condition`. */
export function openAlert(condition: AlertCondition, overrides: Partial<OpenAlert> = {}): OpenAlert {
  return {
    id: `alt_${nextId++}`,
    type: condition.type,
    status: 'ACTIVE',
    priority: condition.priority,
    createdAt: T0,
    snoozedUntil: null,
    metadata: JSON.parse(JSON.stringify(condition.metadata)) as Record<string, unknown>,
    ...overrides,
  };
}

/** An open alert of a type with no facts (as a generic stored alert). */
export function bareAlert(type: AlertType, overrides: Partial<OpenAlert> = {}): OpenAlert {
  return { id: `alt_${nextId++}`, type, status: 'ACTIVE', priority: 'MEDIUM', createdAt: T0, snoozedUntil: null, metadata: {}, ...overrides };
}

/** What the monitoring worker does with a reconciliation: the open alerts afterwards (metadata stored as JSON). */
export function applyReconciliation(open: readonly OpenAlert[], r: Reconciliation, now: number): OpenAlert[] {
  const resolved = new Set(r.resolve.map((x) => x.alert.id));
  const resurfaced = new Set(r.resurface.map((a) => a.id));
  const updates = new Map(r.update.map((u) => [u.alert.id, u.condition]));
  const kept = open
    .filter((a) => !resolved.has(a.id))
    .map((a): OpenAlert => {
      const c = updates.get(a.id);
      const b: OpenAlert = resurfaced.has(a.id) ? { ...a, status: 'ACTIVE', snoozedUntil: null } : a;
      return c ? { ...b, priority: c.priority, metadata: JSON.parse(JSON.stringify(c.metadata)) as Record<string, unknown> } : b;
    });
  return [...kept, ...r.create.map((c) => openAlert(c, { createdAt: now }))];
}

