import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { samplePath } from '../../../domain/geo/route-sample.js';
import { haversineMiles } from '../../../domain/geo/index.js';
import type { Sleep } from '../http.js';
import { IntegrationError, isFuelAdapter, type SyncContext } from '../port.js';
import { HERE_API_VERSION, HereFuelAdapter, thinPoints } from './adapter.js';
import { CORRIDOR, startHereSandbox, type HereSandbox } from './sandbox.js';

const CANARY = 'here_CANARY_apikey_5d8c1e0f9a7b3c2d1e0f';
const NOW = new Date('2026-01-15T18:00:00Z');
const ARDMORE = { latitude: 34.1743, longitude: -97.1436 };

const ctx = (routePoints: SyncContext['routePoints']): SyncContext => ({ now: NOW, drivers: [], vehicles: [], routePoints });
/** Points every 50 miles along the corridor, as the sync worker hands them over for an active route. */
const corridorPoints = (): SyncContext['routePoints'] => samplePath(CORRIDOR).map((p) => ({ routeId: 'route_1', ...p }));

describe('HereFuelAdapter against the sandbox', () => {
  let sandbox: HereSandbox;
  let waits: number[];
  const sleep: Sleep = async (ms) => void waits.push(ms);
  const config = { apiKey: CANARY };

  beforeEach(async () => {
    sandbox = await startHereSandbox({ apiKey: CANARY, now: NOW });
    waits = [];
  });
  afterEach(() => sandbox.close());

  const adapter = (over: ConstructorParameters<typeof HereFuelAdapter>[0] = {}): HereFuelAdapter =>
    new HereFuelAdapter({ baseUrl: sandbox.url, sleep, random: () => 1, baseDelayMs: 100, maxAttempts: 3, timeoutMs: 2000, ...over });
  const stationRequests = () => sandbox.state.requests.filter((r) => r.path === '/stations');

  const noCanary = (value: unknown): void => {
    const text = value instanceof Error ? `${value.message} ${JSON.stringify(value)}` : JSON.stringify(value);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain('CANARY');
  };

  it('describes itself as the registry entry, and is a fuel adapter the planner can ask', () => {
    const a = adapter();
    expect(a.info).toEqual({
      vendor: 'here',
      name: 'HERE Fuel Prices',
      category: 'FUEL',
      description: expect.any(String),
      requiredFields: ['apiKey'],
      optionalFields: ['searchRadiusMiles', 'syncIntervalMinutes'],
      defaultSyncInterval: 360,
      documentationUrl: expect.stringContaining('developer.here.com/documentation/fuel-prices'),
      secretFields: ['apiKey'],
    });
    expect(isFuelAdapter(a)).toBe(true);
  });

  it('validates the config', () => {
    const a = adapter();
    expect(a.validateConfig(config)).toEqual([]);
    expect(a.validateConfig({ ...config, searchRadiusMiles: 12.5, syncIntervalMinutes: 360 })).toEqual([]);
    expect(a.validateConfig({})).toEqual(['apiKey: required, a HERE API key']);
    expect(a.validateConfig({ apiKey: 'has spaces in it, 12345678' })).toEqual(['apiKey: 20 to 512 letters, digits, - or _']);
    expect(a.validateConfig({ ...config, searchRadiusMiles: 80, syncIntervalMinutes: 5 })).toEqual([
      'searchRadiusMiles: a number of miles from 1 to 50',
      'syncIntervalMinutes: an integer from 15 to 1440',
    ]);
    expect(a.validateConfig({ ...config, searchRadiusMiles: '25' })).toHaveLength(1);
  });

  it('talks to https://fuel.hereapi.com/v3 unless given a base URL (the app passes HERE_BASE_URL)', () => {
    expect((new HereFuelAdapter() as unknown as { baseUrl: string }).baseUrl).toBe('https://fuel.hereapi.com/v3');
  });

  describe('connection test', () => {
    it('succeeds with the diesel stations near its probe point, the API version and the latency', async () => {
      const result = await adapter().test(config);
      expect(result).toEqual({
        ok: true,
        message: 'Connected to HERE Fuel Prices',
        details: { dieselStationsNearProbe: expect.any(Number), moreNearProbe: expect.any(Boolean), searchRadiusMiles: 30, apiVersion: HERE_API_VERSION, latency: expect.stringMatching(/^\d+ ms$/) },
      });
      expect((result.details.dieselStationsNearProbe as number) > 0).toBe(true);
      expect(stationRequests()[0]).toMatchObject({ authorized: true, query: { fueltype: '1', prox: '32.77670,-96.79700,48280' } });
    });

    it('fails with AUTH_FAILED on a bad key, never showing it (the sandbox echoes it)', async () => {
      const bad = 'here_CANARY_wrong_key_000000000000';
      const result = await adapter().test({ apiKey: bad });
      expect(result).toEqual({ ok: false, message: 'HERE Fuel Prices connection failed: AUTH_FAILED', details: {}, error: { code: 'AUTH_FAILED', details: expect.stringContaining('GET /stations: 401') } });
      expect(result.error?.details).toContain('[redacted]');
      noCanary(result);
    });

    it('fails with INVALID_CONFIG without calling HERE', async () => {
      const result = await adapter().test({ apiKey: CANARY, searchRadiusMiles: 500 });
      expect(result.error?.code).toBe('INVALID_CONFIG');
      expect(sandbox.state.requests).toHaveLength(0);
    });

    const cases = [
      { name: '404 → NOT_FOUND', fault: { kind: 'not-found', times: Infinity }, code: 'NOT_FOUND', attempts: 1 },
      { name: '429 until retries are spent → RATE_LIMITED', fault: { kind: 'rate-limit', times: Infinity, retryAfter: '1' }, code: 'RATE_LIMITED', attempts: 3 },
      { name: '500 → VENDOR_ERROR', fault: { kind: 'server-error', times: Infinity }, code: 'VENDOR_ERROR', attempts: 3 },
      { name: 'hang → TIMEOUT after retries', fault: { kind: 'hang', times: Infinity }, code: 'TIMEOUT', attempts: 3 },
    ] as const;
    for (const c of cases) {
      it(`fails on ${c.name}`, async () => {
        sandbox.inject({ path: '/stations', ...c.fault });
        const result = await adapter({ timeoutMs: 150 }).test(config);
        expect(result.ok).toBe(false);
        expect(result.error?.code).toBe(c.code);
        expect(result.error?.details).toMatch(/^GET \/stations: /);
        expect(stationRequests()).toHaveLength(c.attempts);
        noCanary(result);
      });
    }
  });

  describe('stations near points', () => {
    it('asks one circle per point (radius in metres, diesel only), follows pages, and maps every field', async () => {
      const stations = await adapter().stationsNear({ ...config, searchRadiusMiles: 40 }, [ARDMORE]);
      const expected = sandbox.state.stations.filter((s) => s.fuelPrice?.some((p) => p.fuelType === '1') && haversineMiles(ARDMORE, s.position) <= 40);
      expect(expected.length).toBeGreaterThan(2);
      expect(stations.map((s) => s.externalId).sort()).toEqual(expected.map((s) => s.id).sort());
      const one = expected[0]!;
      const diesel = one.fuelPrice!.find((p) => p.fuelType === '1')!;
      expect(stations.find((s) => s.externalId === one.id)).toEqual({
        externalId: one.id,
        name: `${one.name}, ${one.address!.city}, ${one.address!.region}`,
        latitude: one.position.latitude,
        longitude: one.position.longitude,
        dieselPrice: diesel.price,
        currency: 'USD',
        updatedAt: new Date(diesel.lastUpdateTimestamp!).toISOString(),
      });
      // The sandbox pages by 5: the adapter asked for the rest by offset.
      const asked = stationRequests();
      expect(asked.length).toBe(Math.ceil(expected.length / 5));
      expect(asked[0]!.query).toMatchObject({ prox: '34.17430,-97.14360,64374', fueltype: '1', maxresults: '50' });
      expect(asked.slice(1).map((r) => r.query.offset)).toEqual(asked.slice(1).map((_, i) => String(5 * (i + 1))));
    });

    it('skips points inside a circle already asked about', () => {
      const near = { latitude: ARDMORE.latitude + 0.1, longitude: ARDMORE.longitude };
      const far = { latitude: 36.154, longitude: -95.9928 };
      expect(thinPoints([ARDMORE, near, far, { latitude: Number.NaN, longitude: 0 }], 25)).toEqual([ARDMORE, far]);
    });
  });

  describe('sync', () => {
    it('returns every diesel station along the active routes once, none for the gasoline-only one', async () => {
      const result = await adapter().sync(config, ctx(corridorPoints()));
      const diesel = sandbox.state.stations.filter((s) => s.fuelPrice?.some((p) => p.fuelType === '1'));
      expect(result.kind).toBe('FUEL');
      expect(result.stations.map((s) => s.externalId)).toEqual(diesel.map((s) => s.id).sort());
      expect(new Set(result.stations.map((s) => s.externalId)).size).toBe(result.stations.length);
      expect(waits).toEqual([]);
    });

    it('asks nothing when no route is active', async () => {
      expect(await adapter().sync(config, ctx([]))).toEqual({ kind: 'FUEL', stations: [] });
      expect(sandbox.state.requests).toHaveLength(0);
    });

    it('gives the same result on a second sync', async () => {
      const a = adapter();
      expect(await a.sync(config, ctx(corridorPoints()))).toEqual(await a.sync(config, ctx(corridorPoints())));
    });

    it('retries a 429 honouring Retry-After and a 500 with backoff, and succeeds', async () => {
      const clean = await adapter().sync(config, ctx([{ routeId: 'r', ...ARDMORE }]));
      sandbox.inject({ path: '/stations', kind: 'rate-limit', times: 1, retryAfter: '4' });
      sandbox.inject({ path: '/stations', kind: 'server-error', times: 1 });
      expect(await adapter().sync(config, ctx([{ routeId: 'r', ...ARDMORE }]))).toEqual(clean);
      expect(waits).toEqual([4000, 200]);
    });

    it('throws an IntegrationError without the key when HERE keeps failing', async () => {
      sandbox.inject({ path: '/stations', kind: 'rate-limit', times: Infinity, retryAfter: 'Thu, 15 Jan 2099 00:00:00 GMT' });
      const error = await adapter({ maxDelayMs: 2000 }).sync(config, ctx([{ routeId: 'r', ...ARDMORE }])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntegrationError);
      expect((error as IntegrationError).code).toBe('RATE_LIMITED');
      expect(waits).toEqual([2000, 2000]);
      noCanary(error);
    });

    it('stops asking other circles once one has failed', async () => {
      sandbox.inject({ path: '/stations', kind: 'not-found', times: Infinity });
      const error = await adapter().sync(config, ctx(corridorPoints())).catch((e: unknown) => e);
      expect((error as IntegrationError).code).toBe('NOT_FOUND');
      expect(stationRequests().length).toBeLessThanOrEqual(4); // at most one per concurrent worker
    });

    it('reports a payload of the wrong shape as VENDOR_ERROR', async () => {
      sandbox.state.stations.push({ name: 'no id', position: ARDMORE, fuelPrice: [{ price: 3.5, fuelType: '1', unit: 'gal', currency: 'USD', lastUpdateTimestamp: NOW.toISOString() }] } as never);
      const error = await adapter().sync(config, ctx([{ routeId: 'r', ...ARDMORE }])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntegrationError);
      expect((error as IntegrationError).code).toBe('VENDOR_ERROR');
    });
  });
});
