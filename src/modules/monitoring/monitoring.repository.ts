/**
 * The monitoring worker's data access. Claims and batch reads run as the schema owner across tenants
 * (a worker checks every tenant's routes), so every statement names its tenants explicitly.
 */
import type { Tx } from '../../db/types.js';
import type { AlertSettings, MonitoringSettings, PositionReport } from '../../domain/alerts/types.js';
import { timelineFromLog } from '../../domain/hos/index.js';
import { HOUR_MS, type DutyPeriod, type RuleSet, type RuleSetId, type RuleSetOptions } from '../../domain/hos/types.js';
import type { Segment, StopEta } from '../../domain/planning/types.js';
import { defaultAlertSettings, defaultMonitoringSettings } from '../settings/settings.defaults.js';

export interface RouteKey {
  tenantId: string;
  routeId: string;
}

/** An activated route is due at once; a route that ends is no longer monitored. */
export async function startMonitoring(tx: Tx, tenantId: string, routeId: string, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO route_monitoring (tenant_id, route_id, next_check_at) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, route_id) DO UPDATE SET next_check_at = excluded.next_check_at, locked_by = NULL, locked_until = NULL`,
    [tenantId, routeId, now],
  );
}

export async function stopMonitoring(tx: Tx, tenantId: string, routeId: string): Promise<void> {
  await tx.query('DELETE FROM route_monitoring WHERE tenant_id = $1 AND route_id = $2', [tenantId, routeId]);
}

/**
 * Takes up to `limit` due routes no other worker holds (FOR UPDATE SKIP LOCKED), each for `leaseMs`:
 * if this worker dies, the lease runs out and another takes the route, within a check interval.
 */
export async function claimDueRoutes(tx: Tx, now: Date, limit: number, leaseMs: number, workerId: string): Promise<RouteKey[]> {
  const { rows } = await tx.query<{ tenant_id: string; route_id: string }>(
    `UPDATE route_monitoring m SET locked_by = $3, locked_until = $4
       FROM (SELECT tenant_id, route_id FROM route_monitoring
              WHERE next_check_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
              ORDER BY next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
      WHERE m.tenant_id = due.tenant_id AND m.route_id = due.route_id
      RETURNING m.tenant_id, m.route_id`,
    [now, limit, workerId, new Date(now.getTime() + leaseMs)],
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, routeId: r.route_id }));
}

/** Gives back every route this worker holds (it is shutting down): due again at once for any worker. */
export async function releaseRoutes(tx: Tx, workerId: string): Promise<void> {
  await tx.query('UPDATE route_monitoring SET locked_by = NULL, locked_until = NULL WHERE locked_by = $1', [workerId]);
}

/**
 * Done with these routes: each is next due one tenant interval from now (the tenant's
 * monitoringIntervalSeconds, else the deployment's default), and released. Only this worker's
 * claims are touched: a route whose lease ran out and was taken over is left to its new holder.
 */
export async function rescheduleRoutes(tx: Tx, keys: RouteKey[], now: Date, workerId: string, defaultIntervalSeconds: number): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `UPDATE route_monitoring m
        SET next_check_at = $1::timestamptz + make_interval(secs => coalesce((s.monitoring->>'monitoringIntervalSeconds')::int, $5)),
            locked_by = NULL, locked_until = NULL, last_checked_at = $1, checks = m.checks + 1
       FROM unnest($2::text[], $3::text[]) AS k (tenant_id, route_id)
       LEFT JOIN tenant_settings s ON s.tenant_id = k.tenant_id
      WHERE m.tenant_id = k.tenant_id AND m.route_id = k.route_id AND m.locked_by = $4`,
    [now, keys.map((k) => k.tenantId), keys.map((k) => k.routeId), workerId, defaultIntervalSeconds],
  );
}

/** Routes that are no longer ACTIVE (completed or cancelled outside the service's own path) leave monitoring. */
export async function dropInactive(tx: Tx, keys: RouteKey[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `DELETE FROM route_monitoring m USING unnest($1::text[], $2::text[]) AS k (tenant_id, route_id)
      WHERE m.tenant_id = k.tenant_id AND m.route_id = k.route_id`,
    [keys.map((k) => k.tenantId), keys.map((k) => k.routeId)],
  );
}

// ---------------------------------------------------------------------------------------------
// One batch's data, in a few set-based statements.

export interface RouteFacts {
  tenantId: string;
  routeId: string;
  status: string;
  driverId: string;
  driverName: string;
  /** Team routes: the co-driver, whose HOS is watched as the driver's is (null: one driver). */
  coDriverId: string | null;
  coDriverName: string | null;
  vehicleId: string | null;
  vehicleUnit: string | null;
  activatedAt: number;
  departureTime: number;
  arrivalTime: number;
  segments: Segment[];
  stops: StopEta[];
  alerts: AlertSettings;
  monitoring: MonitoringSettings;
  rules: RuleSet;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const ms = (v: unknown) => new Date(v as string | Date).getTime();

export async function loadRoutes(tx: Tx, keys: RouteKey[], defaultIntervalSeconds: number): Promise<RouteFacts[]> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT r.tenant_id, r.id, r.status, r.driver_id, r.co_driver_id, r.vehicle_id, r.activated_at, r.departure_time, r.arrival_time, r.segments, r.stops,
            d.first_name || ' ' || d.last_name AS driver_name, c.first_name || ' ' || c.last_name AS co_driver_name, v.unit_number, s.alerts, s.monitoring, s.hos
       FROM unnest($1::text[], $2::text[]) AS k (tenant_id, route_id)
       JOIN route_plans r ON r.tenant_id = k.tenant_id AND r.id = k.route_id
       JOIN drivers d ON d.tenant_id = r.tenant_id AND d.id = r.driver_id
       LEFT JOIN drivers c ON c.tenant_id = r.tenant_id AND c.id = r.co_driver_id
       LEFT JOIN vehicles v ON v.tenant_id = r.tenant_id AND v.id = r.vehicle_id
       LEFT JOIN tenant_settings s ON s.tenant_id = r.tenant_id`,
    [keys.map((k) => k.tenantId), keys.map((k) => k.routeId)],
  );
  return rows.map((r) => {
    const hos = json<({ ruleSet?: RuleSetId; homeTerminalTimeZone?: string | null; periodStartTime?: string } & RuleSetOptions) | null>(r.hos) ?? {};
    const { ruleSet, homeTerminalTimeZone: _zone, periodStartTime: _start, ...options } = hos;
    return {
      tenantId: r.tenant_id as string,
      routeId: r.id as string,
      status: r.status as string,
      driverId: r.driver_id as string,
      driverName: r.driver_name as string,
      coDriverId: (r.co_driver_id as string | null) ?? null,
      coDriverName: (r.co_driver_name as string | null) ?? null,
      vehicleId: (r.vehicle_id as string | null) ?? null,
      vehicleUnit: (r.unit_number as string | null) ?? null,
      activatedAt: r.activated_at ? ms(r.activated_at) : ms(r.departure_time),
      departureTime: ms(r.departure_time),
      arrivalTime: ms(r.arrival_time),
      segments: json<Segment[]>(r.segments),
      stops: json<StopEta[]>(r.stops),
      alerts: { ...defaultAlertSettings(), ...json<Partial<AlertSettings> | null>(r.alerts) },
      monitoring: { ...defaultMonitoringSettings(defaultIntervalSeconds), ...json<Partial<MonitoringSettings> | null>(r.monitoring) },
      rules: { id: ruleSet ?? 'US_PROPERTY_70_8', options },
    };
  });
}

