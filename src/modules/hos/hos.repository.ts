import type { Tx } from '../../db/types.js';
import type { DutyStatus, RuleSet, RuleSetId, RuleSetOptions } from '../../domain/hos/types.js';
import { iso } from '../../lib/rows.js';
import type { RecordOrigin } from '../../domain/logs/daily-log.js';

export interface DutyEvent {
  id: string;
  driverId: string;
  status: DutyStatus;
  at: string;
  latitude: number | null;
  longitude: number | null;
  note: string | null;
  source: string;
  createdBy: string | null;
  /** The name of the user who made it (when read with it: the duty-status list). */
  createdByName?: string | null;
  createdAt: string;
  /** ELD specification §7.23: ACTIVE, or why it is not (changed, a change requested, a change rejected). */
  recordStatus: RecordStatus;
  /** §7.22: who made the record. */
  origin: RecordOrigin;
  sequence: number;
  /** The edit that made this record (a correction, or a request for one); null for a record made as it happened. */
  editId: string | null;
  annotation: string | null;
}

export type RecordStatus = 'ACTIVE' | 'INACTIVE_CHANGED' | 'INACTIVE_CHANGE_REQUESTED' | 'INACTIVE_CHANGE_REJECTED';

/** A duty_status_events row (or its JSON) as the API's DutyEvent. */
export function toEvent(r: Record<string, unknown>): DutyEvent {
  return {
    id: r.id as string,
    driverId: r.driver_id as string,
    status: r.status as DutyStatus,
    at: iso(r.started_at),
    latitude: (r.latitude as number | null) ?? null,
    longitude: (r.longitude as number | null) ?? null,
    note: (r.note as string | null) ?? null,
    source: r.source as string,
    createdBy: (r.created_by as string | null) ?? null,
    ...(r.created_by_name !== undefined ? { createdByName: (r.created_by_name as string | null) ?? null } : {}),
    createdAt: iso(r.created_at),
    recordStatus: r.record_status as RecordStatus,
    origin: r.origin as RecordOrigin,
    sequence: Number(r.sequence),
    editId: (r.edit_id as string | null) ?? null,
    annotation: (r.annotation as string | null) ?? null,
  };
}

export async function insertDutyEvent(
  tx: Tx,
  tenantId: string,
  e: {
    id: string;
    driverId: string;
    status: DutyStatus;
    at: Date;
    latitude?: number | null;
    longitude?: number | null;
    note?: string | null;
    source: string;
    createdBy: string | null;
    origin: RecordOrigin;
    recordStatus?: RecordStatus;
    editId?: string | null;
    annotation?: string | null;
  },
  now: Date,
): Promise<DutyEvent> {
  const { rows } = await tx.query(
    `INSERT INTO duty_status_events (tenant_id, id, driver_id, status, started_at, latitude, longitude, note, source, created_by, created_at, origin, record_status, edit_id, annotation)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *`,
    [tenantId, e.id, e.driverId, e.status, e.at, e.latitude ?? null, e.longitude ?? null, e.note ?? null, e.source, e.createdBy, now, e.origin, e.recordStatus ?? 'ACTIVE', e.editId ?? null, e.annotation ?? null],
  );
  return toEvent(rows[0]!);
}

export async function lastDutyEvent(tx: Tx, tenantId: string, driverId: string): Promise<DutyEvent | null> {
  const { rows } = await tx.query(
    "SELECT * FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' ORDER BY started_at DESC, created_at DESC LIMIT 1",
    [tenantId, driverId],
  );
  return rows[0] ? toEvent(rows[0]) : null;
}

/** The events that matter at `now`: those since `since`, and the one in force at `since`. */
/**
 * The statement behind dutyEventsSince, its parameters named by the caller (tenant, driver, since): the
 * status in force at `since` and every one after it, in log order. Also part of the plan's context read
 * (routes.planning.ts), so that a plan from the log costs no more round trips than one with driverState.
 */
export const dutyEventsSinceSql = (tenant: string, driver: string, since: string) => /* sql */ `
     (SELECT * FROM duty_status_events WHERE tenant_id = ${tenant} AND driver_id = ${driver} AND record_status = 'ACTIVE' AND started_at < ${since} ORDER BY started_at DESC LIMIT 1)
     UNION ALL
     (SELECT * FROM duty_status_events WHERE tenant_id = ${tenant} AND driver_id = ${driver} AND record_status = 'ACTIVE' AND started_at >= ${since})`;

export async function dutyEventsSince(tx: Tx, tenantId: string, driverId: string, since: Date): Promise<DutyEvent[]> {
  const { rows } = await tx.query(`${dutyEventsSinceSql('$1', '$2', '$3')} ORDER BY started_at, created_at`, [tenantId, driverId, since]);
  return rows.map(toEvent);
}

/**
 * Columns, for a row whose driver id is the SQL expression `driver`, holding what the driver's hours now
 * are computed from (hosNowOfRow): `hours_log`, the ACTIVE log since `since` with the record in force then
 * as [status, started_at] pairs in log order; `hours_eld`, the ELD's clocks synced after `eldSince`;
 * `hours_team`, whether they drive an ACTIVE team route. A page of drivers reads them in its own statement
 * (one round trip, as the bench's baseline does: issue 28).
 */
