/**
 * The Motive adapter through the public API, against the local Motive sandbox: the built-in adapter
 * reaches MOTIVE_BASE_URL and is listed among the vendors; a connection test succeeds (ACTIVE) or fails
 * with AUTH_FAILED, NOT_FOUND, RATE_LIMITED, TIMEOUT or VENDOR_ERROR; a sync run by the integrations
 * worker lands every field in the HOS records, duty-status logs, vehicle telemetry and route positions
 * (and monitoring turns a fault code into VEHICLE_FAULT), a second sync changes nothing; a sync whose
 * vendor answers 429 / 500 or hangs is retried (sandbox requests counted) and then fails cleanly.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MotiveAdapter } from '../../adapters/integrations/motive/adapter.js';
import { MOTIVE_SANDBOX_API_KEY, startMotiveSandbox, type MotiveSandbox } from '../../adapters/integrations/motive/sandbox.js';
import type { SandboxFault } from '../../adapters/integrations/sandbox-kit.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const NOW = '2026-01-15T18:00:00.000Z';
const KEY = MOTIVE_SANDBOX_API_KEY;

describe.each(DB_KINDS)('the built-in Motive integration (%s)', (kind) => {
  let t: TestApp;
  let sandbox: MotiveSandbox;
  let h: IntegrationHarness;

  beforeAll(async () => {
    sandbox = await startMotiveSandbox({ now: new Date(NOW) });
    t = await buildTestApp(kind, { clock: new FakeClock(NOW), env: { MOTIVE_BASE_URL: sandbox.url }, integrationAdapters: 'built-in' });
    const tenant = await createTenant(t.app, { name: 'Motive Fleet' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('is in the vendor registry with its fields and talks to MOTIVE_BASE_URL', async () => {
    const vendors = await apiCall(h, 'GET', '/api/v1/integrations/vendors');
    expect(vendors.data).toContainEqual({
      vendor: 'motive',
      name: 'Motive',
      category: 'ELD',
      description: expect.stringContaining('Motive'),
      requiredFields: ['apiKey'],
      optionalFields: ['syncIntervalMinutes'],
      defaultSyncInterval: 15,
      documentationUrl: 'https://developer.gomotive.com/reference',
      secretFields: ['apiKey'],
    });
    const id = await connectIntegration(h, 'motive', { apiKey: KEY });
    expect(await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).toMatchObject({ vendor: 'motive', status: 'ACTIVE', syncIntervalMinutes: 15 });
    expect(sandbox.state.requests.length).toBeGreaterThan(0);
  });
});

describe.each(DB_KINDS)('the Motive integration against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let sandbox: MotiveSandbox;
  let h: IntegrationHarness;
  const drivers: Record<'alice' | 'bob' | 'dan', string> = { alice: '', bob: '', dan: '' };
  const vehicles: Record<'unit1' | 'trk102' | 'trk103', string> = { unit1: '', trk102: '', trk103: '' };
  let routeId = '';

  beforeAll(async () => {
    sandbox = await startMotiveSandbox({ now: new Date(NOW) });
    const adapter = new MotiveAdapter({ baseUrl: sandbox.url, timeoutMs: 300, sleep: async () => {} });
    t = await buildTestApp(kind, { clock: new FakeClock(NOW), integrationAdapters: [adapter], webhookResolver: hookDns });
    const tenant = await createTenant(t.app, { name: 'Motive Sandbox Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };

    // The tenant's fleet: Alice by her carrier id (Motive driver_company_id), Bob by license, Dan by his
    // Motive user id; Carla is unknown. Trucks by Motive id, and by unit number; TRK-999 is unknown.
    // Alice drives UNIT-1 (Motive 501) on an ACTIVE route: its locations become the route's positions.
    drivers.alice = (await createDriver(t.app, h.auth, { firstName: 'Alice', lastName: 'Moreno', licenseNumber: 'TX-ALICE-1', externalId: 'EMP-001' })).id;
    drivers.bob = (await createDriver(t.app, h.auth, { firstName: 'Bob', lastName: 'Tran', licenseNumber: 'T7654321' })).id;
    drivers.dan = (await createDriver(t.app, h.auth, { firstName: 'Dan', lastName: 'Ruiz', licenseNumber: 'IL-DAN-4', externalId: '1004' })).id;
    vehicles.unit1 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'UNIT-1', eldExternalId: '501' })).id;
    vehicles.trk102 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-102' })).id;
    vehicles.trk103 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-103' })).id;
    const plan = await apiCall(h, 'POST', '/api/v1/routes/plan', {
      driverId: drivers.alice,
      vehicleId: vehicles.unit1,
      departureTime: '2026-01-15T17:30:00.000Z',
      stops: [
        { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
        { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    });
    routeId = plan.id as string;
    await apiCall(h, 'POST', `/api/v1/routes/${routeId}/activate`);
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });
  // Each test's integrations go with it, so a sync pass only runs the next test's.
  afterEach(async () => {
    for (const i of (await apiCall(h, 'GET', '/api/v1/integrations')).data as { id: string }[]) await apiCall(h, 'DELETE', `/api/v1/integrations/${i.id}`);
  });

  const requestsTo = (path: string): number => sandbox.state.requests.filter((r) => r.path === path).length;
  const create = async (apiKey = KEY): Promise<string> => (await apiCall(h, 'POST', '/api/v1/integrations', { vendor: 'motive', name: 'Motive (sandbox)', config: { apiKey } })).id as string;

  it('passes the connection test with the sandbox key: ACTIVE, counts, never the key', async () => {
    const id = await create();
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/${id}/test`, headers: h.auth });
    expect(res.json()).toMatchObject({ id, testResult: 'SUCCESS', details: { drivers: 4, vehicles: 4, apiVersion: 'v1', latency: expect.stringMatching(/ ms$/) } });
    expect(res.body).not.toContain(KEY);
    const row = await t.app.inject({ method: 'GET', url: `/api/v1/integrations/${id}`, headers: h.auth });
    expect(row.json()).toMatchObject({ status: 'ACTIVE' });
    expect(row.body).not.toContain(KEY);
  });

  it('fails the connection test with AUTH_FAILED on a wrong key, which appears nowhere (the sandbox echoes it)', async () => {
    const wrong = 'motive-wrong-key-0000-canary-1111';
    const id = await create(wrong);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/${id}/test`, headers: h.auth });
    expect(res.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED', details: expect.stringContaining('GET /v1/users: 401') } });
    expect(res.body).not.toContain(wrong);
    const row = await t.app.inject({ method: 'GET', url: `/api/v1/integrations/${id}`, headers: h.auth });
    expect(row.body).not.toContain(wrong);
  });

  const testFailures: { code: string; fault: SandboxFault; attempts: number }[] = [
    { code: 'NOT_FOUND', fault: { path: '/v1/users', kind: 'not-found', times: 1 }, attempts: 1 },
    { code: 'RATE_LIMITED', fault: { path: '/v1/users', kind: 'rate-limit', times: 4, retryAfter: '2' }, attempts: 4 },
    { code: 'VENDOR_ERROR', fault: { path: '/v1/users', kind: 'server-error', times: 4 }, attempts: 4 },
    { code: 'TIMEOUT', fault: { path: '/v1/users', kind: 'hang', times: 4 }, attempts: 4 },
  ];
  for (const c of testFailures) {
    it(`fails the connection test with ${c.code} (${c.fault.kind}, ${c.attempts} request(s))`, async () => {
      const id = await create();
      const before = requestsTo('/v1/users');
      sandbox.inject(c.fault);
      const result = await apiCall(h, 'POST', `/api/v1/integrations/${id}/test`);
      expect(result).toMatchObject({ testResult: 'FAILED', error: { code: c.code, details: expect.stringMatching(/^GET \/v1\/users: /) } });
      expect(requestsTo('/v1/users') - before).toBe(c.attempts);
      expect(JSON.stringify(result)).not.toContain(KEY);
    });
  }

  /** What a sync wrote that the tenant sees: HOS records, duty-status logs, vehicle telemetry, route positions. */
  const snapshot = async () => {
    const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    const telemetry = (await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM vehicle_telemetry ORDER BY vehicle_id'))).rows;
    return {
      hos: Object.fromEntries(await Promise.all(Object.entries(drivers).map(async ([k, d]) => [k, await apiCall(h, 'GET', `/api/v1/drivers/${d}/hos`)]))),
      logs: Object.fromEntries(
        await Promise.all(
          Object.entries(drivers).map(async ([k, d]) => [
            k,
            ((await apiCall(h, 'GET', `/api/v1/drivers/${d}/duty-status`)).data as Record<string, unknown>[]).map(({ status, at, latitude, longitude, source }) => ({ status, at, latitude, longitude, source })),
          ]),
        ),
      ),
      telemetry: Object.fromEntries(telemetry.map(({ tenant_id: _t, ...row }) => [row.vehicle_id as string, plain(row)])),
      positions: (await apiCall(h, 'GET', `/api/v1/routes/${routeId}/positions`)).data as Record<string, unknown>[],
    };
  };
  /** The parts of a HOS record the ELD's clocks decide. */
  const eldPart = (r: Record<string, unknown>) => {
    const keys = ['currentHoursDriven', 'currentOnDutyTime', 'currentCycleUsed', 'hoursSinceLastBreak', 'driveTimeRemaining', 'dutyTimeRemaining', 'cycleTimeRemaining', 'breakRequired', 'breakRequiredWithin', 'currentDutyStatus', 'lastStatusChange', 'source', 'violations'];
    return Object.fromEntries(keys.map((k) => [k, r[k]]));
  };

  it('syncs through the worker: every field lands in the HOS records, duty-status logs, telemetry and route positions; a second sync changes nothing', async () => {
    const id = await connectIntegration(h, 'motive', { apiKey: KEY });
    await runSyncPass(h);
    const first = await apiCall(h, 'GET', `/api/v1/integrations/${id}`);
    expect(first).toMatchObject({ status: 'ACTIVE', lastSyncAt: NOW, lastError: null });
    expect(first.lastSyncCounts).toEqual({
      clocks: 3, logs: 7, locations: 3, faults: 3, unassignedDriving: 1, unmatchedDrivers: 1, unmatchedVehicles: 1,
      clocksUpdated: 3, clocksUnchanged: 0, logsAdded: 7, logsUnchanged: 0, vehiclesUpdated: 3, vehiclesUnchanged: 0, positionsAdded: 1, unassignedAdded: 1,
    });
    const { rows } = await t.db.system((tx) => tx.query<{ payload: unknown }>("SELECT payload FROM outbox_events WHERE event_type = 'integration.sync_completed'"));
    expect(rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))).toContainEqual(expect.objectContaining({ integrationId: id }));

    const s1 = await snapshot();
    // Clocks (Motive's available seconds) → the HOS records: source motive, synced now.
    const fromMotive = { source: 'motive', lastSyncedAt: NOW, violations: [] };
    expect(s1.hos.alice).toMatchObject({
      ...fromMotive, driverId: drivers.alice, currentDutyStatus: 'ON_DUTY_DRIVING', lastStatusChange: '2026-01-15T12:30:00.000Z',
      driveTimeRemaining: 5.5, dutyTimeRemaining: 8, cycleTimeRemaining: 40, breakRequired: false, breakRequiredWithin: 2,
      currentHoursDriven: 5.5, currentOnDutyTime: 6, currentCycleUsed: 30, hoursSinceLastBreak: 6,
    });
    expect(s1.hos.bob).toMatchObject({
      ...fromMotive, driverId: drivers.bob, currentDutyStatus: 'SLEEPER_BERTH', lastStatusChange: '2026-01-15T14:15:00.000Z',
      driveTimeRemaining: 11, dutyTimeRemaining: 14, cycleTimeRemaining: 70, breakRequired: false, breakRequiredWithin: null,
      currentHoursDriven: 0, currentOnDutyTime: 0, currentCycleUsed: 0, hoursSinceLastBreak: 0,
    });
    expect(s1.hos.dan).toMatchObject({
      ...fromMotive, driverId: drivers.dan, currentDutyStatus: 'ON_DUTY_NOT_DRIVING', lastStatusChange: '2026-01-15T16:00:00.000Z',
      driveTimeRemaining: 10, dutyTimeRemaining: 12.5, cycleTimeRemaining: 50, breakRequired: false, breakRequiredWithin: 7.5,
      currentHoursDriven: 1, currentOnDutyTime: 1.5, currentCycleUsed: 20, hoursSinceLastBreak: 0.5,
    });
    // HOS logs of the last 24 h → the duty-status logs (newest first), source motive.
    const log = (status: string, at: string, latitude: number | null = null, longitude: number | null = null) => ({ status, at, latitude, longitude, source: 'motive' });
    expect(s1.logs).toEqual({
      alice: [log('ON_DUTY_DRIVING', '2026-01-15T12:30:00.000Z', 32.8, -96.9), log('ON_DUTY_NOT_DRIVING', '2026-01-15T12:00:00.000Z', 32.7767, -96.797), log('OFF_DUTY', '2026-01-15T02:00:00.000Z', 32.7767, -96.797)],
      bob: [log('SLEEPER_BERTH', '2026-01-15T14:15:00.000Z'), log('ON_DUTY_NOT_DRIVING', '2026-01-15T14:00:00.000Z')],
      dan: [log('ON_DUTY_NOT_DRIVING', '2026-01-15T16:00:00.000Z', 41.9, -87.65), log('OFF_DUTY', '2026-01-15T15:00:00.000Z', 41.88, -87.63)],
    });
    // Locations and fault codes → vehicle telemetry; TRK-999 (unknown) nowhere.
    const telemetry = (vehicleId: string, location: Record<string, unknown>, faults: unknown[]) => ({
      vehicle_id: vehicleId, integration_id: id, source: 'motive', ...location, faults, synced_at: NOW,
    });
    expect(s1.telemetry).toEqual({
      [vehicles.unit1]: telemetry(vehicles.unit1, { latitude: 32.9, longitude: -97.1, speed_mph: 61.5, heading_degrees: 270, fuel_level_percent: 62, recorded_at: '2026-01-15T17:59:00.000Z' }, [
        { code: 'SPN 110 FMI 16', description: 'Engine Coolant Temperature', severity: 'WARNING', active: true, since: '2026-01-15T17:15:00.000Z' },
      ]),
      [vehicles.trk102]: telemetry(vehicles.trk102, { latitude: 34.05, longitude: -118.24, speed_mph: 0, heading_degrees: 0, fuel_level_percent: 18, recorded_at: '2026-01-15T17:58:00.000Z' }, [
        { code: 'P0420', description: 'Catalyst System Efficiency Below Threshold', severity: 'WARNING', active: false, since: '2026-01-12T18:00:00.000Z' },
        { code: 'SPN 100 FMI 1', description: 'Engine Oil Pressure', severity: 'CRITICAL', active: true, since: '2026-01-15T16:30:00.000Z' },
      ]),
      // Metric: 100 km/h reported; no fuel sensor.
      [vehicles.trk103]: telemetry(vehicles.trk103, { latitude: 41.9, longitude: -87.65, speed_mph: 62.1, heading_degrees: 180.5, fuel_level_percent: null, recorded_at: '2026-01-15T17:56:00.000Z' }, []),
    });
    // UNIT-1 is on Alice's ACTIVE route: its location is a position of the route.
    expect(s1.positions).toEqual([
      expect.objectContaining({ routeId, latitude: 32.9, longitude: -97.1, speedMph: 61.5, headingDegrees: 270, fuelLevelPercent: 62, recordedAt: '2026-01-15T17:59:00.000Z', source: 'motive' }),
    ]);

    // The next sync, 15 minutes later, finds Motive unchanged: nothing changes but the clocks' sync time.
    t.clock.advance(15 * 60_000);
    await runSyncPass(h);
    const second = await apiCall(h, 'GET', `/api/v1/integrations/${id}`);
    expect(second).toMatchObject({ status: 'ACTIVE', lastSyncAt: '2026-01-15T18:15:00.000Z' });
    expect(second.lastSyncCounts).toEqual({
      ...first.lastSyncCounts,
      clocksUpdated: 0, clocksUnchanged: 3, logsAdded: 0, logsUnchanged: 7, vehiclesUpdated: 0, vehiclesUnchanged: 3, positionsAdded: 0, unassignedAdded: 0,
    });
    const s2 = await snapshot();
    expect(s2.logs).toEqual(s1.logs);
    expect(s2.telemetry).toEqual(s1.telemetry);
    expect(s2.positions).toEqual(s1.positions);
    for (const k of Object.keys(drivers)) {
      expect(eldPart(s2.hos[k])).toEqual(eldPart(s1.hos[k]));
      expect(s2.hos[k].lastSyncedAt).toBe('2026-01-15T18:15:00.000Z');
    }

    // What monitoring makes of it: UNIT-1's open coolant-temperature code (WARNING) on Alice's route.
    await t.app.workers.get('monitoring').worker.runOnce(t.clock.now());
    const alerts = (await apiCall(h, 'GET', `/api/v1/alerts?routePlanId=${routeId}&status=ACTIVE`)).data as { type: string }[];
    expect(alerts.map((a) => a.type)).toContain('VEHICLE_FAULT');
  });

  const syncFailures: { code: string; fault: SandboxFault; attempts: number }[] = [
    { code: 'RATE_LIMITED', fault: { path: '/v1/available_time', kind: 'rate-limit', times: 4, retryAfter: '1' }, attempts: 4 },
    { code: 'VENDOR_ERROR', fault: { path: '/v1/hos_logs', kind: 'server-error', times: 4 }, attempts: 4 },
    { code: 'TIMEOUT', fault: { path: '/v1/vehicle_locations', kind: 'hang', times: 4 }, attempts: 4 },
  ];
  for (const c of syncFailures) {
    it(`a sync whose vendor keeps answering ${c.fault.kind} on ${c.fault.path} is retried (${c.attempts}) then fails cleanly with ${c.code}`, async () => {
      const webhookId = await subscribeSyncFailed(h);
      const id = await connectIntegration(h, 'motive', { apiKey: KEY });
      const path = c.fault.path as string;
      const before = requestsTo(path);
      sandbox.inject(c.fault);
      t.clock.advance(60_000);
      await runSyncPass(h);
      expect(requestsTo(path) - before).toBe(c.attempts);
      await expectSyncFailedCleanly(h, id, c.code, webhookId);
      const row = await t.app.inject({ method: 'GET', url: `/api/v1/integrations/${id}`, headers: h.auth });
      expect(row.body).not.toContain(KEY);
    });
  }
});
