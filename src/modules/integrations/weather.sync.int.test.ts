/**
 * What a weather sync stores, through the public API against the sandboxes: one route_signals row per
 * route and integration (kind WEATHER, source the vendor key) whose data maps every field of the
 * vendor's alerts and forecast hazards; a repeated sync changes nothing (not even observed_at); a
 * change in the weather updates the row; a route no longer sampled loses its row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NwsAdapter } from '../../adapters/integrations/nws/adapter.js';
import { startNwsSandbox, type NwsSandbox } from '../../adapters/integrations/nws/sandbox.js';
import { OpenWeatherAdapter } from '../../adapters/integrations/openweather/adapter.js';
import { OPENWEATHER_SANDBOX_KEY, startOpenWeatherSandbox, type OpenWeatherSandbox } from '../../adapters/integrations/openweather/sandbox.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, runSyncPass, type IntegrationHarness } from '../../../test/helpers/integrations.js';
import { haversineMiles } from '../../domain/geo/index.js';
import { activeRoute, OKLAHOMA_CITY, SyncContextSpy, weatherRow } from '../../../test/helpers/weather.js';

const NOW = '2026-03-02T14:20:00.000Z';
const unix = (iso: string): number => Date.parse(iso) / 1000;
/** Delay of `miles` at a speed reduced by `reduction` from the 55 mph cruise. */
const delay = (miles: number, reduction: number): number => (miles / 55) * (1 / (1 - reduction) - 1);

