/**
 * What the daily logs read: the drivers' ACTIVE records, certifications, edit requests and driven miles —
 * for one driver, or for a page of drivers at once (one statement per kind of row, not per driver).
 */
import type { Tx } from '../../db/types.js';
import { haversineMiles } from '../../domain/geo/index.js';
import type { LogRecord, RecordOrigin } from '../../domain/logs/daily-log.js';
import type { DutyStatus } from '../../domain/hos/index.js';
import { iso } from '../../lib/rows.js';

const ms = (v: unknown): number => (v instanceof Date ? v.getTime() : Date.parse(iso(v)));

/** The columns a LogRecord is made of. */
const RECORD_COLUMNS = 'driver_id, id, status, started_at, latitude, longitude, origin, note, annotation';

function toRecord(r: Record<string, unknown>): LogRecord {
  return {
    id: r.id as string,
    status: r.status as DutyStatus,
    at: ms(r.started_at),
    latitude: (r.latitude as number | null) ?? null,
    longitude: (r.longitude as number | null) ?? null,
    origin: r.origin as RecordOrigin,
    note: (r.note as string | null) ?? null,
    annotation: (r.annotation as string | null) ?? null,
  };
}

/** The ACTIVE records from the one in force at `since` on, in log order. */
export async function activeRecords(tx: Tx, tenantId: string, driverId: string, since: Date): Promise<LogRecord[]> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `(SELECT ${RECORD_COLUMNS} FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' AND started_at < $3 ORDER BY started_at DESC LIMIT 1)
     UNION ALL
     (SELECT ${RECORD_COLUMNS} FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' AND started_at >= $3)
     ORDER BY started_at`,
    [tenantId, driverId, since],
  );
  return rows.map(toRecord);
}

