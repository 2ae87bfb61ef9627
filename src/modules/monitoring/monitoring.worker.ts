import { hostname } from 'node:os';
import type { Database, Tx } from '../../db/types.js';
import type { AlertCondition, AlertType, MonitoringSnapshot, OpenAlert, Reconciliation } from '../../domain/alerts/types.js';
import { hosNow, type evaluate } from '../../domain/hos/index.js';
import { pathAhead } from '../../domain/geo/route-sample.js';
import { randomBase62 } from '../../lib/ids.js';
import type { Worker } from '../../lib/worker.js';
import type { NewAlertNamed } from '../alerts/alerts.repository.js';
import { openAlertsOfRoutes, raiseAlerts, resolveAlert, resurfaceAlert, reviseAlert } from '../alerts/alerts.repository.js';
import {
  claimDueRoutes,
  releaseRoutes,
  dropInactive,
  HOS_HISTORY_MS,
  loadPositions,
  loadRoutes,
  loadTimelines,
  rescheduleRoutes,
  type RouteFacts,
} from './monitoring.repository.js';
import { NO_SIGNALS, type MonitoredRoute, type MonitoringSources, type RouteSignals } from './monitoring.sources.js';

/** The pure alert rules (src/domain/alerts), injected so that tests can watch what they are given. */
export interface AlertRules {
  evaluate(snapshot: MonitoringSnapshot): AlertCondition[];
  reconcile(snapshot: MonitoringSnapshot, conditions: AlertCondition[]): Reconciliation;
}

export interface MonitoringOptions {
  /** Routes claimed per pass. */
  batch: number;
  /** How long a claim holds: a worker that dies leaves its routes to others after this. */
  leaseMs: number;
  /** Positions handed to the rules: the last `positionsPerRoute` within `positionWindowMs`. */
  positionWindowMs: number;
  positionsPerRoute: number;
  /** The deployment's default check interval (MONITORING_INTERVAL_SECONDS); tenants may set their own. */
  defaultIntervalSeconds: number;
  /** A point as alert messages name it ("near Lebanon, IN"); without it they name the nearest planned place. */
  placeName?: (p: { latitude: number; longitude: number }) => string | null;
}

export const DEFAULT_MONITORING_OPTIONS: Omit<MonitoringOptions, 'defaultIntervalSeconds'> = {
  batch: 200,
  leaseMs: 15_000,
  positionWindowMs: 6 * 3_600_000,
  positionsPerRoute: 120,
};

/** What one pass did, for the metrics and the benchmark. */
export interface PassReport {
  checked: number;
  raised: number;
  updated: number;
  resolved: number;
}

/**
 * Checks every ACTIVE route on its tenant's interval. A pass claims a batch of due routes (shared
 * with any number of other workers through FOR UPDATE SKIP LOCKED), asks the integration sources about
 * them (outside any transaction), then in one transaction reads the batch's plans, positions, duty logs
 * and open alerts, runs the pure alert rules on each route's snapshot, applies the result (raise,
 * update, auto-resolve, resurface; each change with its outbox event) and schedules the next check.
 */
export class MonitoringWorker implements Worker {
  readonly name = 'monitoring';
  readonly workerId = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  lastPass: PassReport = { checked: 0, raised: 0, updated: 0, resolved: 0 };

  constructor(
    private readonly db: Database,
    private readonly rules: AlertRules,
    private readonly sources: MonitoringSources,
    private readonly opts: MonitoringOptions,
  ) {}

  async release(): Promise<void> {
    await this.db.system((tx) => releaseRoutes(tx, this.workerId));
  }

  async runOnce(now: Date): Promise<number> {
    const keys = await this.db.system((tx) => claimDueRoutes(tx, now, this.opts.batch, this.opts.leaseMs, this.workerId));
    const report: PassReport = { checked: 0, raised: 0, updated: 0, resolved: 0 };
    if (keys.length === 0) {
      this.lastPass = report;
      return 0;
    }
    const { facts, positions } = await this.db.system(async (tx) => ({
      facts: await loadRoutes(tx, keys, this.opts.defaultIntervalSeconds),
      positions: await loadPositions(tx, keys, now, this.opts.positionWindowMs, this.opts.positionsPerRoute),
    }));
    const signals = await this.sources.signals(
      facts.map((f) => monitoredRoute(f, positions.get(f.routeId) ?? [], now.getTime())),
      now,
    );
    await this.db.system(async (tx) => {
      const active = facts.filter((f) => f.status === 'ACTIVE');
      const gone = keys.filter((k) => !active.some((f) => f.tenantId === k.tenantId && f.routeId === k.routeId));
      await dropInactive(tx, gone);
      const drivers = active.flatMap((f) => [{ tenantId: f.tenantId, driverId: f.driverId }, ...(f.coDriverId ? [{ tenantId: f.tenantId, driverId: f.coDriverId }] : [])]);
      const timelines = await loadTimelines(tx, drivers, now.getTime(), HOS_HISTORY_MS);
      const open = await openAlertsOfRoutes(tx, active);
      const raise: NewAlertNamed[] = [];
      for (const f of active) {
        const routeOpen = open.get(f.routeId) ?? [];
        const signal = signals.get(f.routeId) ?? NO_SIGNALS;
        // A team route: the co-driver's own HOS alerts are theirs; everything else is the route's (under its driver).
        const coOwn = (a: OpenAlert) => f.coDriverId !== null && a.driverId === f.coDriverId && HOS_TYPES.has(a.type);
        // A team's logs are judged by the rule set's team provisions (Canada s.19's team split).
        if (f.coDriverId !== null) f.rules = { ...f.rules, options: { ...f.rules.options, teamDriving: true } };
        const snapshot = buildSnapshot(this.opts, f, positions.get(f.routeId) ?? [], timelines.get(`${f.tenantId}|${f.driverId}`) ?? [], signal, routeOpen.filter((a) => !coOwn(a)), now.getTime());
        const result = this.rules.reconcile(snapshot, this.rules.evaluate(snapshot));
        await apply(tx, f, result, now, report, raise, { id: f.driverId, name: f.driverName });
        if (f.coDriverId !== null) {
          // The co-driver's clocks: their own log, and their own ELD's clocks when it reported them.
          const co = { ...f, driverId: f.coDriverId, driverName: f.coDriverName ?? f.coDriverId };
          const coSnapshot = buildSnapshot(this.opts, co, positions.get(f.routeId) ?? [], timelines.get(`${f.tenantId}|${f.coDriverId}`) ?? [], { ...signal, eldClocks: signal.coDriverEldClocks ?? null }, routeOpen.filter(coOwn), now.getTime());
          const coResult = this.rules.reconcile(coSnapshot, this.rules.evaluate(coSnapshot).filter((c) => HOS_TYPES.has(c.type)));
          await apply(tx, f, coResult, now, report, raise, { id: f.coDriverId, name: co.driverName });
        }
        report.checked++;
      }
      await raiseAlerts(tx, raise, now);
      await rescheduleRoutes(tx, active, now, this.workerId, this.opts.defaultIntervalSeconds);
    });
    this.lastPass = report;
    return keys.length;
  }
}