/** Each route's recent positions (at most `perRoute`, within `windowMs`), oldest first. */
export async function loadPositions(tx: Tx, keys: RouteKey[], now: Date, windowMs: number, perRoute: number): Promise<Map<string, PositionReport[]>> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT k.route_id, p.recorded_at, p.latitude, p.longitude, p.speed_mph, p.fuel_level_percent
       FROM unnest($1::text[], $2::text[]) AS k (tenant_id, route_id)
       CROSS JOIN LATERAL (
         SELECT recorded_at, latitude, longitude, speed_mph, fuel_level_percent FROM route_positions p
          WHERE p.tenant_id = k.tenant_id AND p.route_id = k.route_id AND p.recorded_at > $3 AND p.recorded_at <= $4
          ORDER BY p.recorded_at DESC LIMIT $5) p`,
    [keys.map((k) => k.tenantId), keys.map((k) => k.routeId), new Date(now.getTime() - windowMs), now, perRoute],
  );
  const out = new Map<string, PositionReport[]>();
  for (const r of rows) {
    const list = out.get(r.route_id as string) ?? [];
    list.push({
      at: ms(r.recorded_at),
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
      speedMph: r.speed_mph === null ? null : Number(r.speed_mph),
      fuelLevelPercent: r.fuel_level_percent === null ? null : Number(r.fuel_level_percent),
    });
    out.set(r.route_id as string, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.at - b.at);
  return out;
}

/**
 * Each driver's duty timeline up to `now` over `historyMs` (the event in force at its start included),
 * keyed by `${tenantId}|${driverId}`; before the first logged status a driver is off duty.
 */
export async function loadTimelines(tx: Tx, drivers: { tenantId: string; driverId: string }[], now: number, historyMs: number): Promise<Map<string, DutyPeriod[]>> {
  const since = now - historyMs;
  const { rows } = await tx.query<{ tenant_id: string; driver_id: string; status: DutyPeriod['status']; started_at: Date | string }>(
    `SELECT e.tenant_id, e.driver_id, e.status, e.started_at
       FROM unnest($1::text[], $2::text[]) AS k (tenant_id, driver_id)
       CROSS JOIN LATERAL (
         (SELECT tenant_id, driver_id, status, started_at, created_at FROM duty_status_events
           WHERE tenant_id = k.tenant_id AND driver_id = k.driver_id AND record_status = 'ACTIVE' AND started_at < $3 ORDER BY started_at DESC, created_at DESC LIMIT 1)
         UNION ALL
         (SELECT tenant_id, driver_id, status, started_at, created_at FROM duty_status_events
           WHERE tenant_id = k.tenant_id AND driver_id = k.driver_id AND record_status = 'ACTIVE' AND started_at >= $3 AND started_at <= $4)
       ) e
      ORDER BY e.tenant_id, e.driver_id, e.started_at, e.created_at`,
    [drivers.map((d) => d.tenantId), drivers.map((d) => d.driverId), new Date(since), new Date(now)],
  );
  const events = new Map<string, { status: DutyPeriod['status']; at: number }[]>();
  for (const r of rows) {
    const key = `${r.tenant_id}|${r.driver_id}`;
    const list = events.get(key) ?? [];
    list.push({ status: r.status, at: ms(r.started_at) });
    events.set(key, list);
  }
  const out = new Map<string, DutyPeriod[]>();
  for (const d of drivers) {
    const key = `${d.tenantId}|${d.driverId}`;
    out.set(key, timelineFromLog(events.get(key) ?? [], since, now));
  }
  return out;
}

/** Long enough for every cycle (Canada cycle 2: 14 days) and a restart before it (as the HOS endpoint). */
export const HOS_HISTORY_MS = 16 * 24 * HOUR_MS;