/** activeRecords of many drivers at once, by driver. */
export async function activeRecordsOfDrivers(tx: Tx, tenantId: string, driverIds: readonly string[], since: Date): Promise<Map<string, LogRecord[]>> {
  const out = new Map<string, LogRecord[]>(driverIds.map((id) => [id, []]));
  if (driverIds.length === 0) return out;
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT ${RECORD_COLUMNS} FROM duty_status_events e
      WHERE e.tenant_id = $1 AND e.driver_id = ANY($2::text[]) AND e.record_status = 'ACTIVE'
        AND (e.started_at >= $3 OR e.started_at = (SELECT max(x.started_at) FROM duty_status_events x WHERE x.tenant_id = $1 AND x.driver_id = e.driver_id AND x.record_status = 'ACTIVE' AND x.started_at < $3))
      ORDER BY e.driver_id, e.started_at`,
    [tenantId, [...driverIds], since],
  );
  for (const r of rows) out.get(r.driver_id as string)?.push(toRecord(r));
  return out;
}

export interface Certification {
  certifiedAt: string;
  certifiedBy: string;
  statement: string;
}

/** Every certification of the dates in [from, to], by driver and date, newest first per date. */
export async function certificationsOfDrivers(tx: Tx, tenantId: string, driverIds: readonly string[], from: string, to: string): Promise<Map<string, Map<string, Certification[]>>> {
  const out = new Map<string, Map<string, Certification[]>>(driverIds.map((id) => [id, new Map()]));
  if (driverIds.length === 0) return out;
  const { rows } = await tx.query<{ driver_id: string; log_date: string | Date; certified_at: unknown; certified_by: string; statement: string }>(
    `SELECT driver_id, to_char(log_date, 'YYYY-MM-DD') AS log_date, certified_at, certified_by, statement FROM log_certifications
      WHERE tenant_id = $1 AND driver_id = ANY($2::text[]) AND log_date BETWEEN $3::date AND $4::date ORDER BY driver_id, log_date, certified_at DESC`,
    [tenantId, [...driverIds], from, to],
  );
  for (const r of rows) {
    const byDate = out.get(r.driver_id);
    if (!byDate) continue;
    const date = String(r.log_date);
    const list = byDate.get(date) ?? [];
    list.push({ certifiedAt: iso(r.certified_at), certifiedBy: r.certified_by, statement: r.statement });
    byDate.set(date, list);
  }
  return out;
}

export interface EditsByDate {
  /** The times the edits applied to each date were applied. */
  applied: Map<string, number[]>;
  /** How many requests for each date wait for the driver. */
  pending: Map<string, number>;
}

/** For each driver and date in [from, to]: the edits applied to it (when), and how many requests wait for the driver. */
export async function editsOfDrivers(tx: Tx, tenantId: string, driverIds: readonly string[], from: string, to: string): Promise<Map<string, EditsByDate>> {
  const out = new Map<string, EditsByDate>(driverIds.map((id) => [id, { applied: new Map(), pending: new Map() }]));
  if (driverIds.length === 0) return out;
  const { rows } = await tx.query<{ driver_id: string; status: string; decided_at: unknown; requested_at: unknown; date: string }>(
    `SELECT e.driver_id, e.status, e.decided_at, e.requested_at, d.date FROM log_edits e CROSS JOIN LATERAL unnest(e.dates) AS d (date)
      WHERE e.tenant_id = $1 AND e.driver_id = ANY($2::text[]) AND e.status IN ('PENDING','ACCEPTED','APPLIED') AND d.date BETWEEN $3 AND $4`,
    [tenantId, [...driverIds], from, to],
  );
  for (const r of rows) {
    const e = out.get(r.driver_id);
    if (!e) continue;
    if (r.status === 'PENDING') e.pending.set(r.date, (e.pending.get(r.date) ?? 0) + 1);
    else e.applied.set(r.date, [...(e.applied.get(r.date) ?? []), ms(r.decided_at ?? r.requested_at)]);
  }
  return out;
}

export interface LogPosition {
  routeId: string;
  at: number;
  latitude: number;
  longitude: number;
}

/** The route positions of many drivers in [from, to), by driver (either seat of a team route), each in route and time order. */
export async function positionsOfDrivers(tx: Tx, tenantId: string, driverIds: readonly string[], from: Date, to: Date): Promise<Map<string, LogPosition[]>> {
  const out = new Map<string, LogPosition[]>(driverIds.map((id) => [id, []]));
  if (driverIds.length === 0) return out;
  const { rows } = await tx.query<{ driver_id: string; co_driver_id: string | null; route_id: string; recorded_at: unknown; latitude: number; longitude: number }>(
    `SELECT r.driver_id, r.co_driver_id, p.route_id, p.recorded_at, p.latitude, p.longitude FROM route_positions p
       JOIN route_plans r ON r.tenant_id = p.tenant_id AND r.id = p.route_id
      WHERE p.tenant_id = $1 AND (r.driver_id = ANY($2::text[]) OR r.co_driver_id = ANY($2::text[])) AND p.recorded_at >= $3 AND p.recorded_at < $4
      ORDER BY p.route_id, p.recorded_at`,
    [tenantId, [...driverIds], from, to],
  );
  for (const r of rows) {
    const p = { routeId: r.route_id, at: ms(r.recorded_at), latitude: Number(r.latitude), longitude: Number(r.longitude) };
    out.get(r.driver_id)?.push(p);
    if (r.co_driver_id !== null && r.co_driver_id !== r.driver_id) out.get(r.co_driver_id)?.push(p);
  }
  return out;
}

/**
 * Miles driven in each of the periods (sorted, not overlapping) from positions in route and time order: the
 * great-circle distance between consecutive positions of the same route, both inside the period, added up;
 * null for a period no two positions fall in. One pass over the positions.
 */
export function milesPerPeriod(positions: readonly LogPosition[], periods: ReadonlyArray<{ start: number; end: number }>): Array<number | null> {
  const miles = periods.map(() => 0);
  const pairs = periods.map(() => 0);
  const starts = periods.map((p) => p.start);
  for (let i = 1; i < positions.length; i++) {
    const a = positions[i - 1]!;
    const b = positions[i]!;
    if (a.routeId !== b.routeId) continue;
    // The period `a` falls in (binary search on the sorted starts); `b` must fall in it too.
    let lo = 0;
    let hi = starts.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= a.at) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k < 0 || b.at >= periods[k]!.end) continue;
    miles[k]! += haversineMiles(a, b);
    pairs[k]!++;
  }
  return miles.map((m, i) => (pairs[i] === 0 ? null : Math.round(m * 10) / 10));
}

/** milesPerPeriod for one period. */
export function milesFromPositions(positions: readonly LogPosition[], start: number, end: number): number | null {
  return milesPerPeriod(positions, [{ start, end }])[0]!;
}
