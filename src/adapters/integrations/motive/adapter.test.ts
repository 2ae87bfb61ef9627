import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sleep } from '../http.js';
import { IntegrationError, type EldSyncResult, type SyncContext } from '../port.js';
import { MOTIVE_API_VERSION, MotiveAdapter } from './adapter.js';
import { startMotiveSandbox, type MotiveSandbox } from './sandbox.js';

const CANARY = 'motive-api-CANARY-key-5d8c1e0f9a77';
const NOW = new Date('2026-01-15T18:00:00Z');
const HOUR = 3_600_000;

const ctx = (over: Partial<SyncContext> = {}): SyncContext => ({
  now: NOW,
  drivers: [
    // Matched by the carrier's driver_company_id (case-insensitive), although the license differs.
    { id: 'drv_a', licenseNumber: 'NOPE-1', externalId: 'emp-001', firstName: 'Alice', lastName: 'Moreno' },
    // Matched by license number (case-insensitive).
    { id: 'drv_b', licenseNumber: 't7654321', externalId: null, firstName: 'Bob', lastName: 'Tran' },
    // Matched by the Motive user id stored as the external id.
    { id: 'drv_d', licenseNumber: 'ZZZ', externalId: '1004', firstName: 'Dan', lastName: 'Ruiz' },
    { id: 'drv_z', licenseNumber: 'L-404', externalId: 'EMP-404', firstName: 'Zed', lastName: 'Nobody' },
  ],
  vehicles: [
    // Matched by eldExternalId (= Motive vehicle id), although the unit number differs.
    { id: 'veh_1', unitNumber: 'UNIT-1', eldExternalId: '501' },
    // Matched by unit number (= Motive vehicle `number`).
    { id: 'veh_2', unitNumber: 'trk-102', eldExternalId: null },
    { id: 'veh_4', unitNumber: 'TRK-103', eldExternalId: null },
    { id: 'veh_x', unitNumber: 'TRK-500', eldExternalId: null },
  ],
  routePoints: [],
  ...over,
});

