/**
 * What callers read about alerts: lists with filters, one alert with its notes, statistics and
 * analytics. Every read is limited to the caller's tenant and, for DRIVER users, to their own driver.
 */
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { ALERT_TYPES, HOS_APPROACHING_LIMIT_TYPES, type AlertStatus, type AlertType } from '../../domain/alerts/types.js';
import { invalid } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import { INTERVAL_MS, minutes, resolution, responseTime, topTypes, volume, type AnalyticsWindow, type Interval } from './alerts.analytics.js';
import { alertNotes, alertStats, listAlerts, type AlertCategoryName, type AlertFilter, type AlertPriorityName } from './alerts.queries.js';
import { ALERT_CATEGORIES, ALERT_PRIORITIES, ALERT_STATUSES, HOS_APPROACHING_LIMIT } from './alerts.schemas.js';
import { driverScope, visibleAlert } from './alerts.service.js';

/** Analytics ranges: at most a year and 2,000 buckets (an hourly range of up to ~83 days). */
export const MAX_RANGE_DAYS = 366;
export const MAX_BUCKETS = 2000;
const DEFAULT_RANGE_MS = 7 * 86_400_000;

export type EnumParam = string | string[] | undefined;

/** "A,B" or ["A", "B,C"] → the distinct values; each must be known (else a 400 naming the parameter). */
export function parseEnumList<T extends string>(field: string, raw: EnumParam, known: readonly string[], aliases: Record<string, readonly T[]> = {}): T[] | undefined {
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (values.length === 0) throw invalid('Validation failed', [{ field: `querystring.${field}`, message: 'must name at least one value' }]);
  const out = new Set<T>();
  for (const v of values) {
    if (aliases[v]) aliases[v].forEach((x) => out.add(x));
    else if (known.includes(v)) out.add(v as T);
    else {
      const allowed = [...known, ...Object.keys(aliases)].join(', ');
      throw invalid('Validation failed', [{ field: `querystring.${field}`, message: `unknown value ${JSON.stringify(v.slice(0, 60))}; allowed: ${allowed}` }]);
    }
  }
  return [...out];
}

function dateRange(from: string | undefined, to: string | undefined): { from?: Date; to?: Date } {
  const range = { from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined };
  if (range.from && range.to && range.from >= range.to) throw invalid('Validation failed', [{ field: 'querystring.from', message: 'must be before to' }]);
  return range;
}

/** The analytics window: defaults (the last 7 days up to now), order and size checked. */
export function analyticsWindow(q: { from?: string; to?: string; interval?: Interval }, now: Date): AnalyticsWindow {
  const interval = q.interval ?? 'day';
  const to = q.to ? new Date(q.to) : now;
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - DEFAULT_RANGE_MS);
  const problem = (field: string, message: string) => invalid('Validation failed', [{ field: `querystring.${field}`, message }]);
  if (from >= to) throw problem(q.from ? 'from' : 'to', q.from ? 'must be before to' : 'must be after from');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * 86_400_000) throw problem('from', `the range may span at most ${MAX_RANGE_DAYS} days`);
  const step = INTERVAL_MS[interval];
  const buckets = Math.ceil((to.getTime() - Math.floor(from.getTime() / step) * step) / step);
  if (buckets > MAX_BUCKETS) throw problem('interval', `the range holds ${buckets} ${interval} buckets; at most ${MAX_BUCKETS} (use a shorter range or interval=day)`);
  return { from, to, interval };
}

const TYPE_NAMES = Object.keys(ALERT_TYPES);

