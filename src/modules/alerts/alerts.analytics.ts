/**
 * Alert analytics in SQL (the same statements on PGlite and PostgreSQL, inside the tenant transaction):
 * UTC buckets from generate_series over date_trunc, every bucket present, alerts counted by createdAt in
 * the half-open range [from, to).
 */
import type { Tx } from '../../db/types.js';
import { alertWhere, countsBy, pick, type AlertFilter, type AlertPriorityName } from './alerts.queries.js';
import { ALERT_CATEGORIES, ALERT_PRIORITIES } from './alerts.schemas.js';

export type Interval = 'hour' | 'day';
export const INTERVAL_MS: Record<Interval, number> = { hour: 3_600_000, day: 86_400_000 };

export interface AnalyticsWindow {
  from: Date;
  to: Date;
  interval: Interval;
}

/** The spec's response guidance per priority, in minutes (LOW: "next check-in", no target). */
export const RESPONSE_TARGET_MINUTES: Record<AlertPriorityName, number | null> = { CRITICAL: 5, HIGH: 15, MEDIUM: 60, LOW: null };

const round = (v: unknown, places: number): number | null => {
  if (v === null || v === undefined) return null;
  const f = 10 ** places;
  return Math.round(Number(v) * f) / f;
};
export const minutes = (v: unknown) => round(v, 2);
export const ratio = (part: number, whole: number) => (whole === 0 ? null : round(part / whole, 4));

/**
 * `buckets` (start_utc: timestamp without time zone, UTC wall time) and `scoped` (the filtered alerts
 * with their bucket and the minutes to acknowledge and to resolve), then the caller's SELECT.
 */
function withBuckets(tenantId: string, f: AlertFilter, w: AnalyticsWindow): { sql: string; params: unknown[] } {
  const { where, params } = alertWhere(tenantId, { ...f, from: w.from, to: w.to });
  params.push(w.interval, w.from, w.to, `1 ${w.interval}`);
  const [unit, from, to, step] = [params.length - 3, params.length - 2, params.length - 1, params.length].map((n) => `$${n}`);
  return {
    params,
    sql: `WITH buckets AS (
      SELECT s AS start_utc FROM generate_series(
        date_trunc(${unit}::text, ${from}::timestamptz AT TIME ZONE 'UTC'),
        (${to}::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond',
        ${step}::interval) AS s
    ), scoped AS (
      SELECT a.id, a.type, a.category, a.priority, a.created_at, a.acknowledged_at, a.resolved_at, a.resolved_by,
             date_trunc(${unit}::text, a.created_at AT TIME ZONE 'UTC') AS bucket,
             extract(epoch FROM (a.acknowledged_at - a.created_at)) / 60.0 AS ack_minutes,
             extract(epoch FROM (a.resolved_at - a.created_at)) / 60.0 AS resolve_minutes
        FROM alerts a WHERE ${where}
    )`,
  };
}

/** Bucket bounds for the response: aligned start and end, clipped to the range. */
function bounds(row: Record<string, unknown>, w: AnalyticsWindow): { start: string; end: string } {
  const start = new Date(row.start as string | Date).getTime();
  return {
    start: new Date(Math.max(start, w.from.getTime())).toISOString(),
    end: new Date(Math.min(start + INTERVAL_MS[w.interval], w.to.getTime())).toISOString(),
  };
}

const bucketSelect = `b.start_utc AT TIME ZONE 'UTC' AS start`;
const bucketJoin = `FROM buckets b LEFT JOIN scoped s ON s.bucket = b.start_utc GROUP BY b.start_utc ORDER BY b.start_utc`;

export async function volume(tx: Tx, tenantId: string, f: AlertFilter, w: AnalyticsWindow) {
  const { sql, params } = withBuckets(tenantId, f, w);
  const { rows } = await tx.query<Record<string, unknown>>(
    `${sql}
    SELECT ${bucketSelect}, count(s.id)::int AS total,
    ${countsBy('s.priority', 'priority', ALERT_PRIORITIES)},
    ${countsBy('s.category', 'category', ALERT_CATEGORIES)}
    ${bucketJoin}`,
    params,
  );
  const buckets = rows.map((r) => ({
    ...bounds(r, w),
    total: Number(r.total),
    byPriority: pick(r, 'priority', ALERT_PRIORITIES),
    byCategory: pick(r, 'category', ALERT_CATEGORIES),
  }));
  return { total: buckets.reduce((n, b) => n + b.total, 0), buckets };
}

const responseFigures = (r: Record<string, unknown>) => ({ count: Number(r.count), averageMinutes: minutes(r.average), p90Minutes: minutes(r.p90) });
const responseColumns = `count(s.acknowledged_at)::int AS count, avg(s.ack_minutes)::float8 AS average,
    percentile_cont(0.9) WITHIN GROUP (ORDER BY s.ack_minutes)::float8 AS p90`;

