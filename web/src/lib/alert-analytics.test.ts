import { describe, expect, it } from 'vitest';
import {
  analyticsHref,
  anyAlerts,
  bucketLabel,
  busiestRow,
  minutesLabel,
  percentLabel,
  rangeChoice,
  rangeQuery,
  resolutionRateSummary,
  resolutionRows,
  resolutionTimeSummary,
  responseRows,
  responseSummary,
  targetRows,
  topTypesSummary,
  volumeRows,
  volumeSummary,
  type ResolutionReport,
  type ResponseTimeReport,
  type VolumeReport,
} from './alert-analytics';

const counts = (c = 0, h = 0, m = 0, l = 0) => ({ CRITICAL: c, HIGH: h, MEDIUM: m, LOW: l });
const categories = { HOS_VIOLATION: 0, ROUTE_DEVIATION: 0, WEATHER: 0, MECHANICAL: 0, SCHEDULING: 0, SYSTEM: 0 };

describe('alert analytics data', () => {
  it('turns a range choice into the query, keeping only intervals the range offers', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(rangeQuery('24h', 'day', now)).toEqual({ from: '2026-03-09T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', interval: 'hour' });
    expect(rangeQuery('7d', 'hour', now)).toEqual({ from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', interval: 'hour' });
    expect(rangeQuery('7d', undefined, now).interval).toBe('day');
    expect(rangeQuery('90d', 'hour', now)).toMatchObject({ from: '2025-12-10T12:00:00.000Z', interval: 'day' });
    expect(rangeChoice('nonsense').id).toBe('7d');
  });

  it('labels days by their UTC date and hours in the viewer’s zone', () => {
    expect(bucketLabel('2026-03-05T00:00:00.000Z', 'day')).toBe('Mar 5');
    expect(bucketLabel('2026-03-05T15:00:00.000Z', 'hour', { timeZone: 'America/Chicago' })).toBe('Thu 09:00');
    expect(bucketLabel('2026-03-05T15:00:00.000Z', 'hour', { timeZone: 'UTC', short: true })).toBe('15:00');
    expect(bucketLabel('garbage', 'day')).toBe('—');
    // A first bucket clipped to the range's start is labelled by its hour or day.
    expect(bucketLabel('2026-03-05T15:57:12.345Z', 'hour', { timeZone: 'UTC', short: true })).toBe('15:00');
    expect(bucketLabel('2026-03-05T23:57:00.000Z', 'day')).toBe('Mar 5');
  });

  it('shapes volume buckets into stacked rows by priority', () => {
    const report: VolumeReport = {
      from: '2026-03-04T00:00:00.000Z',
      to: '2026-03-06T00:00:00.000Z',
      interval: 'day',
      total: 4,
      buckets: [
        { start: '2026-03-04T00:00:00.000Z', end: '2026-03-05T00:00:00.000Z', total: 0, byPriority: counts(), byCategory: categories },
        { start: '2026-03-05T00:00:00.000Z', end: '2026-03-06T00:00:00.000Z', total: 4, byPriority: counts(1, 2, 0, 1), byCategory: categories },
      ],
    };
    expect(volumeRows(report)).toEqual([
      { label: 'Mar 4', start: '2026-03-04T00:00:00.000Z', total: 0, byPriority: counts() },
      { label: 'Mar 5', start: '2026-03-05T00:00:00.000Z', total: 4, byPriority: counts(1, 2, 0, 1) },
    ]);
    expect(anyAlerts(volumeRows(report))).toBe(true);
    expect(anyAlerts(volumeRows({ ...report, buckets: [report.buckets[0]!] }))).toBe(false);
  });

  it('shapes response times, keeping gaps where nothing was acknowledged, and the per-priority targets', () => {
    const figures = (count: number, avg: number | null) => ({ count, averageMinutes: avg, p90Minutes: avg === null ? null : avg * 2 });
    const report: ResponseTimeReport = {
      from: '2026-03-05T10:00:00.000Z',
      to: '2026-03-05T12:00:00.000Z',
      interval: 'hour',
      overall: figures(3, 4),
      byPriority: {
        CRITICAL: { ...figures(2, 3), targetMinutes: 5, withinTarget: 1 },
        HIGH: { ...figures(1, 6), targetMinutes: 15, withinTarget: 1 },
        MEDIUM: { ...figures(0, null), targetMinutes: 60, withinTarget: 0 },
        LOW: { ...figures(0, null), targetMinutes: null, withinTarget: null },
      },
      buckets: [
        { start: '2026-03-05T10:00:00.000Z', end: '2026-03-05T11:00:00.000Z', ...figures(0, null) },
        { start: '2026-03-05T11:00:00.000Z', end: '2026-03-05T12:00:00.000Z', ...figures(3, 4) },
      ],
    };
    const rows = responseRows(report, 'UTC');
    expect(rows.map((r) => [r.label, r.count, r.averageMinutes, r.p90Minutes])).toEqual([
      ['10:00', 0, null, null],
      ['11:00', 3, 4, 8],
    ]);
    expect(targetRows(report)).toEqual([
      { priority: 'CRITICAL', count: 2, averageMinutes: 3, targetMinutes: 5, withinTarget: 1, withinShare: 0.5 },
      { priority: 'HIGH', count: 1, averageMinutes: 6, targetMinutes: 15, withinTarget: 1, withinShare: 1 },
      { priority: 'MEDIUM', count: 0, averageMinutes: null, targetMinutes: 60, withinTarget: 0, withinShare: null },
      { priority: 'LOW', count: 0, averageMinutes: null, targetMinutes: null, withinTarget: null, withinShare: null },
    ]);
  });

  it('shapes resolution cohorts into percentages', () => {
    const report: ResolutionReport = {
      from: '2026-03-05T00:00:00.000Z',
      to: '2026-03-07T00:00:00.000Z',
      interval: 'day',
      totals: { created: 3, resolved: 2, resolutionRate: 0.6667, averageResolutionMinutes: 30, open: 1, resolvedBySystem: 1, resolvedByUsers: 1 },
      buckets: [
        { start: '2026-03-05T00:00:00.000Z', end: '2026-03-06T00:00:00.000Z', created: 3, resolved: 2, resolutionRate: 0.6667, averageResolutionMinutes: 30 },
        { start: '2026-03-06T00:00:00.000Z', end: '2026-03-07T00:00:00.000Z', created: 0, resolved: 0, resolutionRate: null, averageResolutionMinutes: null },
      ],
    };
    expect(resolutionRows(report)).toEqual([
      { label: 'Mar 5', start: '2026-03-05T00:00:00.000Z', created: 3, resolved: 2, ratePercent: 66.7, averageMinutes: 30 },
      { label: 'Mar 6', start: '2026-03-06T00:00:00.000Z', created: 0, resolved: 0, ratePercent: null, averageMinutes: null },
    ]);
  });

  it('formats durations and shares', () => {
    expect([null, 0.5, 4.4, 59.6, 65, 125.2, 1440, 3000].map(minutesLabel)).toEqual(['—', '30 s', '4 min', '1 h 00 min', '1 h 05 min', '2 h 05 min', '1 d 0 h', '2 d 2 h']);
    expect([null, 0, 0.6667, 1].map(percentLabel)).toEqual(['—', '0%', '66.7%', '100%']);
  });

  it('keeps only an interval the range offers in the page address', () => {
    expect(analyticsHref('7d', 'hour')).toBe('/alerts/analytics?range=7d&interval=hour');
    expect(analyticsHref('30d', 'hour')).toBe('/alerts/analytics?range=30d');
    expect(analyticsHref('24h', 'hour')).toBe('/alerts/analytics?range=24h&interval=hour');
  });

  it('words each chart’s summary', () => {
    const rows = [
      { label: 'Mar 4', total: 2 },
      { label: 'Mar 5', total: 5 },
      { label: 'Mar 6', total: 5 },
    ];
    expect(busiestRow(rows)?.label).toBe('Mar 5');
    expect(busiestRow([{ label: 'Mar 4', total: 0 }])).toBeNull();
    const volume = rows.map((r) => ({ ...r, start: r.label, byPriority: counts(r.total) }));
    expect(volumeSummary(volume, 12, 'last 7 days', 'day')).toBe('12 alerts raised in the last 7 days; the busiest day was Mar 5 with 5. Bars are split by priority.');
    expect(volumeSummary([], 1, 'last 24 hours', 'hour')).toBe('1 alert raised in the last 24 hours. Bars are split by priority.');

    expect(responseSummary({ count: 1, averageMinutes: 4, p90Minutes: 4 })).toBe('1 alert was acknowledged: on average after 4 min, 90% within 4 min.');
    expect(responseSummary({ count: 3, averageMinutes: 75, p90Minutes: 130 })).toBe('3 alerts were acknowledged: on average after 1 h 15 min, 90% within 2 h 10 min.');
    expect(responseSummary({ count: 0, averageMinutes: null, p90Minutes: null })).toBe('Minutes from an alert being raised to its acknowledgement.');

    const totals = { created: 3, resolved: 2, resolutionRate: 0.6667, averageResolutionMinutes: 30, open: 1 };
    expect(resolutionRateSummary(totals)).toBe('66.7% of the 3 alerts raised are resolved; 1 still open.');
    expect(resolutionTimeSummary(totals)).toBe('Resolved alerts took 30 min on average from being raised.');
    const none = { created: 0, resolved: 0, resolutionRate: null, averageResolutionMinutes: null, open: 0 };
    expect(resolutionRateSummary(none)).toBe('Share of the alerts raised in each period that are resolved now.');
    expect(resolutionTimeSummary(none)).toBe('Average time from an alert being raised to its resolution.');

    const name = (t: string) => t.toLowerCase();
    expect(topTypesSummary({ total: 9, data: [{ type: 'LOW_FUEL', count: 6 }] } as never, name)).toBe('Of 9 alerts, the most common type was low_fuel (6).');
    expect(topTypesSummary({ total: 0, data: [] }, name)).toBe('The alert types raised most often in this range.');
  });
});
