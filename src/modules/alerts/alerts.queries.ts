/**
 * The read side of alerts: filtered pages, notes and statistics. SQL only; each function runs in the
 * caller's tenant transaction (row-level security) and names its tenant too.
 */
import { selectPage } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import type { AlertStatus, AlertType } from '../../domain/alerts/types.js';
import { ALERT_COLUMNS, ALERT_FROM, toAlert, type AlertRecord } from './alerts.repository.js';
import { ALERT_CATEGORIES, ALERT_PRIORITIES, ALERT_STATUSES } from './alerts.schemas.js';
import type { AlertNote } from './alerts.service.js';

export type AlertCategoryName = (typeof ALERT_CATEGORIES)[number];
export type AlertPriorityName = (typeof ALERT_PRIORITIES)[number];

export interface AlertFilter {
  statuses?: AlertStatus[];
  types?: AlertType[];
  categories?: AlertCategoryName[];
  priorities?: AlertPriorityName[];
  driverId?: string;
  routePlanId?: string;
  /** createdAt ≥ from */
  from?: Date;
  /** createdAt < to */
  to?: Date;
  /** A DRIVER user's own driver (null: a DRIVER user with no driver profile sees nothing); undefined: everyone's. */
  scope?: string | null;
}

/** The WHERE over `alerts a` for this tenant and filter, with its parameters (values always bound, never inlined). */
export function alertWhere(tenantId: string, f: AlertFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [tenantId];
  const where = ['a.tenant_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (f.statuses) add((p) => `a.status = ANY(${p}::text[])`, f.statuses);
  if (f.types) add((p) => `a.type = ANY(${p}::text[])`, f.types);
  if (f.categories) add((p) => `a.category = ANY(${p}::text[])`, f.categories);
  if (f.priorities) add((p) => `a.priority = ANY(${p}::text[])`, f.priorities);
  if (f.driverId !== undefined) add((p) => `a.driver_id = ${p}`, f.driverId);
  if (f.routePlanId !== undefined) add((p) => `a.route_id = ${p}`, f.routePlanId);
  if (f.from) add((p) => `a.created_at >= ${p}::timestamptz`, f.from);
  if (f.to) add((p) => `a.created_at < ${p}::timestamptz`, f.to);
  if (f.scope === null) where.push('false');
  else if (f.scope !== undefined) add((p) => `a.driver_id = ${p}`, f.scope);
  return { where: where.join(' AND '), params };
}

const PRIORITY_RANK = `CASE a.priority WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'MEDIUM' THEN 2 ELSE 3 END`;

/** Newest first (or by priority, then newest), in a stable order (ties on createdAt broken by id). */
export async function listAlerts(tx: Tx, tenantId: string, f: AlertFilter, page: number, pageSize: number, sort: 'newest' | 'priority' = 'newest'): Promise<{ data: AlertRecord[]; total: number }> {
  const { where, params } = alertWhere(tenantId, f);
  const orderBy = sort === 'priority' ? `${PRIORITY_RANK}, a.created_at DESC, a.id DESC` : 'a.created_at DESC, a.id DESC';
  const { rows, total } = await selectPage(tx, { select: ALERT_COLUMNS, from: ALERT_FROM, where, orderBy }, params, page, pageSize);
  return { data: rows.map(toAlert), total };
}

const toNote = (r: Record<string, unknown>): AlertNote => ({
  id: r.id as string,
  alertId: r.alert_id as string,
  authorId: r.author_id as string,
  text: r.text as string,
  createdAt: new Date(r.created_at as string | Date).toISOString(),
});

/** An alert's notes, oldest first; a page of them when page and pageSize are given. */
export async function alertNotes(tx: Tx, tenantId: string, alertId: string, page?: { page: number; pageSize: number }): Promise<{ data: AlertNote[]; total: number }> {
  const q = { select: 'id, alert_id, author_id, text, created_at', from: 'alert_notes', where: 'tenant_id = $1 AND alert_id = $2', orderBy: 'created_at, id' };
  if (page) {
    const { rows, total } = await selectPage(tx, q, [tenantId, alertId], page.page, page.pageSize);
    return { data: rows.map(toNote), total };
  }
  const { rows } = await tx.query<Record<string, unknown>>(`SELECT ${q.select} FROM ${q.from} WHERE ${q.where} ORDER BY ${q.orderBy}`, [tenantId, alertId]);
  return { data: rows.map(toNote), total: rows.length };
}

export interface AlertStatsRow {
  total: number;
  byStatus: Record<AlertStatus, number>;
  byCategory: Record<AlertCategoryName, number>;
  byPriority: Record<AlertPriorityName, number>;
  /** The hours-of-service category split: violations, limits reached, limits only approached. */
  hos: { violations: number; limitsReached: number; approaching: number };
  /** Seconds; null when no alert qualifies. */
  responseSeconds: number | null;
  resolutionSeconds: number | null;
}

/**
 * `count(*) FILTER (…) AS "key:VALUE"` for each value, to read back with `pick`. Aliases and values come
 * from the fixed lists, never from input.
 */
export const countsBy = (column: string, key: string, values: readonly string[]) =>
  values.map((v) => `count(*) FILTER (WHERE ${column} = '${v}')::int AS "${key}:${v}"`).join(',\n    ');

export const pick = <K extends string>(row: Record<string, unknown>, key: string, values: readonly K[]): Record<K, number> =>
  Object.fromEntries(values.map((v) => [v, Number(row[`${key}:${v}`] ?? 0)])) as Record<K, number>;

export async function alertStats(tx: Tx, tenantId: string, f: AlertFilter): Promise<AlertStatsRow> {
  const { where, params } = alertWhere(tenantId, f);
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT count(*)::int AS total,
    ${countsBy('a.status', 'status', ALERT_STATUSES)},
    ${countsBy('a.category', 'category', ALERT_CATEGORIES)},
    ${countsBy('a.priority', 'priority', ALERT_PRIORITIES)},
    count(*) FILTER (WHERE a.type = 'HOS_VIOLATION')::int AS hos_violations,
    count(*) FILTER (WHERE a.category = 'HOS_VIOLATION' AND a.type <> 'HOS_VIOLATION' AND a.metadata->>'limitReached' = 'true')::int AS hos_reached,
    count(*) FILTER (WHERE a.category = 'HOS_VIOLATION' AND a.type <> 'HOS_VIOLATION' AND a.metadata->>'limitReached' IS DISTINCT FROM 'true')::int AS hos_approaching,
    avg(extract(epoch FROM (a.acknowledged_at - a.created_at)))::float8 AS response_seconds,
    avg(extract(epoch FROM (a.resolved_at - a.created_at)))::float8 AS resolution_seconds
  FROM alerts a WHERE ${where}`,
    params,
  );
  const r = rows[0]!;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    total: Number(r.total),
    byStatus: pick(r, 'status', ALERT_STATUSES),
    byCategory: pick(r, 'category', ALERT_CATEGORIES),
    byPriority: pick(r, 'priority', ALERT_PRIORITIES),
    hos: { violations: Number(r.hos_violations), limitsReached: Number(r.hos_reached), approaching: Number(r.hos_approaching) },
    responseSeconds: num(r.response_seconds),
    resolutionSeconds: num(r.resolution_seconds),
  };
}
