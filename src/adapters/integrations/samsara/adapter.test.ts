import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sleep } from '../http.js';
import { IntegrationError, type EldSyncResult, type SyncContext } from '../port.js';
import { SAMSARA_API_VERSION, SamsaraAdapter } from './adapter.js';
import { mapDutyStatus } from './mapping.js';
import { startSamsaraSandbox, type SamsaraSandbox } from './sandbox.js';

const CANARY = 'samsara_api_CANARY_token_5d8c1e0f9a';
const NOW = new Date('2026-01-15T18:00:00Z');
const HOUR = 3_600_000;

const ctx = (over: Partial<SyncContext> = {}): SyncContext => ({
  now: NOW,
  drivers: [
    // Matched by Samsara externalIds (payrollId), although the license differs.
    { id: 'drv_a', licenseNumber: 'NOPE-1', externalId: 'EMP-001', firstName: 'Alice', lastName: 'Moreno' },
    // Matched by license number (case-insensitive).
    { id: 'drv_b', licenseNumber: 't7654321', externalId: null, firstName: 'Bob', lastName: 'Tran' },
    { id: 'drv_c', licenseNumber: 'ZZZ', externalId: 'EMP-404', firstName: 'Zed', lastName: 'Nobody' },
  ],
  vehicles: [
    // Matched by eldExternalId (= Samsara vehicle id), although the unit number differs.
    { id: 'veh_1', unitNumber: 'UNIT-1', eldExternalId: '281474976710001' },
    // Matched by unit number (= Samsara vehicle name).
    { id: 'veh_2', unitNumber: 'trk-102', eldExternalId: null },
    { id: 'veh_3', unitNumber: 'TRK-500', eldExternalId: null },
  ],
  routePoints: [],
  ...over,
});