function monitoredRoute(f: RouteFacts, positions: MonitoringSnapshot['positions'], now: number): MonitoredRoute {
  const last = positions[positions.length - 1];
  const position = last ? { latitude: last.latitude, longitude: last.longitude } : null;
  // The unfinished drives from the truck's foot on the path (or from the start of the first, with no position).
  const drives = f.segments.flatMap((s) => (s.type === 'drive' ? [{ from: s.from, to: s.to, endsAt: Date.parse(s.end_time) }] : []));
  const ahead = pathAhead(drives, now, position);
  return {
    tenantId: f.tenantId,
    routeId: f.routeId,
    driverId: f.driverId,
    ...(f.coDriverId ? { coDriverId: f.coDriverId } : {}),
    vehicleId: f.vehicleId,
    position,
    pathAhead: ahead,
  };
}

function buildSnapshot(
  opts: Pick<MonitoringOptions, 'placeName'>,
  f: RouteFacts,
  positions: MonitoringSnapshot['positions'],
  timeline: Parameters<typeof evaluate>[0],
  signals: RouteSignals,
  open: OpenAlert[],
  now: number,
): MonitoringSnapshot {
  // The one truth every screen shows (hosNow): an ELD's clocks when fresh, else the log's; violations from the log
  // (which holds the ELD's synced logs too); a disagreement between the two stated.
  const e = hosNow(timeline, f.rules, now, signals.eldClocks ? { vendor: signals.eldClocks.source, reported: signals.eldClocks.reported } : null);
  const hos: MonitoringSnapshot['hos'] = {
    clocks: e.clocks,
    violations: e.violations,
    source: e.source.vendor ?? 'MANUAL',
    sourceName: e.source.name,
    disagreement: e.disagreement?.message ?? null,
  };
  return {
    now,
    route: { id: f.routeId, activatedAt: f.activatedAt, departureTime: f.departureTime, arrivalTime: f.arrivalTime, segments: f.segments, stops: f.stops },
    driver: { id: f.driverId, name: f.driverName },
    vehicle: f.vehicleId ? { id: f.vehicleId, unit: f.vehicleUnit ?? f.vehicleId } : null,
    hos,
    positions,
    ...(opts.placeName ? { placeName: opts.placeName } : {}),
    weather: signals.weather,
    weatherDelayHours: signals.weatherDelayHours,
    faults: signals.faults,
    etaPredictions: signals.etaPredictions,
    settings: { alerts: f.alerts, monitoring: f.monitoring },
    open,
  };
}

/** Applies one route's reconciliation; its new alerts are collected in `raise` (raised for the whole batch at once). */
/** The alert types about one driver's hours: on a team route each driver has their own. */
const HOS_TYPES: ReadonlySet<AlertType> = new Set<AlertType>(['HOS_APPROACHING_DRIVE_LIMIT', 'HOS_APPROACHING_DUTY_LIMIT', 'HOS_APPROACHING_CYCLE_LIMIT', 'HOS_BREAK_REQUIRED', 'HOS_VIOLATION']);

async function apply(tx: Tx, f: RouteFacts, r: Reconciliation, now: Date, report: PassReport, raise: NewAlertNamed[], driver: { id: string; name: string }): Promise<void> {
  for (const alert of r.resurface) await resurfaceAlert(tx, f.tenantId, alert.id, now);
  for (const { alert, resolution } of r.resolve) {
    await resolveAlert(tx, f.tenantId, alert.id, 'system', resolution, now);
    report.resolved++;
  }
  for (const { alert, condition, priorityChanged } of r.update) {
    const change = priorityChanged ? `priority ${alert.priority} → ${condition.priority}` : 'condition changed';
    await reviseAlert(tx, f.tenantId, alert.id, condition, change, now);
    report.updated++;
  }
  for (const condition of r.create) {
    raise.push({ tenantId: f.tenantId, condition, driverId: driver.id, driverName: driver.name, routeId: f.routeId, vehicleId: f.vehicleId, vehicleUnit: f.vehicleUnit });
    report.raised++;
  }
}

