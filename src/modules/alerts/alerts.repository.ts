import { emitEvent, emitEvents } from '../../db/outbox.js';
import type { Tx } from '../../db/types.js';
import { ALERT_TYPES, type AlertCondition, type AlertPriority, type AlertStatus, type AlertType, type OpenAlert } from '../../domain/alerts/types.js';
import { newId } from '../../lib/ids.js';
import { iso, isoOrNull } from '../../lib/rows.js';

/** An alert as the API, SSE, Socket.IO and webhooks show it (the spec's alert object plus the state fields). */
export interface AlertRecord {
  id: string;
  type: AlertType;
  category: string;
  priority: AlertPriority;
  status: AlertStatus;
  title: string;
  message: string;
  driverId: string | null;
  driverName: string | null;
  vehicleId: string | null;
  vehicleUnit: string | null;
  routePlanId: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  snoozedBy: string | null;
  snoozedUntil: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  resolution: string | null;
}

/** The columns of an alert with its driver's name and vehicle's unit (for ALERT_FROM). */
export const ALERT_COLUMNS = `a.*, d.first_name || ' ' || d.last_name AS driver_name, v.unit_number AS vehicle_unit`;
/** Alerts as `a` with their driver `d` and vehicle `v`. */
export const ALERT_FROM = `alerts a
  LEFT JOIN drivers d ON d.tenant_id = a.tenant_id AND d.id = a.driver_id
  LEFT JOIN vehicles v ON v.tenant_id = a.tenant_id AND v.id = a.vehicle_id`;
/** The columns of an alert with its driver's name and vehicle's unit, for `FROM alerts a`. */
export const ALERT_SELECT = `${ALERT_COLUMNS}
  FROM ${ALERT_FROM}`;

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export function toAlert(r: Record<string, unknown>): AlertRecord {
  return {
    id: r.id as string,
    type: r.type as AlertType,
    category: r.category as string,
    priority: r.priority as AlertPriority,
    status: r.status as AlertStatus,
    title: r.title as string,
    message: r.message as string,
    driverId: (r.driver_id as string | null) ?? null,
    driverName: (r.driver_name as string | null) ?? null,
    vehicleId: (r.vehicle_id as string | null) ?? null,
    vehicleUnit: (r.vehicle_unit as string | null) ?? null,
    routePlanId: (r.route_id as string | null) ?? null,
    metadata: json<Record<string, unknown>>(r.metadata) ?? {},
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    acknowledgedBy: (r.acknowledged_by as string | null) ?? null,
    acknowledgedAt: isoOrNull(r.acknowledged_at),
    snoozedBy: (r.snoozed_by as string | null) ?? null,
    snoozedUntil: isoOrNull(r.snoozed_until),
    resolvedBy: (r.resolved_by as string | null) ?? null,
    resolvedAt: isoOrNull(r.resolved_at),
    resolution: (r.resolution as string | null) ?? null,
  };
}

