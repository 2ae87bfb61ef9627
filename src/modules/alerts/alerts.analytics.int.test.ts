import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { seedAlerts } from '../../../test/helpers/alerts.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createTenant, type TenantFixture } from '../../../test/helpers/factories.js';

const zeros = <K extends string>(keys: readonly K[], set: Partial<Record<K, number>> = {}) => Object.fromEntries(keys.map((k) => [k, set[k] ?? 0]));
const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
const CATEGORIES = ['HOS_VIOLATION', 'ROUTE_DEVIATION', 'WEATHER', 'MECHANICAL', 'SCHEDULING', 'SYSTEM'] as const;
const STATUSES = ['ACTIVE', 'ACKNOWLEDGED', 'SNOOZED', 'RESOLVED'] as const;

/**
 * The fixture (times UTC, minutes after creation):
 *   a1 HOS_VIOLATION      CRITICAL 03-01 00:00:00.000  ack 4,  resolved 20 by a user
 *   a2 ROUTE_DEVIATION    MEDIUM   03-01 23:59:59.999  ack 10, resolved 30 by the system
 *   a3 WEATHER_ADVISORY   LOW      03-03 10:00         not acknowledged, resolved 60 by the system
 *   a4 ROUTE_DEVIATION    HIGH     03-03 10:30         ack 20, open
 *   a5 HOS_BREAK_REQUIRED MEDIUM   03-03 11:00         ACTIVE
 *   a6 VEHICLE_BREAKDOWN  CRITICAL 03-04 00:00         ack 2 (outside [03-01, 03-04))
 *   a7 TELEMETRY_STALE    MEDIUM   02-28 23:59:59      SNOOZED (outside)
 * Nothing on 03-02. Another tenant has an alert on 03-01 that must never be counted.
 */
