/**
 * The HERE Fuel Prices integration through the public API, against the local HERE sandbox: in the vendor
 * registry; connection tests (SUCCESS, AUTH_FAILED, RATE_LIMITED, TIMEOUT, VENDOR_ERROR); a sync of an
 * ACTIVE route's corridor that stores every station's diesel price, a second sync that changes nothing,
 * a vendor that keeps failing (retries, then a clean failure); and the planner: with the integration
 * connected, a Dallas → Chicago plan fuels at the sandbox's stations at their prices and costs less than
 * at the default price; with HERE down it plans with the stored prices and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createActiveRoute, createApiKey, createDriver, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';
import { HereFuelAdapter } from '../../adapters/integrations/here/adapter.js';
import { stationName } from '../../adapters/integrations/here/mapping.js';
import { CORRIDOR, HERE_SANDBOX_API_KEY, startHereSandbox, type HereSandbox } from '../../adapters/integrations/here/sandbox.js';
import { loadConfig } from '../../config.js';
import { DEFAULT_FUEL_PRICE } from '../routes/routes.service.js';
import { builtInAdapters } from './integrations.registry.js';

const HOUR = 3_600_000;
/** Dallas → Chicago along I-35, I-44 and I-55: through Oklahoma City and St. Louis. */
const CORRIDOR_STOPS = CORRIDOR.map((c, i) => ({ name: c.name, latitude: c.latitude, longitude: c.longitude, type: i === 0 ? 'ORIGIN' : i === CORRIDOR.length - 1 ? 'DELIVERY' : 'WAYPOINT' }));
/** A short active route (Dallas → Arlington, under 20 miles): one circle to ask HERE about. */
const SHORT_STOPS = [
  { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
  { name: 'Arlington, TX', latitude: 32.7357, longitude: -97.1081, type: 'DELIVERY' },
];

interface StationRow {
  integration_id: string;
  external_id: string;
  name: string;
  latitude: number;
  longitude: number;
  diesel_price: number;
  currency: string;
  price_updated_at: unknown;
  synced_at: unknown;
}

describe.each(DB_KINDS)('the HERE Fuel Prices integration against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let sandbox: HereSandbox;
  let h: IntegrationHarness;
  const start = new Date('2026-03-02T14:00:00Z');

  beforeAll(async () => {
    sandbox = await startHereSandbox({ now: start });
    t = await buildTestApp(kind, {
      clock: new FakeClock(start),
      integrationAdapters: [new HereFuelAdapter({ baseUrl: sandbox.url, timeoutMs: 300, maxAttempts: 3, sleep: async () => {} })],
      webhookResolver: hookDns,
    });
    const tenant = await createTenant(t.app, { name: 'HERE Fleet' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  const tenantHarness = async (name: string): Promise<IntegrationHarness> => {
    const tenant = await createTenant(t.app, { name });
    return { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  };
  const stationRows = async (integrationId: string): Promise<StationRow[]> =>
    (await t.db.system((tx) => tx.query<StationRow>('SELECT * FROM fuel_station_prices WHERE integration_id = $1 ORDER BY external_id', [integrationId]))).rows;
  const dieselStations = () => sandbox.state.stations.filter((s) => s.fuelPrice?.some((p) => p.fuelType === '1'));
  const dieselOf = (s: (typeof sandbox.state.stations)[number]) => s.fuelPrice!.find((p) => p.fuelType === '1')!;
  const stationRequests = () => sandbox.state.requests.filter((r) => r.path === '/stations').length;

  it('is in the vendor registry with the spec fields, and built in (HERE_BASE_URL)', async () => {
    const vendors = await apiCall(h, 'GET', '/api/v1/integrations/vendors');
    expect(vendors.data).toContainEqual(
      expect.objectContaining({ vendor: 'here', category: 'FUEL', requiredFields: ['apiKey'], optionalFields: ['searchRadiusMiles', 'syncIntervalMinutes'], defaultSyncInterval: 360 }),
    );
    const builtIn = builtInAdapters(loadConfig({ HERE_BASE_URL: sandbox.url })).find((a) => a.info.vendor === 'here');
    expect((builtIn as unknown as { baseUrl: string }).baseUrl).toBe(sandbox.url);
  });

  it('connects with the sandbox key (ACTIVE) and refuses a wrong key with AUTH_FAILED, never showing it', async () => {
    const id = await connectIntegration(h, 'here', { apiKey: HERE_SANDBOX_API_KEY, searchRadiusMiles: 30 });
    expect(await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).toMatchObject({ status: 'ACTIVE', category: 'FUEL' });
    const wrongKey = 'here_not_the_right_key_0000000000';
    const wrong = await apiCall(h, 'POST', '/api/v1/integrations', { vendor: 'here', name: 'Wrong key', config: { apiKey: wrongKey } });
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/${wrong.id as string}/test`, headers: h.auth });
    expect(res.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED' } });
    expect(res.body).not.toContain(wrongKey);
    await apiCall(h, 'DELETE', `/api/v1/integrations/${id}`);
    await apiCall(h, 'DELETE', `/api/v1/integrations/${wrong.id as string}`);
  });

  for (const c of [
    { fault: 'rate-limit', code: 'RATE_LIMITED', attempts: 3 },
    { fault: 'hang', code: 'TIMEOUT', attempts: 3 },
    { fault: 'server-error', code: 'VENDOR_ERROR', attempts: 3 },
  ] as const) {
    it(`reports ${c.code} from a connection test when HERE answers ${c.fault}`, async () => {
      const created = await apiCall(h, 'POST', '/api/v1/integrations', { vendor: 'here', name: `HERE ${c.fault}`, config: { apiKey: HERE_SANDBOX_API_KEY } });
      const before = stationRequests();
      sandbox.inject({ path: '/stations', kind: c.fault, times: c.attempts, retryAfter: '1' });
      const tested = await apiCall(h, 'POST', `/api/v1/integrations/${created.id as string}/test`);
      expect(tested).toMatchObject({ testResult: 'FAILED', error: { code: c.code } });
      expect(stationRequests() - before).toBe(c.attempts);
      expect(JSON.stringify(tested)).not.toContain(HERE_SANDBOX_API_KEY);
      await apiCall(h, 'DELETE', `/api/v1/integrations/${created.id as string}`);
    });
  }

  it('syncs the stations along an ACTIVE route into fuel_station_prices, every field; a second sync changes nothing', async () => {
    const fleet = await tenantHarness('Corridor Freight');
    await createActiveRoute(t.app, fleet.auth, { departureTime: start.toISOString(), stops: CORRIDOR_STOPS });
    const id = await connectIntegration(fleet, 'here', { apiKey: HERE_SANDBOX_API_KEY });
    await runSyncPass(fleet);

    const expected = dieselStations().sort((a, b) => a.id.localeCompare(b.id));
    const rows = await stationRows(id);
    expect(rows.map((r) => r.external_id)).toEqual(expected.map((s) => s.id));
    expect(
      rows.map((r) => ({ ...r, latitude: Number(r.latitude), longitude: Number(r.longitude), diesel_price: Number(r.diesel_price), price_updated_at: new Date(String(r.price_updated_at instanceof Date ? r.price_updated_at.toISOString() : r.price_updated_at)).toISOString(), synced_at: new Date(r.synced_at as string).toISOString() })),
    ).toEqual(
      expected.map((s) => expect.objectContaining({
        integration_id: id,
        external_id: s.id,
        name: stationName(s),
        latitude: s.position.latitude,
        longitude: s.position.longitude,
        diesel_price: dieselOf(s).price,
        currency: 'USD',
        price_updated_at: dieselOf(s).lastUpdateTimestamp,
        synced_at: start.toISOString(),
      })),
    );
    const first = await apiCall(fleet, 'GET', `/api/v1/integrations/${id}`);
    expect(first).toMatchObject({ status: 'ACTIVE', lastSyncCounts: { stations: expected.length, stationsCreated: expected.length, stationsUpdated: 0, stationsUnchanged: 0 } });

    // Sync again (on demand): the same answer writes nothing.
    t.clock.advance(10 * 60_000);
    await apiCall(fleet, 'POST', `/api/v1/integrations/${id}/sync`);
    await runSyncPass(fleet);
    const second = await apiCall(fleet, 'GET', `/api/v1/integrations/${id}`);
    expect(second.lastSyncAt).not.toBe(first.lastSyncAt);
    expect(second.lastSyncCounts).toEqual({ stations: expected.length, stationsCreated: 0, stationsUpdated: 0, stationsUnchanged: expected.length });
    expect(await stationRows(id)).toEqual(rows);

    // A price HERE changes is the one row a third sync rewrites.
    const changed = expected[3]!;
    Object.assign(dieselOf(changed), { price: 2.89, lastUpdateTimestamp: t.clock.now().toISOString() });
    await apiCall(fleet, 'POST', `/api/v1/integrations/${id}/sync`);
    await runSyncPass(fleet);
    expect((await apiCall(fleet, 'GET', `/api/v1/integrations/${id}`)).lastSyncCounts).toMatchObject({ stationsCreated: 0, stationsUpdated: 1, stationsUnchanged: expected.length - 1 });
    const after = await stationRows(id);
    expect(after.filter((r, i) => JSON.stringify(r) !== JSON.stringify(rows[i]))).toEqual([expect.objectContaining({ external_id: changed.id, diesel_price: 2.89 })]);
    await apiCall(fleet, 'DELETE', `/api/v1/integrations/${id}`);
  });

  for (const c of [
    { fault: 'rate-limit', code: 'RATE_LIMITED', attempts: 3 },
    { fault: 'server-error', code: 'VENDOR_ERROR', attempts: 3 },
    { fault: 'hang', code: 'TIMEOUT', attempts: 3 },
  ] as const) {
    it(`retries then fails cleanly when HERE keeps answering ${c.fault} during a sync`, async () => {
      const fleet = await tenantHarness(`Failing ${c.fault}`);
      await createActiveRoute(t.app, fleet.auth, { departureTime: t.clock.now().toISOString(), stops: SHORT_STOPS });
      const id = await connectIntegration(fleet, 'here', { apiKey: HERE_SANDBOX_API_KEY });
      const hook = await subscribeSyncFailed(fleet);
      const before = stationRequests();
      sandbox.inject({ path: '/stations', kind: c.fault, times: c.attempts, retryAfter: '2' });
      await runSyncPass(fleet);
      expect(stationRequests() - before).toBe(c.attempts);
      await expectSyncFailedCleanly(fleet, id, c.code, hook);
      expect(await stationRows(id)).toEqual([]);
      await apiCall(fleet, 'DELETE', `/api/v1/integrations/${id}`);
    });
  }

  describe('feeding the planner', () => {
    let connected: IntegrationHarness;
    let integrationId: string;
    const plan = async (fleet: IntegrationHarness) => {
      const driver = await createDriver(t.app, fleet.auth);
      return apiCall(fleet, 'POST', '/api/v1/routes/plan', {
        driverId: driver.id,
        departureTime: t.clock.now().toISOString(),
        stops: CORRIDOR_STOPS,
        driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
        options: { fuelTankGallons: 150, mpg: 6.5, startingFuelGallons: 40 },
      });
    };
    const fuelStops = (p: { segments: { type: string; location?: string; price_per_gallon?: number }[] }) => p.segments.filter((s) => s.type === 'fuel');
    const sandboxPrice = new Map<string, number>();

    beforeAll(async () => {
      connected = await tenantHarness('Priced Fleet');
      integrationId = await connectIntegration(connected, 'here', { apiKey: HERE_SANDBOX_API_KEY, searchRadiusMiles: 30 });
      for (const s of dieselStations()) sandboxPrice.set(stationName(s), dieselOf(s).price!);
    });

    it("fuels at the sandbox's stations at their prices, asked at planning time, and costs less than at the default price", async () => {
      const before = stationRequests();
      const priced = await plan(connected);
      expect(stationRequests()).toBeGreaterThan(before);
      const stops = fuelStops(priced);
      expect(stops.length).toBeGreaterThanOrEqual(1);
      // Every stop buys at a sandbox price below the default; stops not merged into a rest carry the station's name.
      const prices = new Set(sandboxPrice.values());
      for (const s of stops) {
        expect(prices.has(s.price_per_gallon!)).toBe(true);
        expect(s.price_per_gallon!).toBeLessThan(DEFAULT_FUEL_PRICE);
      }
      const named = stops.filter((s) => sandboxPrice.has(s.location!));
      expect(named.length).toBeGreaterThanOrEqual(1);
      for (const s of named) expect(s.price_per_gallon).toBe(sandboxPrice.get(s.location!));
      expect(priced.warnings.join(' ')).not.toMatch(/fuel price/i);

      // The same trip for a fleet without a fuel integration: the default price everywhere, and dearer.
      const unpriced = await plan(await tenantHarness('Unpriced Fleet'));
      expect(fuelStops(unpriced).every((s) => s.price_per_gallon === DEFAULT_FUEL_PRICE)).toBe(true);
      expect(priced.summary.estimatedFuelCost).toBeLessThan(unpriced.summary.estimatedFuelCost);

      // What HERE answered was stored for the fallback.
      expect((await stationRows(integrationId)).length).toBe(dieselStations().length);
    });

    it('uses no fuel prices from a disabled fuel integration', async () => {
      const paused = await tenantHarness('Paused Fleet');
      const id = await connectIntegration(paused, 'here', { apiKey: HERE_SANDBOX_API_KEY });
      await apiCall(paused, 'POST', `/api/v1/integrations/${id}/disable`);
      const before = stationRequests();
      const p = await plan(paused);
      expect(stationRequests()).toBe(before);
      expect(fuelStops(p).every((s) => s.price_per_gallon === DEFAULT_FUEL_PRICE)).toBe(true);
      expect(p.warnings.join(' ')).not.toMatch(/fuel price/i);
    });

    it('does not ask an integration in ERROR: its stored prices, with the warning', async () => {
      const lapsed = await tenantHarness('Lapsed Fleet');
      const id = await connectIntegration(lapsed, 'here', { apiKey: HERE_SANDBOX_API_KEY });
      const live = await plan(lapsed);
      sandbox.inject({ path: '/stations', kind: 'server-error', times: 3 });
      expect(await apiCall(lapsed, 'POST', `/api/v1/integrations/${id}/test`)).toMatchObject({ testResult: 'FAILED' });
      expect(await apiCall(lapsed, 'GET', `/api/v1/integrations/${id}`)).toMatchObject({ status: 'ERROR' });
      const before = stationRequests();
      const p = await plan(lapsed);
      expect(stationRequests()).toBe(before);
      expect(p.warnings).toContainEqual(expect.stringMatching(/^Fuel prices are from the last sync \(.+\): no active fuel integration can be asked$/));
      expect(fuelStops(p).map((s) => s.price_per_gallon)).toEqual(fuelStops(live).map((s) => s.price_per_gallon));
    });

    it('plans with the stored prices and says so when HERE is down; with stale prices, the default price and a warning', async () => {
      const live = await plan(connected);
      // HERE is down for the rest of this suite (the last test).
      sandbox.inject({ path: '/stations', kind: 'server-error', times: Infinity });
      const fallback = await plan(connected);
      expect(fallback.warnings).toContainEqual(expect.stringMatching(/^Fuel prices are from the last sync \(.+\): the fuel price service did not answer \(VENDOR_ERROR\)$/));
      expect(fuelStops(fallback).map((s) => [s.location, s.price_per_gallon])).toEqual(fuelStops(live).map((s) => [s.location, s.price_per_gallon]));
      expect(fallback.summary.estimatedFuelCost).toBe(live.summary.estimatedFuelCost);

      t.clock.advance(49 * HOUR);
      const stale = await plan(connected);
      expect(stale.warnings).toContainEqual(expect.stringMatching(/^Live fuel prices are unavailable: .*no recent prices are stored; fuel costs use the default price$/));
      expect(fuelStops(stale).every((s) => s.price_per_gallon === DEFAULT_FUEL_PRICE)).toBe(true);
    });
  });
});
