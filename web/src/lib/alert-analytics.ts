/**
 * The alert analytics page's data: the range choices and their query, bucket labels, and each report
 * shaped into chart rows (one per bucket). Pure (tested in alert-analytics.test.ts).
 */
import type { Ok } from '../api/client';
import { PRIORITIES, type Priority } from './alert-feed';

export type VolumeReport = Ok<'/api/v1/alerts/analytics/volume'>;
export type ResponseTimeReport = Ok<'/api/v1/alerts/analytics/response-time'>;
export type ResolutionReport = Ok<'/api/v1/alerts/analytics/resolution'>;
export type TopTypesReport = Ok<'/api/v1/alerts/analytics/top-types'>;
export type AlertStats = Ok<'/api/v1/alerts/stats'>;
export type Interval = 'hour' | 'day';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface RangeChoice {
  id: string;
  label: string;
  ms: number;
  /** Intervals that make a readable chart for this range (hourly bars over a month would not). */
  intervals: readonly Interval[];
}

export const RANGES: readonly RangeChoice[] = [
  { id: '24h', label: 'Last 24 hours', ms: DAY, intervals: ['hour'] },
  { id: '7d', label: 'Last 7 days', ms: 7 * DAY, intervals: ['day', 'hour'] },
  { id: '30d', label: 'Last 30 days', ms: 30 * DAY, intervals: ['day'] },
  { id: '90d', label: 'Last 90 days', ms: 90 * DAY, intervals: ['day'] },
];

export const DEFAULT_RANGE = '7d';

export function rangeChoice(id: string): RangeChoice {
  return RANGES.find((r) => r.id === id) ?? RANGES.find((r) => r.id === DEFAULT_RANGE)!;
}

/** The analytics query for a range ending at `now`; an interval the range does not offer becomes its first. */
export function rangeQuery(id: string, interval: string | undefined, now: number): { from: string; to: string; interval: Interval } {
  const r = rangeChoice(id);
  const iv = r.intervals.includes(interval as Interval) ? (interval as Interval) : r.intervals[0]!;
  return { from: new Date(now - r.ms).toISOString(), to: new Date(now).toISOString(), interval: iv };
}

/**
 * A bucket's label. Buckets are UTC hours or days: a day is labelled with its UTC date ("Mar 5"), an
 * hour in the viewer's zone ("Tue 14:00"; `short` leaves out the weekday).
 */
export function bucketLabel(startIso: string, interval: Interval, opts: { timeZone?: string; short?: boolean } = {}): string {
  const ms = Date.parse(startIso);
  if (Number.isNaN(ms)) return '—';
  // The first bucket starts at `from` (clipped): label it by the hour or day it belongs to.
  const d = new Date(ms - (ms % (interval === 'day' ? DAY : HOUR)));
  if (interval === 'day') return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
  return new Intl.DateTimeFormat('en-US', { ...(opts.short ? {} : { weekday: 'short' }), hour: '2-digit', minute: '2-digit', hour12: false, timeZone: opts.timeZone }).format(d);
}

export interface VolumeRow {
  label: string;
  start: string;
  total: number;
  byPriority: Record<Priority, number>;
}

export function volumeRows(report: VolumeReport, timeZone?: string): VolumeRow[] {
  return report.buckets.map((b) => ({
    label: bucketLabel(b.start, report.interval, { timeZone, short: report.buckets.length <= 25 }),
    start: b.start,
    total: b.total,
    byPriority: Object.fromEntries(PRIORITIES.map((p) => [p, b.byPriority[p] ?? 0])) as Record<Priority, number>,
  }));
}

export interface ResponseRow {
  label: string;
  start: string;
  count: number;
  averageMinutes: number | null;
  p90Minutes: number | null;
}

export function responseRows(report: ResponseTimeReport, timeZone?: string): ResponseRow[] {
  return report.buckets.map((b) => ({
    label: bucketLabel(b.start, report.interval, { timeZone, short: report.buckets.length <= 25 }),
    start: b.start,
    count: b.count,
    averageMinutes: b.averageMinutes,
    p90Minutes: b.p90Minutes,
  }));
}

export interface ResolutionRow {
  label: string;
  start: string;
  created: number;
  resolved: number;
  /** 0–100, null when nothing was created in the bucket. */
  ratePercent: number | null;
  averageMinutes: number | null;
}