const EXPECTED: EldSyncResult = {
  kind: 'ELD',
  clocks: [
    { driverId: 'drv_a', vendorDriverId: '1001', currentStatus: 'ON_DUTY_DRIVING', driveRemainingMs: 5.5 * HOUR, shiftRemainingMs: 8 * HOUR, cycleRemainingMs: 40 * HOUR, breakRemainingMs: 2 * HOUR },
    { driverId: 'drv_b', vendorDriverId: '1002', currentStatus: 'SLEEPER_BERTH', driveRemainingMs: 11 * HOUR, shiftRemainingMs: 14 * HOUR, cycleRemainingMs: 70 * HOUR, breakRemainingMs: null },
    { driverId: 'drv_d', vendorDriverId: '1004', currentStatus: 'ON_DUTY_NOT_DRIVING', driveRemainingMs: 10 * HOUR, shiftRemainingMs: 12.5 * HOUR, cycleRemainingMs: 50 * HOUR, breakRemainingMs: 7.5 * HOUR },
  ],
  logs: [
    // (Alice's log that ended 26 h ago comes back for the dates asked for, and is left out.)
    { driverId: 'drv_a', status: 'OFF_DUTY', startedAt: '2026-01-15T02:00:00.000Z', latitude: 32.7767, longitude: -96.797 },
    { driverId: 'drv_a', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-15T12:00:00.000Z', latitude: 32.7767, longitude: -96.797 },
    { driverId: 'drv_a', status: 'ON_DUTY_DRIVING', startedAt: '2026-01-15T12:30:00.000Z', latitude: 32.8, longitude: -96.9 },
    { driverId: 'drv_b', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-15T14:00:00.000Z', latitude: null, longitude: null },
    { driverId: 'drv_b', status: 'SLEEPER_BERTH', startedAt: '2026-01-15T14:15:00.000Z', latitude: null, longitude: null },
    { driverId: 'drv_d', status: 'OFF_DUTY', startedAt: '2026-01-15T15:00:00.000Z', latitude: 41.88, longitude: -87.63 },
    { driverId: 'drv_d', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-15T16:00:00.000Z', latitude: 41.9, longitude: -87.65 },
  ],
  locations: [
    { vehicleId: 'veh_1', latitude: 32.9, longitude: -97.1, speedMph: 61.5, headingDegrees: 270, recordedAt: '2026-01-15T17:59:00.000Z', fuelLevelPercent: 62 },
    { vehicleId: 'veh_2', latitude: 34.05, longitude: -118.24, speedMph: 0, headingDegrees: 0, recordedAt: '2026-01-15T17:58:00.000Z', fuelLevelPercent: 18 },
    // A metric vehicle: 100 km/h; no fuel sensor.
    { vehicleId: 'veh_4', latitude: 41.9, longitude: -87.65, speedMph: 62.1, headingDegrees: 180.5, recordedAt: '2026-01-15T17:56:00.000Z', fuelLevelPercent: null },
  ],
  faults: [
    { vehicleId: 'veh_1', code: 'SPN 110 FMI 16', description: 'Engine Coolant Temperature', severity: 'WARNING', active: true, since: '2026-01-15T17:15:00.000Z' },
    { vehicleId: 'veh_2', code: 'SPN 100 FMI 1', description: 'Engine Oil Pressure', severity: 'CRITICAL', active: true, since: '2026-01-15T16:30:00.000Z' },
    { vehicleId: 'veh_2', code: 'P0420', description: 'Catalyst System Efficiency Below Threshold', severity: 'WARNING', active: false, since: '2026-01-12T18:00:00.000Z' },
  ],
  // Driving with no driver: TRK-102's 40 minutes (TRK-101's yard move and the period with a driver are left out).
  unassignedDriving: [
    { vehicleId: 'veh_2', vendorSegmentId: '90001', startedAt: '2026-01-14T22:00:00.000Z', endedAt: '2026-01-14T22:40:00.000Z', startLatitude: 34.05, startLongitude: -118.24, endLatitude: 34.06, endLongitude: -117.65, miles: 23.4 },
  ],
  unmatched: { drivers: 1, vehicles: 1 },
};

describe('MotiveAdapter against the sandbox', () => {
  let sandbox: MotiveSandbox;
  let waits: number[];
  const sleep: Sleep = async (ms) => void waits.push(ms);
  const config = { apiKey: CANARY };

  beforeEach(async () => {
    sandbox = await startMotiveSandbox({ apiKey: CANARY, now: NOW });
    waits = [];
  });
  afterEach(() => sandbox.close());

  const adapter = (over: ConstructorParameters<typeof MotiveAdapter>[0] = {}): MotiveAdapter =>
    new MotiveAdapter({ baseUrl: sandbox.url, sleep, random: () => 1, baseDelayMs: 100, maxAttempts: 3, timeoutMs: 2000, ...over });
  const byPath = (p: string) => sandbox.state.requests.filter((r) => r.path === p);

  const noCanary = (value: unknown): void => {
    const text = value instanceof Error ? `${value.message} ${value.stack ?? ''} ${JSON.stringify(value)}` : JSON.stringify(value);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain('CANARY');
  };
  const failureOf = async (promise: Promise<unknown>): Promise<IntegrationError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IntegrationError);
    noCanary(error);
    return error as IntegrationError;
  };

  it('describes itself as the registry entry', () => {
    expect(adapter().info).toEqual({
      vendor: 'motive',
      name: 'Motive',
      category: 'ELD',
      description: expect.any(String),
      requiredFields: ['apiKey'],
      optionalFields: ['syncIntervalMinutes'],
      defaultSyncInterval: 15,
      documentationUrl: 'https://developer.gomotive.com/reference',
      secretFields: ['apiKey'],
    });
  });

  it('validates the config', () => {
    const a = adapter();
    expect(a.validateConfig({ apiKey: CANARY })).toEqual([]);
    expect(a.validateConfig({ apiKey: CANARY, syncIntervalMinutes: 15 })).toEqual([]);
    expect(a.validateConfig({})).toEqual(['apiKey: required, a Motive API key']);
    expect(a.validateConfig({ apiKey: 'has space in it 1234' })).toEqual(['apiKey: 16 to 512 characters without spaces']);
    expect(a.validateConfig({ apiKey: 'short' })).toEqual(['apiKey: 16 to 512 characters without spaces']);
    expect(a.validateConfig({ apiKey: CANARY, syncIntervalMinutes: 2 })).toEqual(['syncIntervalMinutes: an integer from 5 to 1440']);
    expect(a.validateConfig({ apiKey: CANARY, syncIntervalMinutes: '15' })).toEqual(['syncIntervalMinutes: an integer from 5 to 1440']);
  });

  it('talks to https://api.gomotive.com unless given a base URL (the app passes MOTIVE_BASE_URL)', () => {
    expect((new MotiveAdapter() as unknown as { baseUrl: string }).baseUrl).toBe('https://api.gomotive.com');
    expect((new MotiveAdapter({ baseUrl: 'http://127.0.0.1:9999' }) as unknown as { baseUrl: string }).baseUrl).toBe('http://127.0.0.1:9999');
  });

  describe('connection test', () => {
    it('succeeds with counts from the pagination totals, API version and latency, sending the key as X-Api-Key', async () => {
      const result = await adapter().test(config);
      expect(result).toEqual({
        ok: true,
        message: 'Connected to Motive',
        details: { drivers: 4, vehicles: 4, apiVersion: MOTIVE_API_VERSION, latency: expect.stringMatching(/^\d+ ms$/) },
      });
      expect(sandbox.state.requests.map((r) => [r.path, r.query, r.authorized])).toEqual([
        ['/v1/users', { role: 'driver', status: 'active', per_page: '1', page_no: '1' }, true],
        ['/v1/vehicles', { per_page: '1', page_no: '1' }, true],
      ]);
    });

    it('refuses a malformed key without calling Motive', async () => {
      const result = await adapter().test({ apiKey: 'short' });
      expect(result).toEqual({ ok: false, message: 'Motive connection failed: INVALID_CONFIG', details: {}, error: { code: 'INVALID_CONFIG', details: 'apiKey: 16 to 512 characters without spaces' } });
      expect(sandbox.state.requests).toHaveLength(0);
    });

    it('fails with AUTH_FAILED on a wrong key, never showing it (the sandbox echoes it)', async () => {
      const bad = 'motive-api-CANARY-wrong-key-00000';
      const result = await adapter().test({ apiKey: bad });
      expect(result).toEqual({ ok: false, message: 'Motive connection failed: AUTH_FAILED', details: {}, error: { code: 'AUTH_FAILED', details: expect.stringContaining('GET /v1/users: 401') } });
      expect(result.error?.details).toContain('[redacted]');
      expect(JSON.stringify(result)).not.toContain(bad);
      noCanary(result);
      expect(byPath('/v1/users')).toHaveLength(1);
    });

    const cases = [
      { name: '404 → NOT_FOUND', fault: { path: '/v1/users', kind: 'not-found', times: Infinity }, code: 'NOT_FOUND', attempts: 1 },
      { name: '429 until retries are spent → RATE_LIMITED', fault: { path: '/v1/users', kind: 'rate-limit', times: Infinity, retryAfter: '1' }, code: 'RATE_LIMITED', attempts: 3 },
      { name: '500 → VENDOR_ERROR', fault: { path: '/v1/users', kind: 'server-error', times: Infinity }, code: 'VENDOR_ERROR', attempts: 3 },
      { name: 'hang → TIMEOUT after retries', fault: { path: '/v1/users', kind: 'hang', times: Infinity }, code: 'TIMEOUT', attempts: 3 },
    ] as const;
    for (const c of cases) {
      it(`fails on ${c.name}`, async () => {
        sandbox.inject({ ...c.fault });
        const result = await adapter({ timeoutMs: 150 }).test(config);
        expect(result.ok).toBe(false);
        expect(result.error?.code).toBe(c.code);
        expect(result.error?.details).toMatch(/^GET \/v1\/users: /);
        expect(byPath('/v1/users')).toHaveLength(c.attempts);
        noCanary(result);
      });
    }
  });

  describe('sync', () => {
    it('maps available time, logs, locations with fuel, and fault codes, matching drivers and vehicles', async () => {
      const result = await adapter().sync(config, ctx());
      expect(result).toEqual(EXPECTED);
      expect(waits).toEqual([]);
      expect(sandbox.state.requests.every((r) => r.authorized)).toBe(true);
    });

    it('follows page_no pagination (the sandbox pages by 2), asking 100 a page, active drivers only, and the log dates around the window', async () => {
      await adapter().sync(config, ctx());
      const pages = (p: string) => byPath(p).map((r) => [r.query.page_no, r.query.per_page]);
      expect(pages('/v1/users')).toEqual([['1', '100'], ['2', '100']]);
      expect(byPath('/v1/users')[0]?.query).toMatchObject({ role: 'driver', status: 'active' });
      expect(pages('/v1/vehicles')).toHaveLength(2);
      expect(pages('/v1/available_time')).toHaveLength(2);
      expect(pages('/v1/hos_logs')).toEqual([['1', '100'], ['2', '100'], ['3', '100'], ['4', '100'], ['5', '100']]);
      expect(byPath('/v1/hos_logs')[0]?.query).toMatchObject({ start_date: '2026-01-13', end_date: '2026-01-16' });
      expect(pages('/v1/vehicle_locations')).toHaveLength(2);
      expect(pages('/v1/fault_codes')).toHaveLength(2);
    });

    it('reads everything in one page each when Motive serves 100 a page', async () => {
      await sandbox.close();
      sandbox = await startMotiveSandbox({ apiKey: CANARY, now: NOW, pageSize: 100 });
      expect(await adapter().sync(config, ctx())).toEqual(EXPECTED);
      expect(sandbox.state.requests).toHaveLength(7);
    });

    it('gives the same result on a second sync', async () => {
      const a = adapter();
      const first = await a.sync(config, ctx());
      const second = await a.sync(config, ctx());
      expect(second).toEqual(first);
    });

    it('retries a 429 honouring Retry-After and succeeds', async () => {
      sandbox.inject({ path: '/v1/available_time', kind: 'rate-limit', times: 2, retryAfter: '4' });
      const result = await adapter().sync(config, ctx());
      expect(result).toEqual(EXPECTED);
      expect(waits).toEqual([4000, 4000]);
      expect(byPath('/v1/available_time')).toHaveLength(2 + 2);
    });

    it('retries a 500 with backoff and succeeds', async () => {
      sandbox.inject({ path: '/v1/fault_codes', kind: 'server-error', times: 1 });
      const result = await adapter().sync(config, ctx());
      expect(result).toEqual(EXPECTED);
      expect(waits).toEqual([100]);
      expect(byPath('/v1/fault_codes')).toHaveLength(1 + 2);
    });

    it('throws RATE_LIMITED without the key when Motive keeps answering 429 (waits capped)', async () => {
      sandbox.inject({ path: '/v1/hos_logs', kind: 'rate-limit', times: Infinity, retryAfter: 'Thu, 15 Jan 2099 00:00:00 GMT' });
      const error = await failureOf(adapter({ maxDelayMs: 2000 }).sync(config, ctx()));
      expect(error.code).toBe('RATE_LIMITED');
      expect(error.details).toBe('GET /v1/hos_logs: 429 (Rate limit exceeded) after 3 attempts');
      expect(waits).toEqual([2000, 2000]);
      expect(byPath('/v1/hos_logs')).toHaveLength(3);
    });

    it('throws VENDOR_ERROR when Motive keeps answering 500', async () => {
      sandbox.inject({ path: '/v1/vehicles', kind: 'server-error', times: Infinity });
      const error = await failureOf(adapter().sync(config, ctx()));
      expect(error.code).toBe('VENDOR_ERROR');
      expect(byPath('/v1/vehicles')).toHaveLength(3);
      expect(byPath('/v1/available_time')).toHaveLength(0);
    });

    it('retries a hanging Motive (a GET is safe to repeat), then times out', async () => {
      sandbox.inject({ path: '/v1/vehicle_locations', kind: 'hang', times: Infinity });
      const error = await failureOf(adapter({ timeoutMs: 150 }).sync(config, ctx()));
      expect(error.code).toBe('TIMEOUT');
      expect(error.details).toBe('GET /v1/vehicle_locations: no answer within 150 ms after 3 attempts');
      expect(byPath('/v1/vehicle_locations')).toHaveLength(3);
      expect(waits).toEqual([100, 200]);
    });

    it('succeeds when Motive answers after a hang', async () => {
      sandbox.inject({ path: '/v1/hos_logs', kind: 'hang', times: 1 });
      // 1 s: only the hanging request times out, never a slow answer on a loaded machine (150 ms retried one once in CI).
      expect(await adapter({ timeoutMs: 1_000 }).sync(config, ctx())).toEqual(EXPECTED);
      expect(byPath('/v1/hos_logs')).toHaveLength(1 + 5);
    });

    it('throws AUTH_FAILED on a wrong key without the key', async () => {
      const error = await failureOf(adapter().sync({ apiKey: 'motive-api-CANARY-bad-sync-key' }, ctx()));
      expect(error.code).toBe('AUTH_FAILED');
    });

    it('reports a Motive that ignores page_no as VENDOR_ERROR instead of looping', async () => {
      const ignorePageNo: typeof fetch = (input, init) => {
        const url = new URL(String(input));
        url.searchParams.delete('page_no');
        return fetch(url, init);
      };
      const error = await failureOf(adapter({ fetch: ignorePageNo }).sync(config, ctx()));
      expect(error).toMatchObject({ code: 'VENDOR_ERROR', details: 'GET /v1/users: asked for page 2, got page 1' });
    });

    it('reports a payload of the wrong shape as VENDOR_ERROR', async () => {
      sandbox.state.hosLogs.push({ id: 1, status: 'driving', start_time: NOW.toISOString(), duration: null } as never);
      const error = await failureOf(adapter().sync(config, ctx()));
      expect(error).toMatchObject({ code: 'VENDOR_ERROR', details: 'Motive answered with an unexpected payload shape' });
    });

    it('counts every active vendor driver and vehicle as unmatched for a tenant with none', async () => {
      const result = await adapter().sync(config, ctx({ drivers: [], vehicles: [] }));
      expect(result).toEqual({ kind: 'ELD', clocks: [], logs: [], locations: [], faults: [], unassignedDriving: [], unmatched: { drivers: 4, vehicles: 4 } });
    });
  });
});