export const hoursSourceColumns = (tenant: string, driver: string, since: string, eldSince: string) => /* sql */ `
  (SELECT json_agg(json_build_array(e.status, e.started_at) ORDER BY e.started_at, e.created_at) FROM duty_status_events e
    WHERE e.tenant_id = ${tenant} AND e.driver_id = ${driver} AND e.record_status = 'ACTIVE'
      AND (e.started_at >= ${since} OR e.started_at = (SELECT max(x.started_at) FROM duty_status_events x
                                                        WHERE x.tenant_id = ${tenant} AND x.driver_id = ${driver} AND x.record_status = 'ACTIVE' AND x.started_at < ${since}))) AS hours_log,
  (SELECT row_to_json(c) FROM driver_eld_clocks c WHERE c.tenant_id = ${tenant} AND c.driver_id = ${driver} AND c.synced_at > ${eldSince}) AS hours_eld,
  EXISTS (SELECT 1 FROM route_plans r WHERE r.tenant_id = ${tenant} AND r.status = 'ACTIVE' AND r.co_driver_id IS NOT NULL
             AND (r.driver_id = ${driver} OR r.co_driver_id = ${driver})) AS hours_team`;

/** What hoursSourceColumns read for one driver. */
export interface HoursSourceRow {
  hours_log: [DutyStatus, string][] | string | null;
  hours_eld: Record<string, unknown> | string | null;
  hours_team: boolean;
}

/** What hoursSourceColumns read for each of `driverIds`, and the tenant's stored HOS settings, in one statement. */
export async function hoursSourcesOf(tx: Tx, tenantId: string, driverIds: readonly string[], params: [Date, Date]): Promise<{ hos: StoredHosSettings | null; rows: Map<string, HoursSourceRow> }> {
  const { rows } = await tx.query<HoursSourceRow & { id: string; hos: StoredHosSettings | null }>(HOURS_SOURCES_SQL, [tenantId, [...driverIds], ...params]);
  return { hos: rows[0]?.hos ?? null, rows: new Map(rows.map((r) => [r.id, r])) };
}
const HOURS_SOURCES_SQL = `SELECT d.id, (SELECT hos FROM tenant_settings WHERE tenant_id = $1) AS hos, ${hoursSourceColumns('$1', 'd.id', '$3', '$4')}
  FROM unnest($2::text[]) AS d (id)`;

/** The ACTIVE records starting in [from, to), newest first; with `history`, the inactive ones too (each record's history kept: 395.30(c)). */
export async function listDutyEvents(tx: Tx, tenantId: string, driverId: string, from: Date, to: Date, limit: number, history = false): Promise<DutyEvent[]> {
  const { rows } = await tx.query(
    `SELECT e.*, u.first_name || ' ' || u.last_name AS created_by_name
       FROM duty_status_events e LEFT JOIN users u ON u.tenant_id = e.tenant_id AND u.id = e.created_by
      WHERE e.tenant_id = $1 AND e.driver_id = $2 AND e.started_at >= $3 AND e.started_at < $4 ${history ? '' : "AND e.record_status = 'ACTIVE'"}
      ORDER BY e.started_at DESC, e.sequence DESC LIMIT ${limit}`,
    [tenantId, driverId, from, to],
  );
  return rows.map(toEvent);
}

export type StoredHosSettings = { ruleSet?: RuleSetId; homeTerminalTimeZone?: string | null; periodStartTime?: string } & RuleSetOptions;

export async function tenantRuleSet(tx: Tx, tenantId: string): Promise<RuleSet> {
  const { rows } = await tx.query<{ hos: StoredHosSettings }>('SELECT hos FROM tenant_settings WHERE tenant_id = $1', [tenantId]);
  return ruleSetOf(rows[0]?.hos);
}

/** The rule set a tenant's stored HOS settings (`tenant_settings.hos`) name, with its options; the default when none. */
export function ruleSetOf(hos: StoredHosSettings | null | undefined): RuleSet {
  // The daily logs' settings are not rule options.
  const { ruleSet, homeTerminalTimeZone: _zone, periodStartTime: _start, ...options } = hos ?? {};
  return { id: ruleSet ?? 'US_PROPERTY_70_8', options };
}

export async function cacheDriverClocks(
  tx: Tx,
  tenantId: string,
  driverId: string,
  c: { hoursDriven: number; onDutyHours: number; cycleHoursUsed: number; lastRestartAt: number | null },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE drivers SET current_hours_driven = $3, current_on_duty_time = $4, current_cycle_used = $5, last_restart_date = $6, updated_at = $7
      WHERE tenant_id = $1 AND id = $2`,
    [tenantId, driverId, c.hoursDriven, c.onDutyHours, c.cycleHoursUsed, c.lastRestartAt === null ? null : new Date(c.lastRestartAt), now],
  );
}
