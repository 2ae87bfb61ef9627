/**
 * Where a driver was last known to be, from everything that says so: the newest position of any route
 * they drove (or co-drove), a location reported for them without a route (POST …/drivers/{id}/location),
 * a duty-status event with coordinates (from the API or an ELD's log), and where their last completed
 * route ended. The newest wins. Dispatch candidates start an idle driver there (else at their home
 * terminal); the driver record shows it as lastKnownLocation.
 */
import type { Tx } from '../../db/types.js';

export type KnownLocationSource = 'POSITION' | 'LOCATION_REPORT' | 'DUTY_STATUS' | 'LAST_ROUTE';

export interface KnownLocation {
  latitude: number;
  longitude: number;
  /** When it was recorded (ms). */
  at: number;
  source: KnownLocationSource;
  /** The route it belongs to (POSITION, LAST_ROUTE). */
  routeId: string | null;
  /** A name the source gives it (LAST_ROUTE: the route's last stop); null otherwise. */
  name: string | null;
}

/**
 * The two routes a driver (as driver_id or co_driver_id) was most recently on the road with: positions are
 * reported to ACTIVE routes only and a driver has one ACTIVE route at a time, so the newest position is on
 * the last route activated, or on the one before when the last has none yet. By an index
 * (migration 013), however many routes the driver has had.
 */
const activatedRoutes = (role: 'driver_id' | 'co_driver_id') => /* sql */ `(SELECT r.tenant_id, r.id, r.activated_at FROM route_plans r
      WHERE r.tenant_id = d.tenant_id AND r.${role} = d.id AND r.activated_at IS NOT NULL ORDER BY r.activated_at DESC LIMIT 2)`;

/** The route a driver (in either role) completed last, with its last stop. By an index (migration 013). */
const completedRoute = (role: 'driver_id' | 'co_driver_id') => /* sql */ `(SELECT r.id, r.completed_at, r.stops->-1 AS stop FROM route_plans r
      WHERE r.tenant_id = d.tenant_id AND r.${role} = d.id AND r.status = 'COMPLETED' ORDER BY r.completed_at DESC LIMIT 1)`;

/**
 * The columns, for a `drivers` row aliased `d`, that hold each source's newest location (json or null):
 * read them with knownLocationOf. One statement serves any number of drivers.
 */
export const KNOWN_LOCATION_COLUMNS = /* sql */ `
  (SELECT json_build_object('route_id', p.route_id, 'latitude', p.latitude, 'longitude', p.longitude, 'recorded_at', p.recorded_at)
     FROM (SELECT u.tenant_id, u.id FROM (${activatedRoutes('driver_id')} UNION ALL ${activatedRoutes('co_driver_id')}) u
            ORDER BY u.activated_at DESC LIMIT 2) r
     CROSS JOIN LATERAL (
            SELECT route_id, latitude, longitude, recorded_at FROM route_positions p
             WHERE p.tenant_id = r.tenant_id AND p.route_id = r.id ORDER BY p.recorded_at DESC LIMIT 1) p
    ORDER BY p.recorded_at DESC LIMIT 1) AS known_position,
  (SELECT json_build_object('latitude', l.latitude, 'longitude', l.longitude, 'recorded_at', l.recorded_at)
     FROM driver_locations l WHERE l.tenant_id = d.tenant_id AND l.driver_id = d.id) AS known_report,
  (SELECT json_build_object('latitude', e.latitude, 'longitude', e.longitude, 'recorded_at', e.started_at)
     FROM duty_status_events e WHERE e.tenant_id = d.tenant_id AND e.driver_id = d.id AND e.latitude IS NOT NULL AND e.record_status = 'ACTIVE'
    ORDER BY e.started_at DESC LIMIT 1) AS known_duty,
  (SELECT json_build_object('route_id', u.id, 'recorded_at', u.completed_at, 'stop', u.stop)
     FROM (${completedRoute('driver_id')} UNION ALL ${completedRoute('co_driver_id')}) u
    ORDER BY u.completed_at DESC LIMIT 1) AS known_last_route`;

type Json = Record<string, unknown> | string | null | undefined;
const parse = (v: Json): Record<string, unknown> | null => (v === null || v === undefined ? null : typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : v);

/**
 * The newest of a row's KNOWN_LOCATION_COLUMNS. A sighting (a route position, a report, a duty-status
 * change with coordinates) is where the driver was; the end of their last completed route is where they
 * should have been when it ended: it wins only when it is newer than every sighting, and never over a
 * position of that same route (its own last sighting). On a tie between sightings, the order above wins.
 */
export function knownLocationOf(row: Record<string, unknown>): KnownLocation | null {
  const read = (v: Json, source: KnownLocationSource): KnownLocation | null => {
    const o = parse(v);
    if (!o) return null;
    const stop = o.stop as { name: string; latitude: number; longitude: number } | undefined;
    const latitude = Number(stop ? stop.latitude : o.latitude);
    const longitude = Number(stop ? stop.longitude : o.longitude);
    const at = new Date(o.recorded_at as string).getTime();
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Number.isNaN(at)) return null;
    return { latitude, longitude, at, source, routeId: (o.route_id as string | undefined) ?? null, name: stop?.name ?? null };
  };
  let sighting: KnownLocation | null = null;
  for (const s of [read(row.known_position as Json, 'POSITION'), read(row.known_report as Json, 'LOCATION_REPORT'), read(row.known_duty as Json, 'DUTY_STATUS')]) {
    if (s && (!sighting || s.at > sighting.at)) sighting = s;
  }
  const lastRoute = read(row.known_last_route as Json, 'LAST_ROUTE');
  if (!lastRoute) return sighting;
  if (!sighting) return lastRoute;
  const ownLastSighting = sighting.source === 'POSITION' && sighting.routeId === lastRoute.routeId;
  return lastRoute.at > sighting.at && !ownLastSighting ? lastRoute : sighting;
}

/** One driver's last known location. */
export async function findKnownLocation(tx: Tx, tenantId: string, driverId: string): Promise<KnownLocation | null> {
  const { rows } = await tx.query(`SELECT ${KNOWN_LOCATION_COLUMNS} FROM drivers d WHERE d.tenant_id = $1 AND d.id = $2`, [tenantId, driverId]);
  return rows[0] ? knownLocationOf(rows[0]) : null;
}

/**
 * Records a location reported for a driver: it replaces the one kept only when it is newer (a report
 * that arrives late never moves the driver back in time). Answers whether it replaced it.
 */
export async function reportLocation(
  tx: Tx,
  tenantId: string,
  r: { driverId: string; latitude: number; longitude: number; recordedAt: Date; source: string; reportedBy: string },
  now: Date,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO driver_locations (tenant_id, driver_id, latitude, longitude, recorded_at, source, reported_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (tenant_id, driver_id) DO UPDATE
        SET latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, recorded_at = EXCLUDED.recorded_at,
            source = EXCLUDED.source, reported_by = EXCLUDED.reported_by, updated_at = EXCLUDED.updated_at
      WHERE driver_locations.recorded_at < EXCLUDED.recorded_at`,
    [tenantId, r.driverId, r.latitude, r.longitude, r.recordedAt, r.source, r.reportedBy, now],
  );
  return rowCount > 0;
}
