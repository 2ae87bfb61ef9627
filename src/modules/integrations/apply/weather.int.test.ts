/**
 * The weather applier's edges on both databases: routes the call cap left unasked keep their row; a
 * route deleted while the vendor was being asked is skipped (no foreign-key failure); only this
 * integration's rows are touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeatherSyncResult } from '../../../adapters/integrations/port.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { FakeClock } from '../../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../../test/helpers/db.js';
import { createActiveRoute, createApiKey, createTenant } from '../../../../test/helpers/factories.js';
import { connectIntegration, FAKE_VENDOR, type IntegrationHarness } from '../../../../test/helpers/integrations.js';
import { applyWeather } from './weather.js';

describe.each(DB_KINDS)('applyWeather (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  let tenantId: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock: new FakeClock('2026-03-02T14:20:00.000Z') });
    const tenant = await createTenant(t.app, { name: 'Applier Freight' });
    tenantId = tenant.tenantId;
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => t?.close());

  const point = (routeId: string, event: string): WeatherSyncResult['points'][number] => ({
    routeId,
    latitude: 35,
    longitude: -97,
    alerts: [{ event, severity: 'SEVERE', start: '2026-03-02T13:00:00Z', end: null, description: '', headline: event }],
    forecastHazards: [],
  });
  const rows = async () =>
    (await t.db.system((tx) => tx.query<{ route_id: string; integration_id: string; data: { hazards: { event: string }[] } }>(`SELECT route_id, integration_id, data FROM route_signals WHERE tenant_id = $1`, [tenantId]))).rows.map(
      (r) => [r.route_id, r.integration_id, (typeof r.data === 'string' ? JSON.parse(r.data) : r.data).hazards.map((x: { event: string }) => x.event).join()],
    );

  it('keeps uncovered routes, skips deleted ones, removes the rest, and leaves other integrations alone', async () => {
    const a = (await createActiveRoute(t.app, h.auth, { departureTime: t.clock.now().toISOString() })).routeId;
    const b = (await createActiveRoute(t.app, h.auth, { departureTime: t.clock.now().toISOString() })).routeId;
    const c = (await createActiveRoute(t.app, h.auth, { departureTime: t.clock.now().toISOString() })).routeId;
    const mine = await connectIntegration(h, FAKE_VENDOR, { apiToken: 'fake-token-weather-1' }, 'weather one');
    const other = await connectIntegration(h, FAKE_VENDOR, { apiToken: 'fake-token-weather-2' }, 'weather two');
    const apply = (integrationId: string, r: Omit<WeatherSyncResult, 'kind'>) =>
      t.db.tenant(tenantId, (tx) => applyWeather(tx, { tenantId, integrationId, vendor: 'openweather' }, { kind: 'WEATHER', ...r }, t.clock.now()));

    expect(await apply(mine, { points: [point(a, 'A1'), point(b, 'B1'), point(c, 'C1')], uncoveredRouteIds: [] })).toMatchObject({ routesCreated: 3 });
    expect(await apply(other, { points: [point(a, 'A-other')], uncoveredRouteIds: [] })).toMatchObject({ routesCreated: 1 });

    // Next sync: the cap left b unasked, c is no longer sampled, and a route that no longer exists comes back.
    const result = await apply(mine, { points: [point(a, 'A2'), point('rte_gone000000', 'X')], uncoveredRouteIds: [b] });
    expect(result).toEqual({ forecastHazards: 0, routesCreated: 0, routesUpdated: 1, routesUnchanged: 0, routesRemoved: 1, routesUncovered: 1 });
    const now = await rows();
    expect(now).toHaveLength(3);
    expect(now).toEqual(
      expect.arrayContaining([
        [a, mine, 'A2'],
        [a, other, 'A-other'],
        [b, mine, 'B1'],
      ]),
    );
  });
});
