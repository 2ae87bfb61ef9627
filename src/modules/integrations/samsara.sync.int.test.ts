/**
 * A Samsara sync through the public API against the sandbox, and what it feeds:
 * - every field lands: the HOS record (source samsara, lastSyncedAt, the ELD's clocks), the duty-status
 *   log (source samsara), positions of the vehicles' ACTIVE routes (speed, heading, fuel), fault codes
 *   and fuel level that monitoring turns into VEHICLE_FAULT, VEHICLE_BREAKDOWN and LOW_FUEL;
 * - a second sync changes nothing;
 * - end to end: an ELD sync that moves a truck off its route makes monitoring raise ROUTE_DEVIATION;
 * - the vendor answering 429, 500 or hanging: retries, then ERROR with the alert and the webhook;
 * - the connection test's failure codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SamsaraAdapter } from '../../adapters/integrations/samsara/adapter.js';
import { SANDBOX_TOKEN, startSamsaraSandbox, type SamsaraSandbox } from '../../adapters/integrations/samsara/sandbox.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' };
const OKC = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 };
const FRESH = { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 };

describe.each(DB_KINDS)('Samsara sync into the fleet (%s)', (kind) => {
  let t: TestApp;
  let sandbox: SamsaraSandbox;
  let h: IntegrationHarness;
  const clock = new FakeClock('2026-03-02T14:00:00.000Z');
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    sandbox = await startSamsaraSandbox({ now: clock.now() });
    // Short timeouts and no waiting between retries: the retry schedule itself is the adapter's tests' concern.
    const adapter = new SamsaraAdapter({ baseUrl: sandbox.url, timeoutMs: 300, maxAttempts: 3, sleep: async () => {} });
    t = await buildTestApp(kind, { clock, integrationAdapters: [adapter], webhookResolver: hookDns });
    const tenant = await createTenant(t.app, { name: 'Samsara Sync Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };

    // Alice matched by external id (Samsara payrollId), Bob by license number; TRK-101 by unit number, TRK-102 by ELD id.
    ids.alice = (await apiCall(h, 'POST', '/api/v1/drivers', { firstName: 'Alice', lastName: 'Moreno', licenseNumber: 'TX-ALICE-1', licenseState: 'TX', externalId: 'EMP-001' })).id;
    ids.bob = (await apiCall(h, 'POST', '/api/v1/drivers', { firstName: 'Bob', lastName: 'Tran', licenseNumber: 'T7654321', licenseState: 'CA' })).id;
    ids.trk101 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-101' })).id;
    ids.trk102 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'Unit 2', eldExternalId: '281474976710002' })).id;
    for (const [driver, vehicle] of [['alice', 'trk101'], ['bob', 'trk102']] as const) {
      const plan = await apiCall(h, 'POST', '/api/v1/routes/plan', { driverId: ids[driver], vehicleId: ids[vehicle], departureTime: clock.now().toISOString(), stops: [DALLAS, OKC], driverState: FRESH });
      await apiCall(h, 'POST', `/api/v1/routes/${plan.id as string}/activate`);
      ids[`${driver}Route`] = plan.id;
    }
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  const monitoringPass = async () => {
    await t.app.workers.get('monitoring').worker.runOnce(clock.now());
  };
  const alertsOf = async (routeId: string) =>
    ((await apiCall(h, 'GET', `/api/v1/alerts?routePlanId=${routeId}&status=ACTIVE`)).data as { type: string; priority: string; metadata: Record<string, unknown> }[]).map((a) => a.type).sort();

  it('maps every field: HOS record and log, route positions with fuel, faults into alerts', async () => {
    // TRK-101 on the planned path north of Dallas; TRK-102 (parked in Los Angeles) down to 12 % fuel.
    sandbox.state.locations.set('281474976710001', { ...sandbox.state.locations.get('281474976710001')!, latitude: 33.0, longitude: -96.857 });
    sandbox.state.fuelPercents.set('281474976710002', { time: new Date(clock.now().getTime() - 120_000).toISOString(), value: 12 });
    const integrationId = await connectIntegration(h, 'samsara', { apiToken: SANDBOX_TOKEN });
    ids.integration = integrationId;
    await runSyncPass(h);
    const integration = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
    expect(integration).toMatchObject({ status: 'ACTIVE', lastSyncAt: clock.now().toISOString() });
    expect(integration.lastSyncCounts).toMatchObject({ clocks: 2, clocksUpdated: 2, logs: 5, logsAdded: 5, locations: 2, positionsAdded: 2, unmatchedDrivers: 1, unmatchedVehicles: 1 });

    const alice = await apiCall(h, 'GET', `/api/v1/drivers/${ids.alice!}/hos`);
    expect(alice).toMatchObject({
      source: 'samsara',
      lastSyncedAt: clock.now().toISOString(),
      currentDutyStatus: 'ON_DUTY_DRIVING',
      driveTimeRemaining: 5.5,
      dutyTimeRemaining: 8,
      cycleTimeRemaining: 40,
      breakRequiredWithin: 2,
      currentHoursDriven: 5.5,
      currentCycleUsed: 30,
    });
    const bob = await apiCall(h, 'GET', `/api/v1/drivers/${ids.bob!}/hos`);
    expect(bob).toMatchObject({ source: 'samsara', currentDutyStatus: 'SLEEPER_BERTH', driveTimeRemaining: 11, dutyTimeRemaining: 14, cycleTimeRemaining: 70 });

    const log = (await apiCall(h, 'GET', `/api/v1/drivers/${ids.alice!}/duty-status`)).data as { status: string; source: string; at: string; latitude: number | null }[];
    expect(log.map((e) => [e.status, e.source, e.at]).reverse()).toEqual([
      ['OFF_DUTY', 'samsara', new Date(clock.now().getTime() - 16 * 3_600_000).toISOString()],
      ['ON_DUTY_NOT_DRIVING', 'samsara', new Date(clock.now().getTime() - 6 * 3_600_000).toISOString()],
      ['ON_DUTY_DRIVING', 'samsara', new Date(clock.now().getTime() - 330 * 60_000).toISOString()],
    ]);
    expect(log[0]).toMatchObject({ latitude: 32.8, longitude: -96.9 });

    const positions = (await apiCall(h, 'GET', `/api/v1/routes/${ids.aliceRoute!}/positions`)).data;
    expect(positions).toEqual([
      expect.objectContaining({ latitude: 33.0, longitude: -96.857, speedMph: 61.5, headingDegrees: 270, fuelLevelPercent: 62, source: 'samsara', recordedAt: new Date(clock.now().getTime() - 60_000).toISOString() }),
    ]);

    // Monitoring: TRK-101's coolant warning → VEHICLE_FAULT; TRK-102's stop lamp (oil pressure) → VEHICLE_BREAKDOWN, 18 % fuel → LOW_FUEL.
    await monitoringPass();
    expect(await alertsOf(ids.aliceRoute!)).toEqual(['VEHICLE_FAULT']);
    expect(await alertsOf(ids.bobRoute!)).toEqual(['LOW_FUEL', 'ROUTE_DEVIATION', 'VEHICLE_BREAKDOWN']);
  });

  it('a second sync changes nothing', async () => {
    const before = {
      hos: await apiCall(h, 'GET', `/api/v1/drivers/${ids.alice!}/hos`),
      log: await apiCall(h, 'GET', `/api/v1/drivers/${ids.alice!}/duty-status`),
      positions: await apiCall(h, 'GET', `/api/v1/routes/${ids.aliceRoute!}/positions`),
      telemetry: await t.db.system((tx) => tx.query('SELECT * FROM vehicle_telemetry ORDER BY vehicle_id')),
    };
    await apiCall(h, 'POST', `/api/v1/integrations/${ids.integration!}/sync`);
    await runSyncPass(h);
    const counts = (await apiCall(h, 'GET', `/api/v1/integrations/${ids.integration!}`)).lastSyncCounts;
    expect(counts).toMatchObject({ clocksUpdated: 0, clocksUnchanged: 2, logsAdded: 0, logsUnchanged: 5, vehiclesUpdated: 0, vehiclesUnchanged: 2, positionsAdded: 0 });
    expect(await apiCall(h, 'GET', `/api/v1/drivers/${ids.alice!}/hos`)).toEqual(before.hos);
    expect(await apiCall(h, 'GET', `/api/v1/drivers/${ids.alice!}/duty-status`)).toEqual(before.log);
    expect(await apiCall(h, 'GET', `/api/v1/routes/${ids.aliceRoute!}/positions`)).toEqual(before.positions);
    expect((await t.db.system((tx) => tx.query('SELECT * FROM vehicle_telemetry ORDER BY vehicle_id'))).rows).toEqual(before.telemetry.rows);
  });

  it('end to end: an ELD sync that puts the truck off its route raises ROUTE_DEVIATION', async () => {
    // Back on the path first (north of Dallas on the way to Oklahoma City): no deviation.
    const onPath = { latitude: 33.5, longitude: -97.0 };
    const offPath = { latitude: 33.5, longitude: -96.4 }; // ~35 miles east of it
    const move = (p: { latitude: number; longitude: number }) =>
      sandbox.state.locations.set('281474976710001', { ...p, heading: 0, speed: 58, time: clock.now().toISOString() });
    clock.advance(5 * 60_000);
    move(onPath);
    await apiCall(h, 'POST', `/api/v1/integrations/${ids.integration!}/sync`);
    await runSyncPass(h);
    await monitoringPass();
    expect(await alertsOf(ids.aliceRoute!)).not.toContain('ROUTE_DEVIATION');

    clock.advance(5 * 60_000);
    move(offPath);
    await apiCall(h, 'POST', `/api/v1/integrations/${ids.integration!}/sync`);
    await runSyncPass(h);
    await monitoringPass();
    const deviation = ((await apiCall(h, 'GET', `/api/v1/alerts?routePlanId=${ids.aliceRoute!}&type=ROUTE_DEVIATION`)).data as { status: string; metadata: Record<string, number> }[])[0];
    expect(deviation).toMatchObject({ status: 'ACTIVE' });
    expect(deviation!.metadata.distanceMiles).toBeGreaterThan(20);
  });

  it('the vendor answering 429, 500 or hanging: the sync retries, then fails cleanly with ERROR, the alert and the webhook', async () => {
    const webhookId = await subscribeSyncFailed(h);
    for (const [fault, code] of [
      ['rate-limit', 'RATE_LIMITED'],
      ['server-error', 'VENDOR_ERROR'],
      ['hang', 'TIMEOUT'],
    ] as const) {
      const id = await connectIntegration(h, 'samsara', { apiToken: SANDBOX_TOKEN }, `Samsara ${fault}`);
      sandbox.inject({ kind: fault, times: 3 });
      const before = sandbox.state.requests.length;
      await runSyncPass(h);
      expect(sandbox.state.requests.length - before).toBe(3);
      await expectSyncFailedCleanly(h, id, code, webhookId);
      await apiCall(h, 'DELETE', `/api/v1/integrations/${id}`);
    }
  });

  it('the connection test reports each failure code', async () => {
    const id = (await apiCall(h, 'POST', '/api/v1/integrations', { vendor: 'samsara', name: 'Samsara codes', config: { apiToken: SANDBOX_TOKEN } })).id as string;
    for (const [fault, code] of [
      ['rate-limit', 'RATE_LIMITED'],
      ['server-error', 'VENDOR_ERROR'],
      ['hang', 'TIMEOUT'],
      ['not-found', 'NOT_FOUND'],
    ] as const) {
      sandbox.inject({ kind: fault, times: 3 });
      const res = await apiCall(h, 'POST', `/api/v1/integrations/${id}/test`);
      expect(res, fault).toMatchObject({ testResult: 'FAILED', error: { code } });
      expect(JSON.stringify(res)).not.toContain(SANDBOX_TOKEN);
    }
  });
});
