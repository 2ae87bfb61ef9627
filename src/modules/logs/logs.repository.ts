/** What the daily logs read: the driver's ACTIVE records, certifications, edit requests and driven miles. */
import type { Tx } from '../../db/types.js';
import { haversineMiles } from '../../domain/geo/index.js';
import type { LogRecord, RecordOrigin } from '../../domain/logs/daily-log.js';
import type { DutyStatus } from '../../domain/hos/index.js';
import { iso } from '../../lib/rows.js';

const ms = (v: unknown): number => Date.parse(iso(v));

/** The ACTIVE records from the one in force at `since` on, in log order. */
export async function activeRecords(tx: Tx, tenantId: string, driverId: string, since: Date): Promise<LogRecord[]> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `(SELECT * FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' AND started_at < $3 ORDER BY started_at DESC LIMIT 1)
     UNION ALL
     (SELECT * FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' AND started_at >= $3)
     ORDER BY started_at`,
    [tenantId, driverId, since],
  );
  return rows.map((r) => ({
    id: r.id as string,
    status: r.status as DutyStatus,
    at: ms(r.started_at),
    latitude: (r.latitude as number | null) ?? null,
    longitude: (r.longitude as number | null) ?? null,
    origin: r.origin as RecordOrigin,
    note: (r.note as string | null) ?? null,
    annotation: (r.annotation as string | null) ?? null,
  }));
}

export interface Certification {
  certifiedAt: string;
  certifiedBy: string;
  statement: string;
}

/** Every certification of the dates in [from, to], newest first per date. */
export async function certificationsOf(tx: Tx, tenantId: string, driverId: string, from: string, to: string): Promise<Map<string, Certification[]>> {
  const { rows } = await tx.query<{ log_date: string | Date; certified_at: unknown; certified_by: string; statement: string }>(
    `SELECT to_char(log_date, 'YYYY-MM-DD') AS log_date, certified_at, certified_by, statement FROM log_certifications
      WHERE tenant_id = $1 AND driver_id = $2 AND log_date BETWEEN $3::date AND $4::date ORDER BY log_date, certified_at DESC`,
    [tenantId, driverId, from, to],
  );
  const out = new Map<string, Certification[]>();
  for (const r of rows) {
    const date = String(r.log_date);
    const list = out.get(date) ?? [];
    list.push({ certifiedAt: iso(r.certified_at), certifiedBy: r.certified_by, statement: r.statement });
    out.set(date, list);
  }
  return out;
}

/** For each date in [from, to]: the edits applied to it (when), and how many requests wait for the driver. */
export async function editsByDate(tx: Tx, tenantId: string, driverId: string, from: string, to: string): Promise<{ applied: Map<string, number[]>; pending: Map<string, number> }> {
  const { rows } = await tx.query<{ status: string; decided_at: unknown; requested_at: unknown; date: string }>(
    `SELECT e.status, e.decided_at, e.requested_at, d.date FROM log_edits e CROSS JOIN LATERAL unnest(e.dates) AS d (date)
      WHERE e.tenant_id = $1 AND e.driver_id = $2 AND e.status IN ('PENDING','ACCEPTED','APPLIED') AND d.date BETWEEN $3 AND $4`,
    [tenantId, driverId, from, to],
  );
  const applied = new Map<string, number[]>();
  const pending = new Map<string, number>();
  for (const r of rows) {
    if (r.status === 'PENDING') pending.set(r.date, (pending.get(r.date) ?? 0) + 1);
    else applied.set(r.date, [...(applied.get(r.date) ?? []), ms(r.decided_at ?? r.requested_at)]);
  }
  return { applied, pending };
}

/** The driver's route positions in [from, to) in time order (either seat of a team route), for the miles driven. */
export async function positionsOf(tx: Tx, tenantId: string, driverId: string, from: Date, to: Date): Promise<Array<{ routeId: string; at: number; latitude: number; longitude: number }>> {
  const { rows } = await tx.query<{ route_id: string; recorded_at: unknown; latitude: number; longitude: number }>(
    `SELECT p.route_id, p.recorded_at, p.latitude, p.longitude FROM route_positions p
       JOIN route_plans r ON r.tenant_id = p.tenant_id AND r.id = p.route_id
      WHERE p.tenant_id = $1 AND (r.driver_id = $2 OR r.co_driver_id = $2) AND p.recorded_at >= $3 AND p.recorded_at < $4
      ORDER BY p.route_id, p.recorded_at`,
    [tenantId, driverId, from, to],
  );
  return rows.map((r) => ({ routeId: r.route_id, at: ms(r.recorded_at), latitude: Number(r.latitude), longitude: Number(r.longitude) }));
}

/**
 * Miles driven in [start, end) from positions: the great-circle distance between consecutive positions of
 * the same route, both inside the period, added up; null when no two positions fall in it.
 */
export function milesFromPositions(positions: ReadonlyArray<{ routeId: string; at: number; latitude: number; longitude: number }>, start: number, end: number): number | null {
  let miles = 0;
  let pairs = 0;
  for (let i = 1; i < positions.length; i++) {
    const a = positions[i - 1]!;
    const b = positions[i]!;
    if (a.routeId !== b.routeId || a.at < start || b.at >= end) continue;
    miles += haversineMiles(a, b);
    pairs++;
  }
  return pairs === 0 ? null : Math.round(miles * 10) / 10;
}
