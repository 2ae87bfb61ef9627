/**
 * The spec's claim end to end: "when a visibility integration detects a late carrier, a
 * LATE_TO_APPOINTMENT alert is generated before the scheduled time". A route carries a load whose
 * reference number is a project44 shipment's; the plan alone is on time; project44 (the sandbox)
 * predicts the delivery after the appointment's latest time. One sync pass and one monitoring pass
 * later, the alert is open — while the clock is still before the appointment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, runSyncPass, type IntegrationHarness } from '../../../test/helpers/integrations.js';
import { activeRouteForLoad, dallasHoustonStops } from '../../../test/helpers/visibility.js';
import { Project44Adapter } from '../../adapters/integrations/project44/adapter.js';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, startProject44Sandbox, type Project44Sandbox } from '../../adapters/integrations/project44/sandbox.js';

const NOW = new Date('2026-03-02T14:00:00.000Z');
const at = (minutes: number): string => new Date(NOW.getTime() + minutes * 60_000).toISOString();

describe.each(DB_KINDS)('project44 predicts a late arrival: LATE_TO_APPOINTMENT before the appointment (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  let sandbox: Project44Sandbox;

  beforeAll(async () => {
    // The sandbox's shipment P44-SHIP-1 (order LOAD-P44-1001): Houston predicted from now+4.5 h.
    sandbox = await startProject44Sandbox({ now: NOW });
    const clock = new FakeClock(NOW);
    const adapter = new Project44Adapter({ baseUrl: sandbox.url, timeoutMs: 1000, sleep: async () => {}, now: () => clock.now().getTime() });
    t = await buildTestApp(kind, { clock, integrationAdapters: [adapter] });
    const tenant = await createTenant(t.app, { name: 'Punctual Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  const lateAlerts = async (routeId: string) =>
    ((await apiCall(h, 'GET', '/api/v1/alerts?type=LATE_TO_APPOINTMENT&status=ACTIVE')).data as { routePlanId: string; [k: string]: unknown }[]).filter((a) => a.routePlanId === routeId);
  const monitoringPass = () => t.app.workers.get('monitoring').worker.runOnce(t.clock.now());

  it('raises LATE_TO_APPOINTMENT from the predicted arrival, while the appointment is still hours away', async () => {
    // Delivery window [now+2 h, now+4 h]; departed Dallas 4 h ago: by the plan it arrives in time.
    const appointmentLatest = at(240);
    const { routeId, driverId } = await activeRouteForLoad(h, 'LOAD-P44-1001', dallasHoustonStops(at(120), appointmentLatest), at(-240));
    expect(await monitoringPass()).toBe(1); // the route was checked: on time by the plan
    expect(await lateAlerts(routeId)).toEqual([]);

    await connectIntegration(h, 'project44', { clientId: SANDBOX_CLIENT_ID, clientSecret: SANDBOX_CLIENT_SECRET, environment: 'sandbox' });
    t.clock.advance(60_000);
    await runSyncPass(h);
    expect(await monitoringPass()).toBe(1);

    expect(t.clock.now().getTime()).toBeLessThan(Date.parse(appointmentLatest));
    const alerts = await lateAlerts(routeId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'LATE_TO_APPOINTMENT',
      priority: 'HIGH',
      status: 'ACTIVE',
      driverId,
      routePlanId: routeId,
      createdAt: t.clock.now().toISOString(),
      metadata: {
        stopIndex: 1,
        stopName: 'Houston Receiver',
        appointmentLatest,
        projectedArrival: at(270),
        projectionMethod: 'VISIBILITY',
        etaSource: 'project44',
        lateByMinutes: 30,
      },
    });
  });
});
