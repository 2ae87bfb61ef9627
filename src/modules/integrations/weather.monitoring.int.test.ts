/**
 * End to end, with the built-in adapters pointed at their sandboxes by OPENWEATHER_BASE_URL and
 * NWS_BASE_URL: a route activated through the API, weather put on points ahead of it by the sandboxes,
 * one sync pass and one monitoring pass — SEVERE_WEATHER_IN_PATH for a Winter Storm Warning (with
 * WEATHER_DELAY when it covers enough of the road), WEATHER_ADVISORY for a minor advisory; lifted
 * weather resolves the alerts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNwsSandbox, type NwsSandbox } from '../../adapters/integrations/nws/sandbox.js';
import { OPENWEATHER_SANDBOX_KEY, startOpenWeatherSandbox, type OpenWeatherSandbox } from '../../adapters/integrations/openweather/sandbox.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, runSyncPass, type IntegrationHarness } from '../../../test/helpers/integrations.js';
import { activeRoute, OKLAHOMA_CITY } from '../../../test/helpers/weather.js';

const unix = (iso: string): number => Date.parse(iso) / 1000;
/** Between Dallas and Oklahoma City, on the planned path (about 95 miles ahead of Dallas). */
const MIDWAY = { latitude: 34.12, longitude: -97.16 };

describe.each(DB_KINDS)('weather alerts end to end (%s)', (kind) => {
  let t: TestApp;
  let ow: OpenWeatherSandbox;
  let nws: NwsSandbox;
  let h: IntegrationHarness;
  const clock = new FakeClock('2026-03-02T14:20:00.000Z');

  beforeAll(async () => {
    ow = await startOpenWeatherSandbox({ now: () => clock.now() });
    nws = await startNwsSandbox({ now: () => clock.now() });
    t = await buildTestApp(kind, { clock, env: { OPENWEATHER_BASE_URL: ow.url, NWS_BASE_URL: nws.url }, integrationAdapters: 'built-in' });
    const tenant = await createTenant(t.app, { name: 'Weather Watch Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    await ow?.close();
    await nws?.close();
  });

  const weatherAlerts = async (routeId: string) =>
    ((await apiCall(h, 'GET', `/api/v1/alerts?routePlanId=${routeId}&category=WEATHER`)).data as { type: string; status: string; priority: string; title: string; metadata: Record<string, unknown> }[])
      .map((a) => ({ type: a.type, status: a.status, priority: a.priority, title: a.title, metadata: a.metadata }))
      .sort((a, b) => a.type.localeCompare(b.type));

  /** Syncs every weather integration now, then checks the routes. */
  async function syncAndMonitor(ids: string[]): Promise<void> {
    clock.advance(2 * 60_000);
    for (const id of ids) await apiCall(h, 'POST', `/api/v1/integrations/${id}/sync`);
    await runSyncPass(h);
    for (const id of ids) expect((await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).status).toBe('ACTIVE');
    await t.app.workers.get('monitoring').worker.runOnce(clock.now());
  }

  it('a Winter Storm Warning ahead raises SEVERE_WEATHER_IN_PATH and WEATHER_DELAY; a minor advisory WEATHER_ADVISORY; lifted, they resolve', async () => {
    const { routeId } = await activeRoute(h);
    // The driver app reports the truck leaving Dallas.
    await apiCall(h, 'POST', `/api/v1/routes/${routeId}/positions`, { latitude: 32.78, longitude: -96.8, speedMph: 55 });
    const openweather = await connectIntegration(h, 'openweather', { apiKey: OPENWEATHER_SANDBOX_KEY });
    await syncAndMonitor([openweather]);
    expect(await weatherAlerts(routeId)).toEqual([]);

    // A Winter Storm Warning over the last 60 miles to Oklahoma City (two sampled points).
    ow.state.zones.push({
      ...OKLAHOMA_CITY,
      radiusMiles: 60,
      alerts: [{ sender_name: 'NWS Norman (Central and Southern Oklahoma)', event: 'Winter Storm Warning', start: unix('2026-03-02T13:00:00Z'), end: unix('2026-03-03T18:00:00Z'), description: '...WINTER STORM WARNING...', tags: ['Snow/Ice'] }],
    });
    await syncAndMonitor([openweather]);
    const severe = await weatherAlerts(routeId);
    expect(severe.map((a) => [a.type, a.status, a.priority])).toEqual([
      ['SEVERE_WEATHER_IN_PATH', 'ACTIVE', 'HIGH'],
      ['WEATHER_DELAY', 'ACTIVE', 'MEDIUM'],
    ]);
    expect(severe[0]!.title).toMatch(/^Severe weather ahead: Winter Storm Warning in \d+/);
    expect(severe[0]!.metadata).toMatchObject({ worstSeverity: 'SEVERE', hazards: expect.arrayContaining([expect.objectContaining({ event: 'Winter Storm Warning', source: 'openweather', severity: 'SEVERE', endsAt: '2026-03-03T18:00:00.000Z' })]) });
    // The nearer of its two points is about 140 miles ahead of the truck.
    expect(severe[0]!.metadata.nearestMilesAhead as number).toBeGreaterThan(100);
    expect(severe[0]!.metadata.nearestMilesAhead as number).toBeLessThan(170);
    expect(severe[1]!.metadata.weatherDelayHours as number).toBeGreaterThanOrEqual(0.5);

    // The National Weather Service too, with a Wind Advisory (Minor) at the midpoint.
    nws.state.zones.push({ ...MIDWAY, radiusMiles: 25, alerts: [{ event: 'Wind Advisory', severity: 'Minor', onset: '2026-03-02T14:00:00Z', ends: '2026-03-02T22:00:00Z', headline: 'Wind Advisory issued March 2 by NWS Norman OK' }] });
    const nwsId = await connectIntegration(h, 'nws', { contactEmail: 'dispatch@fleet.example' });
    await syncAndMonitor([openweather, nwsId]);
    const advisory = (await weatherAlerts(routeId)).find((a) => a.type === 'WEATHER_ADVISORY');
    expect(advisory).toMatchObject({ status: 'ACTIVE', priority: 'LOW', title: expect.stringMatching(/^Weather advisory ahead: Wind Advisory in \d+/), metadata: { hazards: [expect.objectContaining({ event: 'Wind Advisory', severity: 'MINOR', source: 'nws' })] } });

    // The weather clears: every weather alert resolves.
    ow.state.zones.length = 0;
    nws.state.zones.length = 0;
    await syncAndMonitor([openweather, nwsId]);
    expect((await weatherAlerts(routeId)).map((a) => [a.type, a.status])).toEqual([
      ['SEVERE_WEATHER_IN_PATH', 'RESOLVED'],
      ['WEATHER_ADVISORY', 'RESOLVED'],
      ['WEATHER_DELAY', 'RESOLVED'],
    ]);
  });
});
