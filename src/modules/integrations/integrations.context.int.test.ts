/**
 * What a sync is given about the tenant: its drivers (with external ids) and vehicles to match vendor
 * records against, and points along the rest of each ACTIVE route (weather and fuel look there),
 * starting from the truck's latest position.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMiles } from '../../domain/geo/index.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, FAKE_VENDOR, FakeIntegrationAdapter, runSyncPass, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' };
const OKC = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY' };

describe.each(DB_KINDS)('the sync context (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  const adapter = new FakeIntegrationAdapter();
  const clock = new FakeClock('2026-03-02T14:00:00.000Z');

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock, integrationAdapters: [adapter] });
    const tenant = await createTenant(t.app, { name: 'Context Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => t?.close());

  it('holds the drivers with their external ids, the vehicles, and points along the rest of each ACTIVE route', async () => {
    const driver = await apiCall(h, 'POST', '/api/v1/drivers', { firstName: 'Ana', lastName: 'Ruiz', licenseNumber: 'CTX-1', licenseState: 'TX', externalId: 'PAY-77' });
    const vehicle = await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'CTX-TRUCK', eldExternalId: 'eld-1' });
    const plan = await apiCall(h, 'POST', '/api/v1/routes/plan', {
      // No vehicle on the route: the fake ELD's locations (Dallas, every sync) do not become its positions.
      driverId: driver.id,
      departureTime: clock.now().toISOString(),
      stops: [DALLAS, OKC],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    });
    const planned = await apiCall(h, 'POST', '/api/v1/routes/plan', { driverId: driver.id, departureTime: clock.now().toISOString(), stops: [OKC, DALLAS], driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 } });
    await apiCall(h, 'POST', `/api/v1/routes/${plan.id as string}/activate`);
    await connectIntegration(h, FAKE_VENDOR, { apiToken: 'context-token' });
    await runSyncPass(h);

    const ctx = adapter.calls.filter((c) => c.op === 'sync').at(-1)!.ctx!;
    expect(ctx.drivers).toEqual([{ id: driver.id, licenseNumber: 'CTX-1', externalId: 'PAY-77', firstName: 'Ana', lastName: 'Ruiz' }]);
    expect(ctx.vehicles).toEqual([{ id: vehicle.id, unitNumber: 'CTX-TRUCK', eldExternalId: 'eld-1' }]);
    // Only the ACTIVE route (not the PLANNED one), from Dallas to Oklahoma City every ≤ 50 miles.
    expect(new Set(ctx.routePoints.map((p) => p.routeId))).toEqual(new Set([plan.id]));
    expect(ctx.routePoints.map((p) => p.routeId)).not.toContain(planned.id);
    expect(haversineMiles(ctx.routePoints[0]!, DALLAS)).toBeLessThan(0.5);
    expect(haversineMiles(ctx.routePoints.at(-1)!, OKC)).toBeLessThan(0.5);
    for (let i = 1; i < ctx.routePoints.length; i++) expect(haversineMiles(ctx.routePoints[i - 1]!, ctx.routePoints[i]!)).toBeLessThanOrEqual(50.01);

    // With a position halfway, the points start there.
    await apiCall(h, 'POST', `/api/v1/routes/${plan.id as string}/positions`, { latitude: 34.1, longitude: -97.15, speedMph: 60 });
    clock.advance(60_000);
    await apiCall(h, 'POST', `/api/v1/integrations/${(await apiCall(h, 'GET', '/api/v1/integrations')).data[0].id as string}/sync`);
    await runSyncPass(h);
    const later = adapter.calls.filter((c) => c.op === 'sync').at(-1)!.ctx!;
    expect(haversineMiles(later.routePoints[0]!, { latitude: 34.1, longitude: -97.15 })).toBeLessThan(5);
    expect(later.routePoints.length).toBeLessThan(ctx.routePoints.length);
  });
});