describe.each(DB_KINDS)('alert statistics and analytics (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  const RANGE = 'from=2026-03-01T00:00:00Z&to=2026-03-04T00:00:00Z';

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock: new FakeClock('2026-03-10T12:00:00.000Z') });
    acme = await createTenant(t.app, { name: 'Analytics Haulage' });
    const other = await createTenant(t.app, { name: 'Noise Freight' });
    await seedAlerts(t.db, acme.tenantId, [
      { type: 'HOS_VIOLATION', at: '2026-03-01T00:00:00.000Z', ackAfter: 4, resolveAfter: 20 },
      { type: 'ROUTE_DEVIATION', at: '2026-03-01T23:59:59.999Z', ackAfter: 10, resolveAfter: 30, resolvedBy: 'system' },
      { type: 'WEATHER_ADVISORY', at: '2026-03-03T10:00:00.000Z', resolveAfter: 60, resolvedBy: 'system' },
      { type: 'ROUTE_DEVIATION', priority: 'HIGH', at: '2026-03-03T10:30:00.000Z', ackAfter: 20 },
      { type: 'HOS_BREAK_REQUIRED', at: '2026-03-03T11:00:00.000Z' },
      { type: 'VEHICLE_BREAKDOWN', at: '2026-03-04T00:00:00.000Z', ackAfter: 2 },
      { type: 'TELEMETRY_STALE', at: '2026-02-28T23:59:59.000Z', snoozeFor: 30 },
    ]);
    await seedAlerts(t.db, other.tenantId, [{ type: 'HOS_VIOLATION', at: '2026-03-01T05:00:00.000Z', ackAfter: 1, resolveAfter: 2 }]);
  });
  afterAll(async () => t?.close());

  const get = async (url: string, status = 200) => {
    const res = await t.app.inject({ method: 'GET', url, headers: acme.auth });
    expect(res.statusCode, res.body).toBe(status);
    return res.json<Record<string, unknown>>();
  };

  describe('stats', () => {
    it('counts every status, category and priority (zeros included) and averages response and resolution minutes', async () => {
      expect(await get('/api/v1/alerts/stats')).toEqual({
        total: 7,
        byStatus: zeros(STATUSES, { RESOLVED: 3, ACKNOWLEDGED: 2, ACTIVE: 1, SNOOZED: 1 }),
        byCategory: zeros(CATEGORIES, { HOS_VIOLATION: 2, ROUTE_DEVIATION: 2, WEATHER: 1, MECHANICAL: 1, SYSTEM: 1 }),
        byPriority: zeros(PRIORITIES, { CRITICAL: 2, HIGH: 1, MEDIUM: 3, LOW: 1 }),
        // The HOS category's two alerts: one violation, one break only coming due.
        hos: { violations: 1, limitsReached: 0, approaching: 1 },
        averageResponseTimeMinutes: 9, // (4 + 10 + 20 + 2) / 4
        averageResolutionTimeMinutes: 36.67, // (20 + 30 + 60) / 3
      });
    });

    it('counts HOS limit alerts apart from violations: reached apart from approaching', async () => {
      const hos = await createTenant(t.app, { name: 'Hours Split Haulage' });
      await seedAlerts(t.db, hos.tenantId, [
        { type: 'HOS_APPROACHING_DRIVE_LIMIT', at: '2026-03-05T10:00:00.000Z', metadata: { limitReached: true } },
        { type: 'HOS_APPROACHING_DUTY_LIMIT', at: '2026-03-05T10:01:00.000Z', metadata: { limitReached: false } },
        { type: 'HOS_APPROACHING_CYCLE_LIMIT', at: '2026-03-05T10:02:00.000Z', metadata: { limitReached: false } },
      ]);
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/alerts/stats', headers: hos.auth });
      expect(res.json()).toMatchObject({ total: 3, byCategory: { HOS_VIOLATION: 3 }, hos: { violations: 0, limitsReached: 1, approaching: 2 } });
    });

    it('lists the most urgent first with sort=priority (CRITICAL → LOW, each newest first); newest first by default', async () => {
      const rank = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3 } as const;
      const byPriority = (await get('/api/v1/alerts?sort=priority&pageSize=100')).data as Array<{ type: string; priority: keyof typeof rank; createdAt: string }>;
      expect(byPriority.map((a) => a.type)).toEqual(['VEHICLE_BREAKDOWN', 'HOS_VIOLATION', 'ROUTE_DEVIATION', 'HOS_BREAK_REQUIRED', 'ROUTE_DEVIATION', 'TELEMETRY_STALE', 'WEATHER_ADVISORY']);
      for (let i = 1; i < byPriority.length; i++) {
        const [a, b] = [byPriority[i - 1]!, byPriority[i]!];
        expect(rank[a.priority] < rank[b.priority] || (a.priority === b.priority && a.createdAt >= b.createdAt)).toBe(true);
      }
      const newest = (await get('/api/v1/alerts?pageSize=100')).data as Array<{ createdAt: string }>;
      expect(newest.map((a) => a.createdAt)).toEqual([...newest.map((a) => a.createdAt)].sort().reverse());
      await get('/api/v1/alerts?sort=oldest', 400);
    });

    it('limits to alerts created in [from, to)', async () => {
      expect(await get(`/api/v1/alerts/stats?${RANGE}`)).toMatchObject({
        total: 5,
        byStatus: zeros(STATUSES, { RESOLVED: 3, ACKNOWLEDGED: 1, ACTIVE: 1 }),
        averageResponseTimeMinutes: 11.33, // (4 + 10 + 20) / 3
        averageResolutionTimeMinutes: 36.67,
      });
    });

    it('an empty range: zeros everywhere and null averages', async () => {
      expect(await get('/api/v1/alerts/stats?from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z')).toEqual({
        total: 0,
        byStatus: zeros(STATUSES),
        byCategory: zeros(CATEGORIES),
        byPriority: zeros(PRIORITIES),
        hos: { violations: 0, limitsReached: 0, approaching: 0 },
        averageResponseTimeMinutes: null,
        averageResolutionTimeMinutes: null,
      });
    });

    it('from after to, or an unknown parameter, is a 400', async () => {
      await get('/api/v1/alerts/stats?from=2026-03-03T00:00:00Z&to=2026-03-02T00:00:00Z', 400);
      await get('/api/v1/alerts/stats?interval=day', 400);
    });
  });

  describe('volume', () => {
    it('per UTC day: every bucket (the empty day too), by priority and category; to is exclusive, a boundary instant opens its day', async () => {
      expect(await get(`/api/v1/alerts/analytics/volume?${RANGE}&interval=day`)).toEqual({
        from: '2026-03-01T00:00:00.000Z',
        to: '2026-03-04T00:00:00.000Z',
        interval: 'day',
        total: 5,
        buckets: [
          { start: '2026-03-01T00:00:00.000Z', end: '2026-03-02T00:00:00.000Z', total: 2, byPriority: zeros(PRIORITIES, { CRITICAL: 1, MEDIUM: 1 }), byCategory: zeros(CATEGORIES, { HOS_VIOLATION: 1, ROUTE_DEVIATION: 1 }) },
          { start: '2026-03-02T00:00:00.000Z', end: '2026-03-03T00:00:00.000Z', total: 0, byPriority: zeros(PRIORITIES), byCategory: zeros(CATEGORIES) },
          {
            start: '2026-03-03T00:00:00.000Z',
            end: '2026-03-04T00:00:00.000Z',
            total: 3,
            byPriority: zeros(PRIORITIES, { HIGH: 1, MEDIUM: 1, LOW: 1 }),
            byCategory: zeros(CATEGORIES, { HOS_VIOLATION: 1, ROUTE_DEVIATION: 1, WEATHER: 1 }),
          },
        ],
      });
    });

    it('per hour, with the first and last buckets clipped to from and to', async () => {
      const r = await get('/api/v1/alerts/analytics/volume?from=2026-03-03T09:30:00Z&to=2026-03-03T11:00:00.001Z&interval=hour');
      expect(r).toMatchObject({ interval: 'hour', total: 3 });
      expect((r.buckets as Record<string, unknown>[]).map((b) => [b.start, b.end, b.total])).toEqual([
        ['2026-03-03T09:30:00.000Z', '2026-03-03T10:00:00.000Z', 0],
        ['2026-03-03T10:00:00.000Z', '2026-03-03T11:00:00.000Z', 2],
        ['2026-03-03T11:00:00.000Z', '2026-03-03T11:00:00.001Z', 1],
      ]);
    });

    it('a day range that starts and ends mid-day: the partial days count only what is inside', async () => {
      const r = await get('/api/v1/alerts/analytics/volume?from=2026-03-01T12:00:00Z&to=2026-03-03T10:15:00Z');
      expect((r.buckets as Record<string, unknown>[]).map((b) => [b.start, b.end, b.total])).toEqual([
        ['2026-03-01T12:00:00.000Z', '2026-03-02T00:00:00.000Z', 1],
        ['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', 0],
        ['2026-03-03T00:00:00.000Z', '2026-03-03T10:15:00.000Z', 1],
      ]);
    });

    it('defaults to the last 7 days up to now, per day', async () => {
      // now = 03-10 12:00, so from = 03-03 12:00: a6 (03-04 00:00) is in, a3-a5 (03-03 before noon) are not.
      const r = await get('/api/v1/alerts/analytics/volume');
      expect(r).toMatchObject({ from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', interval: 'day', total: 1 });
      const buckets = r.buckets as Record<string, unknown>[];
      expect(buckets).toHaveLength(8);
      expect(buckets.map((b) => b.total)).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
    });
  });

  it('response time: per bucket average and p90 minutes to acknowledge, and per priority against its target', async () => {
    expect(await get(`/api/v1/alerts/analytics/response-time?${RANGE}`)).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      interval: 'day',
      overall: { count: 3, averageMinutes: 11.33, p90Minutes: 18 }, // [4, 10, 20]: 10 + 0.8 × 10
      byPriority: {
        CRITICAL: { count: 1, averageMinutes: 4, p90Minutes: 4, targetMinutes: 5, withinTarget: 1 },
        HIGH: { count: 1, averageMinutes: 20, p90Minutes: 20, targetMinutes: 15, withinTarget: 0 },
        MEDIUM: { count: 1, averageMinutes: 10, p90Minutes: 10, targetMinutes: 60, withinTarget: 1 },
        LOW: { count: 0, averageMinutes: null, p90Minutes: null, targetMinutes: null, withinTarget: null },
      },
      buckets: [
        { start: '2026-03-01T00:00:00.000Z', end: '2026-03-02T00:00:00.000Z', count: 2, averageMinutes: 7, p90Minutes: 9.4 }, // [4, 10]: 4 + 0.9 × 6
        { start: '2026-03-02T00:00:00.000Z', end: '2026-03-03T00:00:00.000Z', count: 0, averageMinutes: null, p90Minutes: null },
        { start: '2026-03-03T00:00:00.000Z', end: '2026-03-04T00:00:00.000Z', count: 1, averageMinutes: 20, p90Minutes: 20 },
      ],
    });
  });

  it('resolution: per bucket created, resolved, rate and average minutes; totals split between the system and people', async () => {
    expect(await get(`/api/v1/alerts/analytics/resolution?${RANGE}&interval=day`)).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      interval: 'day',
      totals: { created: 5, resolved: 3, resolutionRate: 0.6, averageResolutionMinutes: 36.67, open: 2, resolvedBySystem: 2, resolvedByUsers: 1 },
      buckets: [
        { start: '2026-03-01T00:00:00.000Z', end: '2026-03-02T00:00:00.000Z', created: 2, resolved: 2, resolutionRate: 1, averageResolutionMinutes: 25 },
        { start: '2026-03-02T00:00:00.000Z', end: '2026-03-03T00:00:00.000Z', created: 0, resolved: 0, resolutionRate: null, averageResolutionMinutes: null },
        { start: '2026-03-03T00:00:00.000Z', end: '2026-03-04T00:00:00.000Z', created: 3, resolved: 1, resolutionRate: 0.3333, averageResolutionMinutes: 60 },
      ],
    });
  });

  it('top types: most common first (ties by name) with share, category, resolved count and average resolution minutes', async () => {
    expect(await get(`/api/v1/alerts/analytics/top-types?${RANGE}`)).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      total: 5,
      data: [
        { type: 'ROUTE_DEVIATION', category: 'ROUTE_DEVIATION', count: 2, share: 0.4, resolved: 1, averageResolutionMinutes: 30 },
        { type: 'HOS_BREAK_REQUIRED', category: 'HOS_VIOLATION', count: 1, share: 0.2, resolved: 0, averageResolutionMinutes: null },
        { type: 'HOS_VIOLATION', category: 'HOS_VIOLATION', count: 1, share: 0.2, resolved: 1, averageResolutionMinutes: 20 },
        { type: 'WEATHER_ADVISORY', category: 'WEATHER', count: 1, share: 0.2, resolved: 1, averageResolutionMinutes: 60 },
      ],
    });
    const two = await get(`/api/v1/alerts/analytics/top-types?${RANGE}&limit=2`);
    expect(two).toMatchObject({ total: 5 });
    expect((two.data as { type: string }[]).map((d) => d.type)).toEqual(['ROUTE_DEVIATION', 'HOS_BREAK_REQUIRED']);
    expect(await get('/api/v1/alerts/analytics/top-types?from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z')).toMatchObject({ total: 0, data: [] });
  });

  describe('range validation', () => {
    const base = '/api/v1/alerts/analytics';
    it.each(['volume', 'response-time', 'resolution', 'top-types'])('%s: from not before to, over 366 days, or a bad timestamp is a 400', async (path) => {
      for (const q of ['from=2026-03-02T00:00:00Z&to=2026-03-02T00:00:00Z', 'from=2026-03-03T00:00:00Z&to=2026-03-02T00:00:00Z', 'from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', 'from=last-week']) {
        const body = await get(`${base}/${path}?${q}`, 400);
        expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
      }
      // A whole year of 366 days is fine.
      await get(`${base}/${path}?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z`);
    });

    it('at most 2,000 buckets: 2,000 hours pass, 2,001 do not; an unknown interval is a 400', async () => {
      const from = Date.parse('2026-01-01T00:00:00Z');
      const hours = (n: number) => `from=2026-01-01T00:00:00Z&to=${new Date(from + n * 3_600_000).toISOString()}&interval=hour`;
      expect((await get(`${base}/volume?${hours(2000)}`)).buckets).toHaveLength(2000);
      const tooMany = await get(`${base}/volume?${hours(2001)}`, 400);
      expect(tooMany).toMatchObject({ details: [{ field: 'querystring.interval', message: expect.stringContaining('2001 hour buckets') }] });
      await get(`${base}/resolution?${hours(2001)}`, 400);
      await get(`${base}/volume?interval=week`, 400);
      await get(`${base}/top-types?limit=0`, 400);
      await get(`${base}/top-types?limit=21`, 400);
      await get(`${base}/top-types?interval=day`, 400);
    });
  });
});