export function resolutionRows(report: ResolutionReport, timeZone?: string): ResolutionRow[] {
  return report.buckets.map((b) => ({
    label: bucketLabel(b.start, report.interval, { timeZone, short: report.buckets.length <= 25 }),
    start: b.start,
    created: b.created,
    resolved: b.resolved,
    ratePercent: b.resolutionRate === null ? null : Math.round(b.resolutionRate * 1000) / 10,
    averageMinutes: b.averageResolutionMinutes,
  }));
}

/** The response-time targets per priority, with how many were acknowledged within them. */
export function targetRows(report: ResponseTimeReport): Array<{ priority: Priority; count: number; averageMinutes: number | null; targetMinutes: number | null; withinTarget: number | null; withinShare: number | null }> {
  return PRIORITIES.map((p) => {
    const f = report.byPriority[p];
    const count = f?.count ?? 0;
    const within = f?.withinTarget ?? null;
    return { priority: p, count, averageMinutes: f?.averageMinutes ?? null, targetMinutes: f?.targetMinutes ?? null, withinTarget: within, withinShare: within !== null && count > 0 ? within / count : null };
  });
}

/** Minutes as "45 min", "2 h 05 min", "3 d 4 h"; "—" for none. */
export function minutesLabel(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes)) return '—';
  if (minutes < 1) return `${Math.round(minutes * 60)} s`;
  const total = Math.round(minutes);
  if (total < 60) return `${total} min`;
  if (total < 24 * 60) return `${Math.floor(total / 60)} h ${String(total % 60).padStart(2, '0')} min`;
  const hours = Math.round(minutes / 60);
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A 0–1 share as "42.5%"; "—" for none. */
export function percentLabel(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  return `${Math.round(share * 1000) / 10}%`;
}

/** Whether any bucket holds something (else the chart shows its empty state). */
export function anyAlerts(rows: ReadonlyArray<{ total?: number; count?: number; created?: number }>): boolean {
  return rows.some((r) => (r.total ?? r.count ?? r.created ?? 0) > 0);
}

/** The analytics page's address for a range and interval (an interval the range does not offer is left out). */
export function analyticsHref(rangeId: string, interval: string): string {
  return `/alerts/analytics?range=${rangeId}${rangeChoice(rangeId).intervals.includes(interval as Interval) ? `&interval=${interval}` : ''}`;
}

/** The bucket with the most alerts (the first of equals); null when none has any. */
export function busiestRow<T extends { total: number }>(rows: readonly T[]): T | null {
  return rows.reduce<T | null>((m, r) => (r.total > (m?.total ?? 0) ? r : m), null);
}

const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

/** The volume chart's sentence: how many were raised in the range and its busiest bucket. */
export function volumeSummary(rows: readonly VolumeRow[], total: number, rangeText: string, interval: Interval): string {
  const busiest = busiestRow(rows);
  return `${total} ${plural(total, 'alert')} raised in the ${rangeText}${busiest ? `; the busiest ${interval} was ${busiest.label} with ${busiest.total}` : ''}. Bars are split by priority.`;
}

/** The time-to-acknowledge chart's sentence. */
export function responseSummary(overall: Pick<ResponseTimeReport['overall'], 'count' | 'averageMinutes' | 'p90Minutes'>): string {
  if (!overall.count) return 'Minutes from an alert being raised to its acknowledgement.';
  return `${overall.count} ${plural(overall.count, 'alert was', 'alerts were')} acknowledged: on average after ${minutesLabel(overall.averageMinutes)}, 90% within ${minutesLabel(overall.p90Minutes)}.`;
}

type ResolutionTotals = Pick<ResolutionReport['totals'], 'created' | 'resolved' | 'open' | 'resolutionRate' | 'averageResolutionMinutes'>;

/** The resolution-rate chart's sentence. */
export function resolutionRateSummary(t: ResolutionTotals): string {
  return t.created ? `${percentLabel(t.resolutionRate)} of the ${t.created} alerts raised are resolved; ${t.open} still open.` : 'Share of the alerts raised in each period that are resolved now.';
}

/** The resolution-time chart's sentence. */
export function resolutionTimeSummary(t: ResolutionTotals): string {
  return t.resolved ? `Resolved alerts took ${minutesLabel(t.averageResolutionMinutes)} on average from being raised.` : 'Average time from an alert being raised to its resolution.';
}

/** The top-types chart's sentence (`kindLabel` names a type). */
export function topTypesSummary(report: Pick<TopTypesReport, 'total' | 'data'>, kindLabel: (type: string) => string): string {
  const first = report.data[0];
  return first ? `Of ${report.total} alerts, the most common type was ${kindLabel(first.type)} (${first.count}).` : 'The alert types raised most often in this range.';
}
