/**
 * The demo's integration setup end to end, without the real server: every vendor sandbox started as the
 * demo starts them, the app's built-in adapters pointed at them, the demo fleet seeded and the vendors
 * connected through the API (in-process), the ELD trucks reported to Samsara by the simulator. After one
 * sync pass every integration is ACTIVE with its counts; after one monitoring pass the demo's alerts are
 * open: the storm ahead of T-104, the advisory on T-105's road, DEMO-1003 late before its appointment,
 * T-101's fault; the ELD drivers' HOS records come from Samsara.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VENDOR_SANDBOXES } from '../adapters/integrations/sandboxes.js';
import type { SamsaraSandboxState } from '../adapters/integrations/samsara/sandbox.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { FakeClock } from '../../test/helpers/clock.js';
import { DB_KINDS } from '../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../test/helpers/factories.js';
import { apiCall, runSyncPass, type IntegrationHarness } from '../../test/helpers/integrations.js';
import type { ApiCaller } from './api.js';
import { driveFleet } from './drive.js';
import type { SamsaraFeed } from './eld-feed.js';
import { seedFleet, WAITING_LOAD, type Truck } from './fleet.js';
import { connectIntegrations, ELD_UNITS, prepareVendorData, startDemoSandboxes, type ConnectedIntegration, type DemoSandboxes } from './integrations.js';
import { PREDICTED_LATE_MINUTES } from './vendor-data.js';

const NOW = new Date('2026-03-02T14:00:00.000Z');
const SPEED = 10;

/** The API through the app's inject, as the demo's HTTP caller would use it. */
function injectCaller(t: TestApp, headers: Record<string, string>): ApiCaller {
  return {
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await t.app.inject({ method: method as 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
      if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${res.body}`);
      return (res.body === '' ? null : res.json()) as T;
    },
  };
}

interface Alert {
  type: string;
  status: string;
  routePlanId: string | null;
  driverId: string | null;
  createdAt: string;
  metadata: Record<string, any>;
}

describe.each(DB_KINDS)("the demo's integrations against the vendor sandboxes (%s)", (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  let sandboxes: DemoSandboxes;
  let trucks: Truck[];
  let eld: SamsaraFeed | undefined;
  let connected: ConnectedIntegration[];
  const clock = new FakeClock(NOW);
  const truck = (unit: string) => trucks.find((x) => x.spec.unit === unit)!;
  const alerts = async (type: string): Promise<Alert[]> => (await apiCall(h, 'GET', `/api/v1/alerts?type=${type}&status=ACTIVE`)).data as Alert[];

  beforeAll(async () => {
    sandboxes = await startDemoSandboxes(VENDOR_SANDBOXES, clock.now());
    t = await buildTestApp(kind, { clock, integrationAdapters: 'built-in', env: sandboxes.env });
    const tenant = await createTenant(t.app, { name: 'Demo Freight Lines' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
    const owner = injectCaller(t, h.auth);
    trucks = await seedFleet(owner, clock.now().getTime());
    ({ eld } = await prepareVendorData(sandboxes, trucks, owner, clock.now().getTime()));
    clock.advance(5_000);
    await driveFleet(owner, trucks, { startedAt: NOW.getTime(), now: clock.now().getTime(), speed: SPEED, cycleMs: 600_000, eld });
    connected = await connectIntegrations(owner, sandboxes);
    clock.advance(5_000);
    await runSyncPass(h);
    await t.app.workers.get('monitoring').worker.runOnce(t.clock.now());
  });
  afterAll(async () => {
    await t?.close();
    await sandboxes?.close();
  });

  it('connects every vendor with a sandbox, each test passing', () => {
    expect(connected.map((c) => c.vendor).sort()).toEqual(VENDOR_SANDBOXES.map((s) => s.vendor).sort());
    expect(connected.filter((c) => !c.ok)).toEqual([]);
  });

  it('every integration is ACTIVE after one sync pass, syncing every minute, with its counts', async () => {
    const list = (await apiCall(h, 'GET', '/api/v1/integrations')).data as { vendor: string; status: string; syncIntervalMinutes: number; lastSyncAt: string | null; lastSyncCounts: Record<string, number> | null; lastError: unknown }[];
    expect(list).toHaveLength(VENDOR_SANDBOXES.length);
    for (const i of list) expect(i, i.vendor).toMatchObject({ status: 'ACTIVE', syncIntervalMinutes: 1, lastSyncAt: t.clock.now().toISOString(), lastError: null, lastSyncCounts: expect.any(Object) });
    const counts = Object.fromEntries(list.map((i) => [i.vendor, i.lastSyncCounts!]));
    // Samsara carries exactly the demo's ELD trucks: all matched, each with a position on its route.
    expect(counts.samsara).toMatchObject({ clocks: ELD_UNITS.length, locations: ELD_UNITS.length, faults: 1, unmatchedDrivers: 0, unmatchedVehicles: 0, positionsAdded: ELD_UNITS.length });
    // Motive keeps its own fleet, none of it ours.
    expect(counts.motive!.unmatchedDrivers).toBeGreaterThan(0);
    expect(counts.mcleod!.loads).toBeGreaterThan(0);
    expect(counts.project44).toMatchObject({ shipments: 1, shipmentsMatched: 1, shipmentsUnmatched: 0 });
    for (const vendor of ['openweather', 'nws']) expect(counts[vendor]!.alerts, vendor).toBeGreaterThanOrEqual(2);
    // The fuel vendor (when built in) prices the stations along the demo routes.
    if (VENDOR_SANDBOXES.some((s) => s.vendor === 'here')) {
      expect(counts.here!.stations).toBeGreaterThan(20);
      expect(counts.here).toMatchObject({ stationsCreated: counts.here!.stations, stationsUpdated: 0 });
    }
  });

  it("McLeod's orders are loads with source mcleod", async () => {
    const loads = (await apiCall(h, 'GET', '/api/v1/loads?pageSize=100')).data as { source: string }[];
    expect(loads.filter((l) => l.source === 'mcleod').length).toBeGreaterThan(0);
    // The six trucks' loads and the one waiting for a driver.
    expect(loads.filter((l) => l.source === 'MANUAL')).toHaveLength(7);
  });

  it("the ELD trucks' positions and their drivers' HOS records come from Samsara", async () => {
    const samsara = sandboxes.state<SamsaraSandboxState>('samsara')!;
    expect(samsara.vehicles.map((v) => v.name)).toEqual(ELD_UNITS);
    for (const unit of ELD_UNITS) {
      const x = truck(unit);
      const positions = (await apiCall(h, 'GET', `/api/v1/routes/${x.routeId}/positions`)).data as { source: string }[];
      expect(positions.map((p) => p.source), unit).toEqual(['samsara']);
      const hos = await apiCall(h, 'GET', `/api/v1/drivers/${x.driverId}/hos`);
      expect(hos, unit).toMatchObject({ source: 'samsara', currentDutyStatus: 'ON_DUTY_DRIVING', lastSyncedAt: t.clock.now().toISOString() });
    }
    // Maria Lopez left an hour (of plan time) ago, rested: about 10 h of driving left; L. Ortiz drove 9 h before.
    expect((await apiCall(h, 'GET', `/api/v1/drivers/${truck('T-101').driverId}/hos`)).driveTimeRemaining).toBeCloseTo(10 - (5_000 * SPEED) / 3_600_000, 1);
    expect((await apiCall(h, 'GET', `/api/v1/drivers/${truck('T-105').driverId}/hos`)).driveTimeRemaining).toBeLessThan(2);
    // The other trucks still report through the API.
    const t102 = (await apiCall(h, 'GET', `/api/v1/routes/${truck('T-102').routeId}/positions`)).data as { source: string }[];
    expect(t102.map((p) => p.source)).toEqual(['API']);
  });

  it('SEVERE_WEATHER_IN_PATH for T-104 (both weather vendors) and WEATHER_ADVISORY for T-105', async () => {
    const severe = await alerts('SEVERE_WEATHER_IN_PATH');
    expect(severe.map((a) => a.routePlanId)).toEqual([truck('T-104').routeId]);
    expect(severe[0]!.metadata.hazards.map((x: { event: string; source: string }) => `${x.source}:${x.event}`).sort()).toEqual(['nws:Winter Storm Warning', 'openweather:Winter Storm Warning']);
    const advisory = await alerts('WEATHER_ADVISORY');
    expect(advisory.map((a) => a.routePlanId)).toEqual([truck('T-105').routeId]);
    expect(advisory[0]!.metadata.hazards[0].event).toBe('Wind Advisory');
  });

  it('LATE_TO_APPOINTMENT for DEMO-1003 from project44, hours before the appointment', async () => {
    const late = await alerts('LATE_TO_APPOINTMENT');
    const t103 = truck('T-103');
    expect(t103.loadReference).toBe('DEMO-1003');
    expect(t103.stops[1]).toMatchObject({ withinWindow: true });
    expect(late.map((a) => a.routePlanId)).toEqual([t103.routeId]);
    const latest = t103.stops[1]!.appointment!.latest!;
    expect(late[0]!.metadata).toMatchObject({ stopIndex: 1, projectionMethod: 'VISIBILITY', etaSource: 'project44', appointmentLatest: latest, lateByMinutes: PREDICTED_LATE_MINUTES });
    expect(Date.parse(latest) - t.clock.now().getTime()).toBeGreaterThan(3_600_000);
  });

  it('the late truck can be re-planned from its position (preview), as the demo guide says', async () => {
    const t103 = truck('T-103');
    const preview = await apiCall(h, 'POST', `/api/v1/routes/${t103.routeId}/replan?preview=true`, { reason: 'project44 predicts the delivery late' });
    expect(preview).toMatchObject({ preview: true, route: { id: t103.routeId, revision: 2 }, start: { source: 'POSITION', completedStops: 1 } });
    expect(preview.changes.stops).toEqual([expect.objectContaining({ name: 'Nashville, TN', outcome: expect.stringMatching(/^(KEPT|MISSED)$/) })]);
    expect((await apiCall(h, 'GET', `/api/v1/routes/${t103.routeId}`)).revision).toBe(1);
  });

  it(`${WAITING_LOAD.referenceNumber} waits for a driver: the candidates rank the fleet for it, T-101's driver first`, async () => {
    const loads = (await apiCall(h, 'GET', `/api/v1/loads?pageSize=100`)).data as { id: string; referenceNumber: string; status: string }[];
    const waiting = loads.find((l) => l.referenceNumber === WAITING_LOAD.referenceNumber)!;
    expect(waiting.status).toBe('PENDING');
    const answer = await apiCall(h, 'POST', '/api/v1/dispatch/candidates', { loadId: waiting.id });
    const ranked = answer.data as { driverId: string; feasible: boolean; reasons: string[]; start: { source: string } }[];
    expect(ranked).toHaveLength(trucks.length);
    expect(ranked[0]).toMatchObject({ driverId: truck('T-101').driverId, feasible: true, start: { source: 'CURRENT_ROUTE' } });
    const infeasible = ranked.filter((c) => !c.feasible);
    expect(infeasible.length).toBeGreaterThan(0);
    for (const c of infeasible) expect(c.reasons.join(' ')).toMatch(/after its window closes|cannot/);
  });

  it("VEHICLE_FAULT for T-101 from Samsara's fault code", async () => {
    const faults = await alerts('VEHICLE_FAULT');
    expect(faults.map((a) => a.routePlanId)).toEqual([truck('T-101').routeId]);
    expect(faults[0]!.metadata.faults[0].code).toBe('SPN 110 FMI 16');
  });

  it('T-105 drove 45 minutes with nobody logged in (from Samsara): flagged on the Unassigned driving page', async () => {
    const list = await apiCall(h, 'GET', '/api/v1/unassigned-driving');
    expect(list.data).toEqual([expect.objectContaining({ vehicleUnitNumber: 'T-105', durationMinutes: 45, source: 'samsara', status: 'UNASSIGNED' })]);
    expect(list.vehicles).toEqual([expect.objectContaining({ vehicleUnitNumber: 'T-105', unresolvedMinutesLast24Hours: 45, flagged: true })]);
  });
});
