/**
 * Monitoring's integration signals from what the integrations stored (issue 9): an ELD's clocks per
 * driver (driver_eld_clocks) and fault codes per vehicle (vehicle_telemetry), weather hazards and a
 * weather delay per route, and a visibility provider's predicted arrivals (route_signals). Read for a
 * whole batch of routes in four statements.
 *
 * "No source" (null) stays distinct from "nothing reported": weather is null unless the tenant has a
 * weather integration, faults null unless it has an ELD integration. An integration's failure is its
 * own tenant-wide alert (raised by the sync worker), so no per-route failures are fed here.
 */
import type { Database, Tx } from '../../db/types.js';
import type { EtaPrediction, FaultCode, WeatherHazard } from '../../domain/alerts/types.js';
import { nearestPointOnPath, type LatLng } from '../../domain/geo/index.js';
import { ELD_CLOCKS_MAX_AGE_MS } from '../../domain/hos/eld-clocks.js';
import { toEldClocks } from '../hos/eld-clocks.repository.js';
import { NO_SIGNALS, type MonitoredRoute, type MonitoringSources, type RouteSignals } from './monitoring.sources.js';

/** A hazard farther than this from the path ahead is not in the truck's path. */
export const HAZARD_PATH_RADIUS_MILES = 25;
/** Integrations in these statuses count as a configured source (a failing one still is one). */
const LIVE = `('ACTIVE','SYNCING','TESTING','ERROR')`;

/** What a weather integration stores per route (route_signals kind WEATHER). */
export interface WeatherSignalData {
  hazards: { severity: WeatherHazard['severity']; event: string; headline: string; startsAt: string; endsAt: string | null; latitude: number; longitude: number }[];
  delayHours: number | null;
}