describe.each(DB_KINDS)('weather syncs store route signals (%s)', (kind) => {
  let t: TestApp;
  let ow: OpenWeatherSandbox;
  let nws: NwsSandbox;
  const spy = new SyncContextSpy();
  const clock = new FakeClock(NOW);
  const http = { timeoutMs: 1000, maxAttempts: 2, sleep: async () => {} };

  beforeAll(async () => {
    ow = await startOpenWeatherSandbox({ now: () => clock.now() });
    nws = await startNwsSandbox({ now: () => clock.now() });
    t = await buildTestApp(kind, { clock, integrationAdapters: [spy.wrap(new OpenWeatherAdapter({ baseUrl: ow.url, ...http })), spy.wrap(new NwsAdapter({ baseUrl: nws.url, ...http }))] });
  });
  afterAll(async () => {
    await t?.close();
    await ow?.close();
    await nws?.close();
  });

  async function tenant(name: string): Promise<IntegrationHarness> {
    const fixture = await createTenant(t.app, { name });
    return { t, auth: { 'x-api-key': (await createApiKey(t.app, fixture)).key } };
  }

  /** Asks for a sync now (POST …/sync), runs the worker, returns the counts it recorded. */
  async function syncNow(h: IntegrationHarness, id: string): Promise<Record<string, number>> {
    clock.advance(1000);
    await apiCall(h, 'POST', `/api/v1/integrations/${id}/sync`);
    await runSyncPass(h);
    const row = await apiCall(h, 'GET', `/api/v1/integrations/${id}`);
    expect(row).toMatchObject({ status: 'ACTIVE', lastError: null });
    return row.lastSyncCounts;
  }

  it('openweather: every field mapped; a repeated sync changes nothing; changed weather updates; a route no longer sampled loses its row', async () => {
    const h = await tenant('OpenWeather Freight');
    const { routeId } = await activeRoute(h);
    ow.state.zones.push({
      ...OKLAHOMA_CITY,
      radiusMiles: 30,
      alerts: [{ sender_name: 'NWS Norman (Central and Southern Oklahoma)', event: 'Winter Storm Warning', start: unix('2026-03-02T13:00:00Z'), end: unix('2026-03-03T18:00:00Z'), description: '...WINTER STORM WARNING...', tags: ['Snow/Ice'] }],
      hours: {
        2: { weather: [{ id: 602, main: 'Snow', description: 'heavy snow' }], wind_gust: 50 },
        3: { weather: [{ id: 622, main: 'Snow', description: 'heavy shower snow' }] },
        5: { visibility: 300 },
      },
    });
    const before = ow.state.requests.length;
    const id = await connectIntegration(h, 'openweather', { apiKey: OPENWEATHER_SANDBOX_KEY });
    await runSyncPass(h);
    const firstSyncAt = clock.now().toISOString();
    // The worker sampled the route every ≤ 50 miles from Dallas to Oklahoma City: one call per point after the test's.
    const points = spy.pointsOf(routeId);
    expect(points.length).toBeGreaterThanOrEqual(4);
    expect(ow.state.requests.slice(before).map((r) => r.path)).toEqual(Array(points.length + 1).fill('/data/3.0/onecall'));
    expect((await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).lastSyncCounts).toEqual({
      points: points.length,
      alerts: 1,
      forecastHazards: 3,
      routesCreated: 1,
      routesUpdated: 0,
      routesUnchanged: 0,
      routesRemoved: 0,
      routesUncovered: 0,
    });

    // Only the last point (Oklahoma City) is in the zone; it stands for half the way to the point before.
    const last = points.at(-1)!;
    expect(haversineMiles(last, OKLAHOMA_CITY)).toBeLessThan(0.5);
    const at = { latitude: last.latitude, longitude: last.longitude };
    const row = await weatherRow(h, routeId, id);
    expect(row).toEqual({
      source: 'openweather',
      observedAt: firstSyncAt,
      data: {
        hazards: [
          { severity: 'SEVERE', event: 'Winter Storm Warning', headline: 'Winter Storm Warning issued by NWS Norman (Central and Southern Oklahoma) until Tue, Mar 3, 12:00 CST', startsAt: '2026-03-02T13:00:00.000Z', endsAt: '2026-03-03T18:00:00.000Z', ...at },
          { severity: 'SEVERE', event: 'Heavy snow (forecast)', headline: 'Heavy snow forecast from 2026-03-02 16:00 UTC to 2026-03-02 18:00 UTC', startsAt: '2026-03-02T16:00:00.000Z', endsAt: '2026-03-02T18:00:00.000Z', ...at },
          { severity: 'MODERATE', event: 'High wind (forecast)', headline: 'Wind gusts up to 50 mph forecast from 2026-03-02 16:00 UTC to 2026-03-02 17:00 UTC', startsAt: '2026-03-02T16:00:00.000Z', endsAt: '2026-03-02T17:00:00.000Z', ...at },
          { severity: 'SEVERE', event: 'Low visibility (forecast)', headline: 'Visibility down to 0.2 mi forecast from 2026-03-02 19:00 UTC to 2026-03-02 20:00 UTC', startsAt: '2026-03-02T19:00:00.000Z', endsAt: '2026-03-02T20:00:00.000Z', ...at },
        ],
        // Oklahoma City's half gap at SEVERE (40 % slower).
        delayHours: expect.closeTo(delay(haversineMiles(points.at(-2)!, last) / 2, 0.4), 2),
      },
    });

    // The same weather again: nothing written, observed_at untouched.
    expect(await syncNow(h, id)).toMatchObject({ points: points.length, routesCreated: 0, routesUpdated: 0, routesUnchanged: 1, routesRemoved: 0 });
    expect(await weatherRow(h, routeId, id)).toEqual(row);

    // The warning is lifted: the row is rewritten.
    ow.state.zones[0]!.alerts = [];
    expect(await syncNow(h, id)).toMatchObject({ alerts: 0, routesUpdated: 1, routesUnchanged: 0 });
    const lifted = await weatherRow(h, routeId, id);
    expect(lifted!.observedAt).toBe(clock.now().toISOString());
    expect((lifted!.data as { hazards: { event: string }[] }).hazards.map((x) => x.event)).toEqual(['Heavy snow (forecast)', 'High wind (forecast)', 'Low visibility (forecast)']);

    // The route is cancelled: no longer sampled, its row goes.
    await apiCall(h, 'POST', `/api/v1/routes/${routeId}/cancel`, { reason: 'load withdrawn' });
    expect(await syncNow(h, id)).toMatchObject({ points: 0, routesRemoved: 1 });
    expect(await weatherRow(h, routeId, id)).toBeNull();
    ow.state.zones.length = 0;
  });

  it('nws: every field mapped, the forecast grid looked up once per point, the User-Agent sent; a repeated sync changes nothing', async () => {
    const h = await tenant('NWS Freight');
    const { routeId } = await activeRoute(h);
    const before = nws.state.requests.length;
    const id = await connectIntegration(h, 'nws', { contactEmail: 'dispatch@fleet.example' });
    await runSyncPass(h);

    // Clear weather: per sampled point its alerts, its grid cell and its forecast; a row with nothing in it.
    const points = spy.pointsOf(routeId);
    const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
    const first = nws.state.requests.slice(before);
    expect(first.filter((r) => r.path === '/alerts/active').map((r) => r.query.point)).toEqual(points.map((p) => `${round4(p.latitude)},${round4(p.longitude)}`));
    expect(first.filter((r) => r.path.startsWith('/points/'))).toHaveLength(points.length);
    expect(first.filter((r) => r.path.endsWith('/forecast/hourly'))).toHaveLength(points.length);
    expect(nws.state.userAgents.at(-1)).toBe('FleetHosService/0.1 (dispatch@fleet.example)');
    expect(await weatherRow(h, routeId, id)).toMatchObject({ source: 'nws', data: { hazards: [], delayHours: 0 } });

    // Weather over the middle point only (the points are under 50 miles apart, the zone 20 miles wide).
    const i = Math.floor(points.length / 2);
    const mid = points[i]!;
    nws.state.zones.push({
      latitude: mid.latitude,
      longitude: mid.longitude,
      radiusMiles: 20,
      alerts: [
        { event: 'Tornado Warning', severity: 'Extreme', onset: '2026-03-02T08:10:00-06:00', ends: '2026-03-02T09:00:00-06:00', headline: 'Tornado Warning issued March 2 at 8:10AM CST until March 2 at 9:00AM CST by NWS Norman OK', description: 'At 808 AM CST, a severe thunderstorm capable of producing a tornado…' },
        { event: 'Winter Weather Advisory', severity: 'Minor', onset: null, effective: '2026-03-02T14:00:00Z', ends: null, expires: '2026-03-03T00:00:00Z', headline: null },
        { event: 'Tornado Warning', severity: 'Extreme', onset: '2026-03-02T08:10:00-06:00', ends: '2026-03-02T09:00:00-06:00', status: 'Test' },
      ],
      periods: { 1: { shortForecast: 'Freezing Rain', windSpeed: '35 to 50 mph' }, 2: { shortForecast: 'Chance Freezing Rain' } },
    });
    const second = nws.state.requests.length;
    expect(await syncNow(h, id)).toMatchObject({ points: points.length, alerts: 2, forecastHazards: 2, routesCreated: 0, routesUpdated: 1, routesUnchanged: 0 });
    // The grid cells are known now: alerts and forecasts only.
    expect(nws.state.requests.slice(second).filter((r) => r.path.startsWith('/points/'))).toHaveLength(0);

    const at = { latitude: mid.latitude, longitude: mid.longitude };
    const row = await weatherRow(h, routeId, id);
    expect(row).toEqual({
      source: 'nws',
      observedAt: clock.now().toISOString(),
      data: {
        // By start: the advisory began at 14:00, the warning at 14:10 (08:10 CST); the Test message is not there.
        hazards: [
          { severity: 'MINOR', event: 'Winter Weather Advisory', headline: 'Winter Weather Advisory', startsAt: '2026-03-02T14:00:00.000Z', endsAt: '2026-03-03T00:00:00.000Z', ...at },
          { severity: 'EXTREME', event: 'Tornado Warning', headline: 'Tornado Warning issued March 2 at 8:10AM CST until March 2 at 9:00AM CST by NWS Norman OK', startsAt: '2026-03-02T14:10:00.000Z', endsAt: '2026-03-02T15:00:00.000Z', ...at },
          { severity: 'SEVERE', event: 'Freezing rain (forecast)', headline: 'Freezing rain forecast from 2026-03-02 15:00 UTC to 2026-03-02 16:00 UTC', startsAt: '2026-03-02T15:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z', ...at },
          { severity: 'MODERATE', event: 'High wind (forecast)', headline: 'Wind gusts up to 50 mph forecast from 2026-03-02 15:00 UTC to 2026-03-02 16:00 UTC', startsAt: '2026-03-02T15:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z', ...at },
        ],
        // The middle point stands for half the way to each neighbour, at EXTREME (60 % slower).
        delayHours: expect.closeTo(delay((haversineMiles(points[i - 1]!, mid) + haversineMiles(mid, points[i + 1]!)) / 2, 0.6), 2),
      },
    });

    expect(await syncNow(h, id)).toMatchObject({ points: points.length, alerts: 2, routesCreated: 0, routesUpdated: 0, routesUnchanged: 1 });
    expect(await weatherRow(h, routeId, id)).toEqual(row);
    nws.state.zones.length = 0;
  });
});