const EXPECTED: EldSyncResult = {
  kind: 'ELD',
  clocks: [
    { driverId: 'drv_a', vendorDriverId: '1001', currentStatus: 'ON_DUTY_DRIVING', driveRemainingMs: 5.5 * HOUR, shiftRemainingMs: 8 * HOUR, cycleRemainingMs: 40 * HOUR, breakRemainingMs: 2 * HOUR },
    { driverId: 'drv_b', vendorDriverId: '1002', currentStatus: 'SLEEPER_BERTH', driveRemainingMs: 11 * HOUR, shiftRemainingMs: 14 * HOUR, cycleRemainingMs: 70 * HOUR, breakRemainingMs: null },
  ],
  logs: [
    { driverId: 'drv_a', status: 'OFF_DUTY', startedAt: '2026-01-15T02:00:00.000Z', latitude: 32.7767, longitude: -96.797 },
    { driverId: 'drv_a', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-15T12:00:00.000Z', latitude: 32.7767, longitude: -96.797 },
    { driverId: 'drv_a', status: 'ON_DUTY_DRIVING', startedAt: '2026-01-15T12:30:00.000Z', latitude: 32.8, longitude: -96.9 },
    { driverId: 'drv_b', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-15T14:00:00.000Z', latitude: null, longitude: null },
    { driverId: 'drv_b', status: 'SLEEPER_BERTH', startedAt: '2026-01-15T14:15:00.000Z', latitude: null, longitude: null },
  ],
  locations: [
    { vehicleId: 'veh_1', latitude: 32.9, longitude: -97.1, speedMph: 61.5, headingDegrees: 270, recordedAt: '2026-01-15T17:59:00.000Z', fuelLevelPercent: 62 },
    { vehicleId: 'veh_2', latitude: 34.05, longitude: -118.24, speedMph: 0, headingDegrees: 0, recordedAt: '2026-01-15T17:58:00.000Z', fuelLevelPercent: 18 },
  ],
  faults: [
    {
      vehicleId: 'veh_1',
      code: 'SPN 110 FMI 16',
      description: 'Engine Coolant Temperature: Data Valid But Above Normal Operating Range - Moderately Severe Level',
      severity: 'WARNING',
      active: true,
      since: '2026-01-15T17:15:00.000Z',
    },
    {
      vehicleId: 'veh_2',
      code: 'SPN 100 FMI 1',
      description: 'Engine Oil Pressure: Data Valid But Below Normal Operational Range - Most Severe Level',
      severity: 'CRITICAL',
      active: true,
      since: '2026-01-15T16:30:00.000Z',
    },
  ],
  // Still unassigned at Samsara: TRK-102's 45 minutes and TRK-101's 10 (the segment with a driver is left out).
  unassignedDriving: [
    { vehicleId: 'veh_2', vendorSegmentId: 'uds-2001', startedAt: '2026-01-14T22:00:00.000Z', endedAt: '2026-01-14T22:45:00.000Z', startLatitude: null, startLongitude: null, endLatitude: null, endLongitude: null, miles: null },
    { vehicleId: 'veh_1', vendorSegmentId: 'uds-2002', startedAt: '2026-01-15T00:00:00.000Z', endedAt: '2026-01-15T00:10:00.000Z', startLatitude: null, startLongitude: null, endLatitude: null, endLongitude: null, miles: null },
  ],
  unmatched: { drivers: 1, vehicles: 1 },
};

describe('SamsaraAdapter against the sandbox', () => {
  let sandbox: SamsaraSandbox;
  let waits: number[];
  const sleep: Sleep = async (ms) => void waits.push(ms);
  const config = { apiToken: CANARY };

  beforeEach(async () => {
    sandbox = await startSamsaraSandbox({ token: CANARY, now: NOW });
    waits = [];
  });
  afterEach(() => sandbox.close());

  const adapter = (over: ConstructorParameters<typeof SamsaraAdapter>[0] = {}): SamsaraAdapter =>
    new SamsaraAdapter({ baseUrl: sandbox.url, sleep, random: () => 1, baseDelayMs: 100, maxAttempts: 3, timeoutMs: 2000, ...over });

  const noCanary = (value: unknown): void => {
    const text = value instanceof Error ? `${value.message} ${JSON.stringify(value)}` : JSON.stringify(value);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain('CANARY');
  };

  it('describes itself as the registry entry', () => {
    expect(adapter().info).toEqual({
      vendor: 'samsara',
      name: 'Samsara',
      category: 'ELD',
      description: expect.any(String),
      requiredFields: ['apiToken'],
      optionalFields: ['orgId', 'syncIntervalMinutes'],
      defaultSyncInterval: 15,
      documentationUrl: 'https://developers.samsara.com/reference',
      secretFields: ['apiToken'],
    });
  });

  it('validates the config', () => {
    const a = adapter();
    expect(a.validateConfig({ apiToken: CANARY })).toEqual([]);
    expect(a.validateConfig({ apiToken: CANARY, orgId: '9001', syncIntervalMinutes: 15 })).toEqual([]);
    expect(a.validateConfig({})).toEqual(['apiToken: required, a Samsara API token']);
    expect(a.validateConfig({ apiToken: 'has space in it 1234' })).toHaveLength(1);
    expect(a.validateConfig({ apiToken: CANARY, orgId: 12, syncIntervalMinutes: 2 })).toEqual([
      'orgId: a numeric Samsara organization id, as text',
      'syncIntervalMinutes: an integer from 5 to 1440',
    ]);
  });

  it('talks to https://api.samsara.com unless given a base URL (the app passes SAMSARA_BASE_URL)', () => {
    expect((new SamsaraAdapter() as unknown as { baseUrl: string }).baseUrl).toBe('https://api.samsara.com');
    expect((new SamsaraAdapter({ baseUrl: 'http://127.0.0.1:9999' }) as unknown as { baseUrl: string }).baseUrl).toBe('http://127.0.0.1:9999');
  });

  it('maps every Samsara duty status', () => {
    expect(['offDuty', 'sleeperBed', 'driving', 'onDuty', 'yardMove', 'personalConveyance', ''].map(mapDutyStatus)).toEqual([
      'OFF_DUTY',
      'SLEEPER_BERTH',
      'ON_DUTY_DRIVING',
      'ON_DUTY_NOT_DRIVING',
      'ON_DUTY_NOT_DRIVING',
      'OFF_DUTY',
      undefined,
    ]);
  });

  describe('connection test', () => {
    it('succeeds with counts, API version and latency', async () => {
      const result = await adapter().test({ ...config, orgId: '9001' });
      expect(result).toEqual({
        ok: true,
        message: 'Connected to Samsara organization Sandbox Freight LLC',
        details: { organization: 'Sandbox Freight LLC', drivers: 3, vehicles: 3, apiVersion: SAMSARA_API_VERSION, latency: expect.stringMatching(/^\d+ ms$/) },
      });
      expect(sandbox.state.requests.every((r) => r.authorized)).toBe(true);
    });

    it('fails with INVALID_CONFIG when the token belongs to another organization', async () => {
      const result = await adapter().test({ ...config, orgId: '1' });
      expect(result.ok).toBe(false);
      expect(result.error).toEqual({ code: 'INVALID_CONFIG', details: 'the token belongs to organization 9001, not 1' });
    });

    it('fails with AUTH_FAILED on a bad token, never showing it', async () => {
      const bad = 'samsara_api_CANARY_wrong_token_0000';
      const result = await adapter().test({ apiToken: bad });
      expect(result).toEqual({ ok: false, message: 'Samsara connection failed: AUTH_FAILED', details: {}, error: { code: 'AUTH_FAILED', details: expect.stringContaining('GET /me: 401') } });
      expect(JSON.stringify(result)).not.toContain(bad);
      noCanary(result);
    });

    const cases = [
      { name: '404 → NOT_FOUND', fault: { path: '/me', kind: 'not-found', times: Infinity }, code: 'NOT_FOUND', attempts: 1 },
      { name: '429 until retries are spent → RATE_LIMITED', fault: { path: '/me', kind: 'rate-limit', times: Infinity, retryAfter: '1' }, code: 'RATE_LIMITED', attempts: 3 },
      { name: '500 → VENDOR_ERROR', fault: { path: '/me', kind: 'server-error', times: Infinity }, code: 'VENDOR_ERROR', attempts: 3 },
      { name: 'hang → TIMEOUT after retries', fault: { path: '/me', kind: 'hang', times: Infinity }, code: 'TIMEOUT', attempts: 3 },
    ] as const;
    for (const c of cases) {
      it(`fails on ${c.name}`, async () => {
        sandbox.inject({ ...c.fault });
        const result = await adapter({ timeoutMs: 150 }).test(config);
        expect(result.ok).toBe(false);
        expect(result.error?.code).toBe(c.code);
        expect(result.error?.details).toMatch(/^GET \/me: /);
        expect(sandbox.state.requests.filter((r) => r.path === '/me')).toHaveLength(c.attempts);
        noCanary(result);
      });
    }
  });

  describe('sync', () => {
    it('maps clocks, logs, locations with fuel, and faults, matching drivers and vehicles', async () => {
      const result = await adapter().sync(config, ctx());
      expect(result).toEqual(EXPECTED);
      expect(waits).toEqual([]);
    });

    it('follows pagination (the sandbox pages by 2) and asks for the log window and stat types', async () => {
      await adapter().sync(config, ctx());
      const byPath = (p: string) => sandbox.state.requests.filter((r) => r.path === p);
      expect(byPath('/fleet/drivers')).toHaveLength(2);
      expect(byPath('/fleet/vehicles')).toHaveLength(2);
      expect(byPath('/fleet/hos/logs')[0]?.query).toMatchObject({ startTime: '2026-01-14T18:00:00.000Z', endTime: '2026-01-15T18:00:00.000Z' });
      expect(byPath('/fleet/vehicles/stats')[0]?.query.types).toBe('faultCodes,fuelPercents');
    });

    it('gives the same result on a second sync', async () => {
      const a = adapter();
      const first = await a.sync(config, ctx());
      const second = await a.sync(config, ctx());
      expect(second).toEqual(first);
    });

    it('retries a 429 honouring Retry-After and succeeds', async () => {
      sandbox.inject({ path: '/fleet/hos/clocks', kind: 'rate-limit', times: 2, retryAfter: '4' });
      const result = await adapter().sync(config, ctx());
      expect(result).toEqual(EXPECTED);
      expect(waits).toEqual([4000, 4000]);
    });

    it('retries a 500 with backoff and succeeds', async () => {
      sandbox.inject({ path: '/fleet/vehicles/stats', kind: 'server-error', times: 1 });
      const result = await adapter().sync(config, ctx());
      expect(result).toEqual(EXPECTED);
      expect(waits).toEqual([100]);
    });

    it('throws an IntegrationError without the token when the vendor keeps failing', async () => {
      sandbox.inject({ path: '/fleet/hos/logs', kind: 'rate-limit', times: Infinity, retryAfter: 'Thu, 15 Jan 2099 00:00:00 GMT' });
      const error = await adapter({ maxDelayMs: 2000 }).sync(config, ctx()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntegrationError);
      expect((error as IntegrationError).code).toBe('RATE_LIMITED');
      expect(waits).toEqual([2000, 2000]);
      noCanary(error);
    });

    it('throws AUTH_FAILED on a bad token without the token', async () => {
      const error = await adapter().sync({ apiToken: 'samsara_api_CANARY_bad_sync_token' }, ctx()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntegrationError);
      expect((error as IntegrationError).code).toBe('AUTH_FAILED');
      noCanary(error);
    });

    it('reports a payload of the wrong shape as VENDOR_ERROR', async () => {
      sandbox.state.clocks.push({ currentDutyStatus: { hosStatusType: 'driving' } } as never);
      const error = await adapter().sync(config, ctx()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntegrationError);
      expect((error as IntegrationError).code).toBe('VENDOR_ERROR');
    });

    it('counts every vendor record as unmatched for a tenant with no drivers or vehicles', async () => {
      const result = await adapter().sync(config, ctx({ drivers: [], vehicles: [] }));
      expect(result).toEqual({ kind: 'ELD', clocks: [], logs: [], locations: [], faults: [], unassignedDriving: [], unmatched: { drivers: 3, vehicles: 3 } });
    });
  });
});