export interface ListQuery {
  status?: EnumParam;
  type?: EnumParam;
  category?: EnumParam;
  priority?: EnumParam;
  driverId?: string;
  sort?: 'newest' | 'priority';
  routePlanId?: string;
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

export function alertsReports(deps: Pick<Deps, 'db' | 'clock'>) {
  const { db, clock } = deps;

  /** Runs `fn` in the tenant's transaction with the caller's driver scope. */
  const scoped = <T>(ctx: TenantContext, fn: (tx: Tx, scope: string | null | undefined) => Promise<T>) =>
    db.tenant(ctx.tenantId, async (tx) => fn(tx, await driverScope(tx, ctx)));

  return {
    async list(ctx: TenantContext, q: ListQuery) {
      const filter: AlertFilter = {
        statuses: parseEnumList<AlertStatus>('status', q.status, ALERT_STATUSES),
        types: parseEnumList<AlertType>('type', q.type, TYPE_NAMES, { [HOS_APPROACHING_LIMIT]: HOS_APPROACHING_LIMIT_TYPES }),
        categories: parseEnumList<AlertCategoryName>('category', q.category, ALERT_CATEGORIES),
        priorities: parseEnumList<AlertPriorityName>('priority', q.priority, ALERT_PRIORITIES),
        driverId: q.driverId,
        routePlanId: q.routePlanId,
        ...dateRange(q.from, q.to),
      };
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 20;
      const { data, total } = await scoped(ctx, (tx, scope) => listAlerts(tx, ctx.tenantId, { ...filter, scope }, page, pageSize, q.sort ?? 'newest'));
      return { data, total, page, pageSize };
    },

    /** The alert with all its notes, oldest first. */
    async detail(ctx: TenantContext, id: string) {
      return db.tenant(ctx.tenantId, async (tx) => {
        const alert = await visibleAlert(tx, ctx, id, false);
        return { ...alert, notes: (await alertNotes(tx, ctx.tenantId, id)).data };
      });
    },

    async notes(ctx: TenantContext, id: string, q: { page?: number; pageSize?: number }) {
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 20;
      return db.tenant(ctx.tenantId, async (tx) => {
        await visibleAlert(tx, ctx, id, false);
        const { data, total } = await alertNotes(tx, ctx.tenantId, id, { page, pageSize });
        return { data, total, page, pageSize };
      });
    },

    async stats(ctx: TenantContext, q: { from?: string; to?: string }) {
      const range = dateRange(q.from, q.to);
      const s = await scoped(ctx, (tx, scope) => alertStats(tx, ctx.tenantId, { ...range, scope }));
      return {
        total: s.total,
        byStatus: s.byStatus,
        byCategory: s.byCategory,
        byPriority: s.byPriority,
        hos: s.hos,
        averageResponseTimeMinutes: s.responseSeconds === null ? null : minutes(s.responseSeconds / 60),
        averageResolutionTimeMinutes: s.resolutionSeconds === null ? null : minutes(s.resolutionSeconds / 60),
      };
    },

    async volume(ctx: TenantContext, q: { from?: string; to?: string; interval?: Interval }) {
      const w = analyticsWindow(q, clock.now());
      const r = await scoped(ctx, (tx, scope) => volume(tx, ctx.tenantId, { scope }, w));
      return { from: w.from.toISOString(), to: w.to.toISOString(), interval: w.interval, ...r };
    },

    async responseTime(ctx: TenantContext, q: { from?: string; to?: string; interval?: Interval }) {
      const w = analyticsWindow(q, clock.now());
      const r = await scoped(ctx, (tx, scope) => responseTime(tx, ctx.tenantId, { scope }, w));
      return { from: w.from.toISOString(), to: w.to.toISOString(), interval: w.interval, ...r };
    },

    async resolution(ctx: TenantContext, q: { from?: string; to?: string; interval?: Interval }) {
      const w = analyticsWindow(q, clock.now());
      const r = await scoped(ctx, (tx, scope) => resolution(tx, ctx.tenantId, { scope }, w));
      return { from: w.from.toISOString(), to: w.to.toISOString(), interval: w.interval, ...r };
    },

    async topTypes(ctx: TenantContext, q: { from?: string; to?: string; limit?: number }) {
      // The range rules of the other analytics; the bucket limit does not apply (no buckets).
      const w = analyticsWindow({ from: q.from, to: q.to, interval: 'day' }, clock.now());
      const r = await scoped(ctx, (tx, scope) => topTypes(tx, ctx.tenantId, { scope }, w, q.limit ?? 10));
      return { from: w.from.toISOString(), to: w.to.toISOString(), ...r };
    },
  };
}