/** What a visibility integration stores per route (route_signals kind ETA). */
export interface EtaSignalData {
  predictions: { stopIndex: number; predictedArrival: string; at: string }[];
  exceptions?: string[];
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const ms = (v: unknown) => new Date(v as string | Date).getTime();

/**
 * Miles along the path ahead (from the vehicle) to the point of the path nearest the hazard; -1 when
 * the hazard lies more than HAZARD_PATH_RADIUS_MILES from it (not in the path).
 */
export function milesAheadOnPath(route: Pick<MonitoredRoute, 'position' | 'pathAhead'>, hazard: LatLng): number {
  const path = [...(route.position ? [route.position] : []), ...route.pathAhead];
  if (path.length === 0) return -1;
  const nearest = nearestPointOnPath(path, hazard);
  return nearest.distanceMiles <= HAZARD_PATH_RADIUS_MILES ? nearest.milesAlong : -1;
}

/**
 * One hazard per weather event: a storm reported at several sampled points of the path counts once, at
 * its nearest point ahead (or, when none is ahead, the one found first).
 */
export function nearestOfEach(hazards: WeatherHazard[]): WeatherHazard[] {
  const best = new Map<string, WeatherHazard>();
  for (const h of hazards) {
    const key = `${h.source}|${h.event}|${h.headline}|${h.startsAt}|${h.endsAt ?? ''}`;
    const seen = best.get(key);
    const better = seen === undefined || (h.milesAhead >= 0 && (seen.milesAhead < 0 || h.milesAhead < seen.milesAhead));
    if (better) best.set(key, h);
  }
  return [...best.values()];
}

async function loadSignals(tx: Tx, routes: MonitoredRoute[], now: Date) {
  const tenants = [...new Set(routes.map((r) => r.tenantId))];
  const sources = await tx.query<{ tenant_id: string; category: string }>(
    `SELECT DISTINCT tenant_id, category FROM integrations WHERE tenant_id = ANY($1::text[]) AND category IN ('ELD','WEATHER') AND status IN ${LIVE}`,
    [tenants],
  );
  const clocks = await tx.query<Record<string, unknown>>(
    `SELECT c.* FROM unnest($1::text[], $2::text[]) AS k (tenant_id, driver_id)
       JOIN driver_eld_clocks c ON c.tenant_id = k.tenant_id AND c.driver_id = k.driver_id
      WHERE c.synced_at > $3`,
    [
      [...routes.map((r) => r.tenantId), ...routes.filter((r) => r.coDriverId).map((r) => r.tenantId)],
      [...routes.map((r) => r.driverId), ...routes.filter((r) => r.coDriverId).map((r) => r.coDriverId!)],
      new Date(now.getTime() - ELD_CLOCKS_MAX_AGE_MS),
    ],
  );
  const withVehicle = routes.filter((r) => r.vehicleId !== null);
  const telemetry = await tx.query<{ tenant_id: string; vehicle_id: string; faults: unknown }>(
    `SELECT t.tenant_id, t.vehicle_id, t.faults FROM unnest($1::text[], $2::text[]) AS k (tenant_id, vehicle_id)
       JOIN vehicle_telemetry t ON t.tenant_id = k.tenant_id AND t.vehicle_id = k.vehicle_id`,
    [withVehicle.map((r) => r.tenantId), withVehicle.map((r) => r.vehicleId)],
  );
  const signals = await tx.query<{ tenant_id: string; route_id: string; kind: 'WEATHER' | 'ETA'; source: string; data: unknown }>(
    `SELECT s.tenant_id, s.route_id, s.kind, s.source, s.data FROM unnest($1::text[], $2::text[]) AS k (tenant_id, route_id)
       JOIN route_signals s ON s.tenant_id = k.tenant_id AND s.route_id = k.route_id
      ORDER BY s.integration_id`,
    [routes.map((r) => r.tenantId), routes.map((r) => r.routeId)],
  );
  return { sources: sources.rows, clocks: clocks.rows, telemetry: telemetry.rows, signals: signals.rows };
}

export function dbMonitoringSources(db: Database): MonitoringSources {
  return {
    async signals(routes, now) {
      const out = new Map<string, RouteSignals>();
      if (routes.length === 0) return out;
      const data = await db.system((tx) => loadSignals(tx, routes, now));
      const has = new Set(data.sources.map((s) => `${s.tenant_id}|${s.category}`));
      const clocks = new Map(data.clocks.map((c) => [`${c.tenant_id as string}|${c.driver_id as string}`, c]));
      const faults = new Map(data.telemetry.map((t) => [`${t.tenant_id}|${t.vehicle_id}`, json<{ code: string; description: string; severity: FaultCode['severity']; active: boolean; since: string }[]>(t.faults)]));
      const byRoute = new Map<string, typeof data.signals>();
      for (const s of data.signals) byRoute.set(`${s.tenant_id}|${s.route_id}`, [...(byRoute.get(`${s.tenant_id}|${s.route_id}`) ?? []), s]);

      for (const route of routes) {
        const key = `${route.tenantId}|${route.routeId}`;
        const signal: RouteSignals = { ...NO_SIGNALS, etaPredictions: [] };
        const c = clocks.get(`${route.tenantId}|${route.driverId}`);
        if (c) signal.eldClocks = toEldClocks(c);
        const co = route.coDriverId ? clocks.get(`${route.tenantId}|${route.coDriverId}`) : undefined;
        if (co) signal.coDriverEldClocks = toEldClocks(co);
        if (has.has(`${route.tenantId}|ELD`) && route.vehicleId !== null) {
          signal.faults = (faults.get(`${route.tenantId}|${route.vehicleId}`) ?? []).map((f) => ({ code: f.code, description: f.description, severity: f.severity, active: f.active, at: ms(f.since) }));
        }
        if (has.has(`${route.tenantId}|WEATHER`)) {
          signal.weather = [];
          for (const s of byRoute.get(key) ?? []) {
            if (s.kind !== 'WEATHER') continue;
            const w = json<WeatherSignalData>(s.data);
            for (const h of w.hazards) {
              signal.weather.push({
                severity: h.severity,
                event: h.event,
                headline: h.headline,
                startsAt: ms(h.startsAt),
                endsAt: h.endsAt === null ? null : ms(h.endsAt),
                latitude: h.latitude,
                longitude: h.longitude,
                milesAhead: milesAheadOnPath(route, h),
                source: s.source,
              });
            }
            if (w.delayHours !== null) signal.weatherDelayHours = Math.max(signal.weatherDelayHours ?? 0, w.delayHours);
          }
          signal.weather = nearestOfEach(signal.weather);
        }
        for (const s of byRoute.get(key) ?? []) {
          if (s.kind !== 'ETA') continue;
          for (const p of json<EtaSignalData>(s.data).predictions) {
            signal.etaPredictions.push({ stopIndex: p.stopIndex, predictedArrival: ms(p.predictedArrival), source: s.source, at: ms(p.at) } satisfies EtaPrediction);
          }
        }
        out.set(route.routeId, signal);
      }
      return out;
    },
  };
}
