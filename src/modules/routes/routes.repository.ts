import { selectPage } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import type { Statement } from '../../db/outbox.js';
import { iso, isoOrNull } from '../../lib/rows.js';
import type { PlanResult } from '../../domain/planning/types.js';
import { RouteSummary } from './routes.schemas.js';
import { toPosition, type PositionRecord } from './routes.related.js';

export type RouteStatus = 'PLANNED' | 'ACTIVE' | 'COMPLETED' | 'CANCELLED';

export interface RouteRecord {
  id: string;
  status: RouteStatus;
  driverId: string;
  /** Team driving: the second driver in the truck (null: one driver). */
  coDriverId: string | null;
  vehicleId: string | null;
  loadId: string | null;
  departureTime: string;
  arrivalTime: string;
  distanceMethod: string;
  /** The planner's summary and the distance method the plan used (also at the top level). */
  summary: PlanResult['summary'] & { distanceMethod: string };
  stops: PlanResult['stops'];
  segments: PlanResult['segments'];
  warnings: string[];
  createdAt: string;
  updatedAt: string;
  activatedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  /** The plan's revision: 1 as planned, +1 at every re-plan. */
  revision: number;
  /** When and by whom the current revision was made, and why (null for revision 1). */
  revisedAt: string | null;
  revisedBy: string | null;
  revisionReason: string | null;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export function toRoute(r: Record<string, unknown>): RouteRecord {
  const request = json<{ warnings?: string[] }>(r.request);
  return {
    id: r.id as string,
    status: r.status as RouteStatus,
    driverId: r.driver_id as string,
    coDriverId: (r.co_driver_id as string | null) ?? null,
    vehicleId: (r.vehicle_id as string | null) ?? null,
    loadId: (r.load_id as string | null) ?? null,
    departureTime: iso(r.departure_time),
    arrivalTime: iso(r.arrival_time),
    distanceMethod: r.distance_method as string,
    // Plans stored before the summary carried its distance method get it from the column.
    summary: { ...json<PlanResult['summary']>(r.summary), distanceMethod: r.distance_method as string },
    stops: r.stops === undefined ? [] : json(r.stops),
    segments: r.segments === undefined ? [] : json(r.segments),
    warnings: request?.warnings ?? [],
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    activatedAt: isoOrNull(r.activated_at),
    completedAt: isoOrNull(r.completed_at),
    cancelledAt: isoOrNull(r.cancelled_at),
    cancelReason: (r.cancel_reason as string | null) ?? null,
    revision: r.revision === undefined ? 1 : Number(r.revision),
    revisedAt: isoOrNull(r.revised_at),
    revisedBy: (r.revised_by as string | null) ?? null,
    revisionReason: (r.revision_reason as string | null) ?? null,
  };
}

export interface NewRoute {
  id: string;
  driverId: string;
  coDriverId: string | null;
  vehicleId: string | null;
  loadId: string | null;
  distanceMethod: string;
  request: Record<string, unknown>;
  plan: PlanResult;
  createdBy: string;
}

/**
 * The INSERT of a new PLANNED route, and the record it writes; the caller runs it (saveRoute: with its
 * event, in one statement).
 */
/** RouteSummary's properties in the order its serializer writes them: the required ones, then the optional ones. */
const SUMMARY_KEYS = [...RouteSummary.required, ...Object.keys(RouteSummary.properties).filter((k) => !(RouteSummary.required as string[]).includes(k))];

export function routeInsert(tenantId: string, r: NewRoute, now: Date): { statement: Statement; record: RouteRecord; json: string } {
  const summary = { ...r.plan.summary, distanceMethod: r.distanceMethod };
  // Stringified once: for the columns, and again inside the answer (json below).
  const summaryJson = JSON.stringify(summary);
  const stopsJson = JSON.stringify(r.plan.stops);
  const segmentsJson = JSON.stringify(r.plan.segments);
  const statement: Statement = {
    sql: `INSERT INTO route_plans (tenant_id, id, driver_id, vehicle_id, load_id, status, departure_time, arrival_time, distance_method,
                              request, summary, stops, segments, created_by, created_at, updated_at, co_driver_id)
     VALUES ($1, $2, $3, $4, $5, 'PLANNED', $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15)`,
    prepare: 'route_insert',
    params: [
      tenantId,
      r.id,
      r.driverId,
      r.vehicleId,
      r.loadId,
      r.plan.departureTime,
      r.plan.arrivalTime,
      r.distanceMethod,
      JSON.stringify({ ...r.request, warnings: r.plan.warnings }),
      summaryJson,
      stopsJson,
      segmentsJson,
      r.createdBy,
      now,
      r.coDriverId,
    ],
  };
  // The record is what was just written: built from the plan in hand rather than read back (RETURNING *
  // would send the plan's JSON, ~12 KB, back over the wire to be parsed again). GET returns the same.
  const record: RouteRecord = {
    id: r.id,
    status: 'PLANNED',
    driverId: r.driverId,
    coDriverId: r.coDriverId,
    vehicleId: r.vehicleId,
    loadId: r.loadId,
    departureTime: iso(r.plan.departureTime),
    arrivalTime: iso(r.plan.arrivalTime),
    distanceMethod: r.distanceMethod,
    summary,
    stops: r.plan.stops,
    segments: r.plan.segments,
    warnings: r.plan.warnings,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    activatedAt: null,
    completedAt: null,
    cancelledAt: null,
    cancelReason: null,
    revision: 1,
    revisedAt: null,
    revisedBy: null,
    revisionReason: null,
  };
  // The API's answer (RoutePlan), built around the JSON just made for the columns rather than serialized
  // again from the same objects: the plan is most of the answer (~25 KB). The fields and values are those
  // RoutePlan's serializer writes (routes.test.ts compares every plan it makes with GET's answer); only
  // the order of keys inside an object can differ (a rest segment's restart comes before duty_status).
  const q = JSON.stringify;
  // The summary is small and assembled from two objects: in the schema's order, as the serializer writes it.
  const summaryInOrder = Object.fromEntries(SUMMARY_KEYS.filter((k) => k in summary).map((k) => [k, summary[k as keyof typeof summary]]));
  const json =
    `{"id":${q(record.id)},"status":"PLANNED","driverId":${q(record.driverId)},"coDriverId":${q(record.coDriverId)},"vehicleId":${q(record.vehicleId)},"loadId":${q(record.loadId)},` +
    `"departureTime":${q(record.departureTime)},"arrivalTime":${q(record.arrivalTime)},"distanceMethod":${q(record.distanceMethod)},` +
    `"summary":${q(summaryInOrder)},"stops":${stopsJson},"segments":${segmentsJson},"warnings":${q(record.warnings)},` +
    `"createdAt":${q(record.createdAt)},"updatedAt":${q(record.updatedAt)},"activatedAt":null,"completedAt":null,"cancelledAt":null,"cancelReason":null,` +
    `"revision":1,"revisedAt":null,"revisedBy":null,"revisionReason":null}`;
  return { statement, record, json };
}

export async function findRoute(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<RouteRecord | null> {
  const { rows } = await tx.query(`SELECT * FROM route_plans WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  return rows[0] ? toRoute(rows[0]) : null;
}

/** A route in a list: the record plus who drives it, in which truck, and where it was last reported. */
export interface RouteListRecord extends RouteRecord {
  driverName: string;
  /** Team routes: the co-driver's name (null: one driver). */
  coDriverName: string | null;
  vehicleUnit: string | null;
  lastPosition: PositionRecord | null;
  /** The first and the last stop: where the route goes, in words, and the zones of its departure and arrival. */
  origin: { name: string; timeZone: string | null };
  destination: { name: string; timeZone: string | null };
}

const POSITION_COLUMNS = ['id', 'route_id', 'latitude', 'longitude', 'recorded_at', 'speed_mph', 'heading_degrees', 'fuel_level_percent', 'source', 'created_at'];

export async function listRoutes(
  tx: Tx,
  tenantId: string,
  f: { status?: RouteStatus; driverId?: string; driverUserId?: string },
  page: number,
  pageSize: number,
): Promise<{ data: RouteListRecord[]; total: number }> {
  const where = ['r.tenant_id = $1'];
  const params: unknown[] = [tenantId];
  if (f.status) {
    params.push(f.status);
    where.push(`r.status = $${params.length}`);
  }
  if (f.driverId) {
    params.push(f.driverId);
    where.push(`(r.driver_id = $${params.length} OR r.co_driver_id = $${params.length})`);
  }
  if (f.driverUserId) {
    // A DRIVER user sees the routes they drive, as the driver or the co-driver.
    params.push(f.driverUserId);
    where.push(`(d.user_id = $${params.length} OR c.user_id = $${params.length})`);
  }
  const { rows, total } = await selectPage(
    tx,
    {
      select: `r.id, r.status, r.driver_id, r.co_driver_id, r.vehicle_id, r.load_id, r.departure_time, r.arrival_time, r.distance_method, r.summary, r.request,
               r.created_at, r.updated_at, r.activated_at, r.completed_at, r.cancelled_at, r.cancel_reason, r.revision,
               d.first_name AS driver_first_name, d.last_name AS driver_last_name, v.unit_number AS vehicle_unit,
               c.first_name AS co_driver_first_name, c.last_name AS co_driver_last_name,
               r.stops->0->>'name' AS origin_name, r.stops->0->>'timeZone' AS origin_zone,
               r.stops->-1->>'name' AS destination_name, r.stops->-1->>'timeZone' AS destination_zone,
               ${POSITION_COLUMNS.map((c) => `lp.${c} AS lp_${c}`).join(', ')}`,
      // The newest position per route, by the index on (tenant_id, route_id, recorded_at DESC).
      from: `route_plans r JOIN drivers d ON d.tenant_id = r.tenant_id AND d.id = r.driver_id
             LEFT JOIN vehicles v ON v.tenant_id = r.tenant_id AND v.id = r.vehicle_id
             LEFT JOIN drivers c ON c.tenant_id = r.tenant_id AND c.id = r.co_driver_id
             LEFT JOIN LATERAL (SELECT ${POSITION_COLUMNS.join(', ')} FROM route_positions p
                                 WHERE p.tenant_id = r.tenant_id AND p.route_id = r.id ORDER BY p.recorded_at DESC, p.id LIMIT 1) lp ON true`,
      where: where.join(' AND '),
      orderBy: 'r.created_at DESC, r.id',
    },
    params,
    page,
    pageSize,
  );
  return {
    data: rows.map((r) => ({
      ...toRoute(r),
      driverName: `${r.driver_first_name as string} ${r.driver_last_name as string}`,
      coDriverName: r.co_driver_first_name ? `${r.co_driver_first_name as string} ${r.co_driver_last_name as string}` : null,
      vehicleUnit: (r.vehicle_unit as string | null) ?? null,
      lastPosition: r.lp_id ? toPosition(Object.fromEntries(POSITION_COLUMNS.map((c) => [c, r[`lp_${c}`]]))) : null,
      origin: { name: r.origin_name as string, timeZone: (r.origin_zone as string | null) ?? null },
      destination: { name: r.destination_name as string, timeZone: (r.destination_zone as string | null) ?? null },
    })),
    total,
  };
}

export async function setRouteStatus(
  tx: Tx,
  tenantId: string,
  id: string,
  status: RouteStatus,
  now: Date,
  reason?: string,
): Promise<RouteRecord> {
  const stamp = { PLANNED: null, ACTIVE: 'activated_at', COMPLETED: 'completed_at', CANCELLED: 'cancelled_at' }[status];
  const { rows } = await tx.query(
    `UPDATE route_plans SET status = $3, updated_at = $4${stamp ? `, ${stamp} = $4` : ''}${status === 'CANCELLED' ? ', cancel_reason = $5' : ''}
      WHERE tenant_id = $1 AND id = $2 RETURNING *`,
    status === 'CANCELLED' ? [tenantId, id, status, now, reason ?? null] : [tenantId, id, status, now],
  );
  return toRoute(rows[0]!);
}