export async function findAlert(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<AlertRecord | null> {
  const { rows } = await tx.query(`SELECT ${ALERT_SELECT} WHERE a.tenant_id = $1 AND a.id = $2${forUpdate ? ' FOR UPDATE OF a' : ''}`, [tenantId, id]);
  return rows[0] ? toAlert(rows[0]) : null;
}

/**
 * The unresolved alerts of these routes, as the alert rules see them, keyed by route id; locked until
 * the transaction ends so that a concurrent acknowledgement waits for the check to finish.
 */
export async function openAlertsOfRoutes(tx: Tx, routes: { tenantId: string; routeId: string }[]): Promise<Map<string, OpenAlert[]>> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT a.route_id, a.id, a.type, a.status, a.priority, a.created_at, a.snoozed_until, a.metadata, a.driver_id
       FROM alerts a JOIN unnest($1::text[], $2::text[]) AS k (tenant_id, route_id) ON a.tenant_id = k.tenant_id AND a.route_id = k.route_id
      WHERE a.status <> 'RESOLVED' FOR UPDATE OF a`,
    [routes.map((r) => r.tenantId), routes.map((r) => r.routeId)],
  );
  const out = new Map<string, OpenAlert[]>();
  for (const r of rows) {
    const list = out.get(r.route_id as string) ?? [];
    list.push(toOpenAlert(r));
    out.set(r.route_id as string, list);
  }
  return out;
}

function toOpenAlert(r: Record<string, unknown>): OpenAlert {
  return {
    id: r.id as string,
    type: r.type as AlertType,
    status: r.status as OpenAlert['status'],
    priority: r.priority as AlertPriority,
    createdAt: new Date(r.created_at as string | Date).getTime(),
    snoozedUntil: r.snoozed_until ? new Date(r.snoozed_until as string | Date).getTime() : null,
    metadata: json<Record<string, unknown>>(r.metadata) ?? {},
    ...(r.driver_id !== undefined ? { driverId: (r.driver_id as string | null) ?? null } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Changes, each with its outbox event in the same transaction (webhooks, SSE and Socket.IO follow).

/** The spec's alert object (SSE `alert`, Socket.IO `alert:new`, webhook `alert.created`). */
export function alertObject(a: AlertRecord): Record<string, unknown> {
  return {
    id: a.id,
    type: a.type,
    category: a.category,
    priority: a.priority,
    status: a.status,
    title: a.title,
    message: a.message,
    driverId: a.driverId,
    driverName: a.driverName,
    vehicleId: a.vehicleId,
    vehicleUnit: a.vehicleUnit,
    routePlanId: a.routePlanId,
    metadata: a.metadata,
    createdAt: a.createdAt,
  };
}

/** `alert_updated` / `alert:updated` / `alert.updated`: id, new status, the actor and what changed. */
export function alertUpdate(a: AlertRecord, actor: string, change: string): Record<string, unknown> {
  return {
    id: a.id,
    type: a.type,
    status: a.status,
    priority: a.priority,
    title: a.title,
    message: a.message,
    metadata: a.metadata,
    driverId: a.driverId,
    routePlanId: a.routePlanId,
    change,
    updatedBy: actor,
    updatedAt: a.updatedAt,
    acknowledgedBy: a.acknowledgedBy,
    acknowledgedAt: a.acknowledgedAt,
    snoozedBy: a.snoozedBy,
    snoozedUntil: a.snoozedUntil,
  };
}

/** `alert_resolved` / `alert:resolved` / `alert.resolved`: id and the resolution. */
export function alertResolution(a: AlertRecord): Record<string, unknown> {
  return {
    id: a.id,
    type: a.type,
    status: a.status,
    driverId: a.driverId,
    routePlanId: a.routePlanId,
    resolvedBy: a.resolvedBy,
    resolvedAt: a.resolvedAt,
    resolution: a.resolution,
  };
}

export interface NewAlert {
  condition: AlertCondition;
  driverId: string | null;
  routeId: string | null;
  vehicleId: string | null;
}

export async function raiseAlert(tx: Tx, tenantId: string, n: NewAlert, now: Date): Promise<AlertRecord> {
  const id = newId('alert');
  const c = n.condition;
  await tx.query(
    `INSERT INTO alerts (tenant_id, id, type, category, priority, status, title, message, driver_id, route_id, vehicle_id, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, $7, $8, $9, $10, $11, $12, $12)`,
    [tenantId, id, c.type, ALERT_TYPES[c.type].category, c.priority, c.title, c.message, n.driverId, n.routeId, n.vehicleId, JSON.stringify(c.metadata), now],
  );
  const alert = (await findAlert(tx, tenantId, id))!;
  await emitEvent(tx, tenantId, 'alert.created', alertObject(alert), now);
  return alert;
}

/** A new alert whose driver's name and vehicle's unit the caller knows (monitoring's batch raise). */
export interface NewAlertNamed extends NewAlert {
  tenantId: string;
  driverName: string | null;
  vehicleUnit: string | null;
}

/**
 * Raises many alerts in two statements (the alerts, then their alert.created events in order): a
 * monitoring pass that finds a thousand new conditions costs what it costs to find one.
 */
export async function raiseAlerts(tx: Tx, list: NewAlertNamed[], now: Date): Promise<AlertRecord[]> {
  if (list.length === 0) return [];
  const at = now.toISOString();
  const records: AlertRecord[] = list.map((n) => ({
    id: newId('alert'),
    type: n.condition.type,
    category: ALERT_TYPES[n.condition.type].category,
    priority: n.condition.priority,
    status: 'ACTIVE',
    title: n.condition.title,
    message: n.condition.message,
    driverId: n.driverId,
    driverName: n.driverName,
    vehicleId: n.vehicleId,
    vehicleUnit: n.vehicleUnit,
    routePlanId: n.routeId,
    // As stored and read back (jsonb drops undefined members).
    metadata: JSON.parse(JSON.stringify(n.condition.metadata)) as Record<string, unknown>,
    createdAt: at,
    updatedAt: at,
    acknowledgedBy: null,
    acknowledgedAt: null,
    snoozedBy: null,
    snoozedUntil: null,
    resolvedBy: null,
    resolvedAt: null,
    resolution: null,
  }));
  await tx.query(
    `INSERT INTO alerts (tenant_id, id, type, category, priority, status, title, message, driver_id, route_id, vehicle_id, metadata, created_at, updated_at)
     SELECT a.tenant_id, a.id, a.type, a.category, a.priority, 'ACTIVE', a.title, a.message, a.driver_id, a.route_id, a.vehicle_id, a.metadata::jsonb, $12, $12
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS a (tenant_id, id, type, category, priority, title, message, driver_id, route_id, vehicle_id, metadata)`,
    [
      list.map((n) => n.tenantId),
      records.map((r) => r.id),
      records.map((r) => r.type),
      records.map((r) => r.category),
      records.map((r) => r.priority),
      records.map((r) => r.title),
      records.map((r) => r.message),
      records.map((r) => r.driverId),
      records.map((r) => r.routePlanId),
      records.map((r) => r.vehicleId),
      list.map((n) => JSON.stringify(n.condition.metadata)),
      now,
    ],
  );
  await emitEvents(tx, records.map((r, i) => ({ tenantId: list[i]!.tenantId, eventType: 'alert.created', payload: alertObject(r) })), now);
  return records;
}

/** Monitoring found the condition changed (an escalation, or new facts): the alert follows. */
export async function reviseAlert(tx: Tx, tenantId: string, id: string, c: AlertCondition, change: string, now: Date): Promise<AlertRecord> {
  await tx.query(
    `UPDATE alerts SET priority = $3, title = $4, message = $5, metadata = $6, updated_at = $7 WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id, c.priority, c.title, c.message, JSON.stringify(c.metadata), now],
  );
  const alert = (await findAlert(tx, tenantId, id))!;
  await emitEvent(tx, tenantId, 'alert.updated', alertUpdate(alert, 'system', change), now);
  return alert;
}

export async function resolveAlert(tx: Tx, tenantId: string, id: string, by: string, resolution: string | null, now: Date): Promise<AlertRecord> {
  await tx.query(
    `UPDATE alerts SET status = 'RESOLVED', resolved_by = $3, resolved_at = $4, resolution = $5, snoozed_until = NULL, updated_at = $4
      WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id, by, now, resolution],
  );
  const alert = (await findAlert(tx, tenantId, id))!;
  await emitEvent(tx, tenantId, 'alert.resolved', alertResolution(alert), now);
  return alert;
}

/** A snoozed alert whose time is up is ACTIVE again (an update event). */
export async function resurfaceAlert(tx: Tx, tenantId: string, id: string, now: Date): Promise<AlertRecord> {
  await tx.query(`UPDATE alerts SET status = 'ACTIVE', snoozed_until = NULL, updated_at = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, id, now]);
  const alert = (await findAlert(tx, tenantId, id))!;
  await emitEvent(tx, tenantId, 'alert.updated', alertUpdate(alert, 'system', 'resurfaced'), now);
  return alert;
}