export async function responseTime(tx: Tx, tenantId: string, f: AlertFilter, w: AnalyticsWindow) {
  const { sql, params } = withBuckets(tenantId, f, w);
  const perBucket = await tx.query<Record<string, unknown>>(`${sql} SELECT ${bucketSelect}, ${responseColumns} ${bucketJoin}`, params);
  const targets = `CASE s.priority ${ALERT_PRIORITIES.filter((p) => RESPONSE_TARGET_MINUTES[p] !== null)
    .map((p) => `WHEN '${p}' THEN ${RESPONSE_TARGET_MINUTES[p]}`)
    .join(' ')} END`;
  // ROLLUP: one row per priority present, and the grand total (priority NULL).
  const byPriority = await tx.query<Record<string, unknown>>(
    `${sql} SELECT s.priority, ${responseColumns}, count(*) FILTER (WHERE s.ack_minutes <= ${targets})::int AS within
       FROM scoped s GROUP BY ROLLUP (s.priority)`,
    params,
  );
  const overallRow = byPriority.rows.find((r) => r.priority === null);
  const empty = { count: 0, average: null, p90: null, within: 0 };
  return {
    overall: responseFigures(overallRow ?? empty),
    byPriority: Object.fromEntries(
      ALERT_PRIORITIES.map((p) => {
        const r = byPriority.rows.find((x) => x.priority === p) ?? empty;
        const target = RESPONSE_TARGET_MINUTES[p];
        return [p, { ...responseFigures(r), targetMinutes: target, withinTarget: target === null ? null : Number(r.within) }];
      }),
    ) as Record<AlertPriorityName, ReturnType<typeof responseFigures> & { targetMinutes: number | null; withinTarget: number | null }>,
    buckets: perBucket.rows.map((r) => ({ ...bounds(r, w), ...responseFigures(r) })),
  };
}

const resolutionColumns = `count(s.id)::int AS created, count(s.resolved_at)::int AS resolved, avg(s.resolve_minutes)::float8 AS average`;
const resolutionFigures = (r: Record<string, unknown>) => {
  const created = Number(r.created);
  const resolved = Number(r.resolved);
  return { created, resolved, resolutionRate: ratio(resolved, created), averageResolutionMinutes: minutes(r.average) };
};

export async function resolution(tx: Tx, tenantId: string, f: AlertFilter, w: AnalyticsWindow) {
  const { sql, params } = withBuckets(tenantId, f, w);
  const perBucket = await tx.query<Record<string, unknown>>(`${sql} SELECT ${bucketSelect}, ${resolutionColumns} ${bucketJoin}`, params);
  const totals = await tx.query<Record<string, unknown>>(
    `${sql} SELECT ${resolutionColumns},
       count(*) FILTER (WHERE s.resolved_at IS NULL)::int AS open,
       count(*) FILTER (WHERE s.resolved_at IS NOT NULL AND s.resolved_by = 'system')::int AS by_system,
       count(*) FILTER (WHERE s.resolved_at IS NOT NULL AND s.resolved_by IS DISTINCT FROM 'system')::int AS by_users
     FROM scoped s`,
    params,
  );
  const t = totals.rows[0]!;
  return {
    totals: { ...resolutionFigures(t), open: Number(t.open), resolvedBySystem: Number(t.by_system), resolvedByUsers: Number(t.by_users) },
    buckets: perBucket.rows.map((r) => ({ ...bounds(r, w), ...resolutionFigures(r) })),
  };
}

export async function topTypes(tx: Tx, tenantId: string, f: AlertFilter, range: { from: Date; to: Date }, limit: number) {
  const { where, params } = alertWhere(tenantId, { ...f, from: range.from, to: range.to });
  params.push(limit);
  const { rows } = await tx.query<Record<string, unknown>>(
    `WITH counted AS (
       SELECT a.type, min(a.category) AS category, count(*)::int AS count, count(a.resolved_at)::int AS resolved,
              avg(extract(epoch FROM (a.resolved_at - a.created_at)) / 60.0)::float8 AS average
         FROM alerts a WHERE ${where} GROUP BY a.type
     )
     SELECT c.*, (SELECT coalesce(sum(count), 0) FROM counted)::int AS total
       FROM counted c ORDER BY c.count DESC, c.type LIMIT $${params.length}`,
    params,
  );
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return {
    total,
    data: rows.map((r) => ({
      type: r.type as string,
      category: r.category as string,
      count: Number(r.count),
      share: ratio(Number(r.count), total) ?? 0,
      resolved: Number(r.resolved),
      averageResolutionMinutes: minutes(r.average),
    })),
  };
}
