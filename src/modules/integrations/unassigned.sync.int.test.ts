/**
 * Unassigned driving from the ELD sandboxes (issue 27), on PGlite and PostgreSQL: a Samsara sync reads
 * `/fleet/unassigned-driving-segments`, a Motive sync `/v1/driving_periods?assigned_to_driver=false`; the
 * still-unassigned driving of our vehicles appears once (a second sync adds nothing; what the vendor already
 * shows assigned, yard moves and unknown vehicles stay out); the 45- and 40-minute segments flag their truck;
 * assigned to a driver and accepted by the driver's user, it is in the driver's log with origin
 * UNIDENTIFIED_ASSUMED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MotiveAdapter } from '../../adapters/integrations/motive/adapter.js';
import { MOTIVE_SANDBOX_API_KEY, startMotiveSandbox } from '../../adapters/integrations/motive/sandbox.js';
import { SamsaraAdapter } from '../../adapters/integrations/samsara/adapter.js';
import { SANDBOX_TOKEN, startSamsaraSandbox } from '../../adapters/integrations/samsara/sandbox.js';
import type { IntegrationAdapter } from '../../adapters/integrations/port.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, runSyncPass, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const NOW = '2026-03-02T14:00:00.000Z';
const MIN = 60_000;

interface Vendor {
  vendor: 'samsara' | 'motive';
  start(now: Date): Promise<{ url: string; close(): Promise<void> }>;
  adapter(url: string): IntegrationAdapter;
  config: Record<string, unknown>;
  /** The flagged truck's segment: minutes, and whether the vendor gives its place and distance. */
  flagged: { minutes: number; miles: number | null; located: boolean };
  /** Segments stored: Samsara's 10-minute one of TRK-101 too; Motive marks that one a yard move. */
  added: number;
}

const VENDORS: Vendor[] = [
  {
    vendor: 'samsara',
    start: (now) => startSamsaraSandbox({ now }),
    adapter: (url) => new SamsaraAdapter({ baseUrl: url, timeoutMs: 1000, maxAttempts: 1 }),
    config: { apiToken: SANDBOX_TOKEN },
    flagged: { minutes: 45, miles: null, located: false },
    added: 2,
  },
  {
    vendor: 'motive',
    start: (now) => startMotiveSandbox({ now }),
    adapter: (url) => new MotiveAdapter({ baseUrl: url, timeoutMs: 1000, maxAttempts: 1 }),
    config: { apiKey: MOTIVE_SANDBOX_API_KEY },
    flagged: { minutes: 40, miles: 23.4, located: true },
    added: 1,
  },
];

describe.each(DB_KINDS.flatMap((kind) => VENDORS.map((v) => [kind, v.vendor, v] as const)))('unassigned driving synced (%s, %s)', (kind, _name, vendor) => {
  let t: TestApp;
  let sandbox: { url: string; close(): Promise<void> };
  let h: IntegrationHarness;
  let tenant: TenantFixture;
  let driver: { id: string; auth: Record<string, string> };
  const ids: Record<string, string> = {};
  const clock = new FakeClock(NOW);

  beforeAll(async () => {
    sandbox = await vendor.start(clock.now());
    t = await buildTestApp(kind, { clock, integrationAdapters: [vendor.adapter(sandbox.url)] });
    tenant = await createTenant(t.app, { name: `Unassigned ${vendor.vendor}` });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
    ids.trk101 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-101' })).id;
    ids.trk102 = (await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-102' })).id;
    const d = await createDriver(t.app, tenant.auth, { firstName: 'Gil', lastName: 'Navarro' });
    driver = { id: d.id, auth: (await createUser(t.app, t.mailer, tenant, 'DRIVER', { driverId: d.id })).auth };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('appears once from the sync, with the unresolved truck flagged', async () => {
    const integrationId = await connectIntegration(h, vendor.vendor, vendor.config);
    await runSyncPass(h);
    const integration = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
    expect(integration).toMatchObject({ status: 'ACTIVE' });
    expect(integration.lastSyncCounts, JSON.stringify(integration)).toMatchObject({ unassignedAdded: vendor.added });

    const list = await apiCall(h, 'GET', '/api/v1/unassigned-driving');
    expect(list.total).toBe(vendor.added);
    const seg = list.data.find((s: { vehicleId: string }) => s.vehicleId === ids.trk102);
    expect(seg).toMatchObject({ vehicleId: ids.trk102, vehicleUnitNumber: 'TRK-102', source: vendor.vendor, status: 'UNASSIGNED', durationMinutes: vendor.flagged.minutes, miles: vendor.flagged.miles });
    expect(seg.end).toBe(new Date(Date.parse(NOW) - 20 * 60 * MIN + vendor.flagged.minutes * MIN).toISOString());
    expect(seg.startLocation === null).toBe(!vendor.flagged.located);
    expect(list.vehicles.filter((v: { flagged: boolean }) => v.flagged)).toEqual([{ vehicleId: ids.trk102, vehicleUnitNumber: 'TRK-102', unresolvedMinutesLast24Hours: vendor.flagged.minutes, flagged: true }]);
    ids.segment = seg.id;

    // The next sync adds nothing.
    clock.advance(5 * MIN);
    await apiCall(h, 'POST', `/api/v1/integrations/${integrationId}/sync`);
    await runSyncPass(h);
    expect((await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`)).lastSyncCounts).toMatchObject({ unassignedAdded: 0 });
    expect((await apiCall(h, 'GET', '/api/v1/unassigned-driving')).total).toBe(vendor.added);
  });

  it('assigned and accepted by the driver, it is in the driver’s log as assumed from unidentified driving', async () => {
    const { segment, edit } = await apiCall(h, 'POST', `/api/v1/unassigned-driving/${ids.segment!}/assign`, { driverId: driver.id });
    expect(segment.status).toBe('ASSIGNMENT_PENDING');
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/log-edits/${edit.id as string}/accept`, headers: driver.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(await apiCall(h, 'GET', `/api/v1/unassigned-driving/${ids.segment!}`)).toMatchObject({ status: 'ASSIGNED', driverId: driver.id, driverName: 'Gil Navarro' });
    const history = await apiCall(h, 'GET', `/api/v1/drivers/${driver.id}/duty-status?history=true`);
    const driving = (history.data as Array<{ status: string; origin: string; recordStatus: string; startedAt?: string; at?: string }>).find((e) => e.status === 'ON_DUTY_DRIVING');
    expect(driving).toMatchObject({ origin: 'UNIDENTIFIED_ASSUMED', recordStatus: 'ACTIVE' });
    const logs = await apiCall(h, 'GET', `/api/v1/drivers/${driver.id}/logs`);
    const events = (logs.data as Array<{ events: Array<{ status: string; origin: string; start: string; end: string }> }>).flatMap((d) => d.events).filter((e) => e.status === 'ON_DUTY_DRIVING');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ origin: 'UNIDENTIFIED_ASSUMED', start: segment.start, end: segment.end });
    expect((await apiCall(h, 'GET', '/api/v1/unassigned-driving')).vehicles.filter((v: { flagged: boolean }) => v.flagged)).toEqual([]);
  });
});
