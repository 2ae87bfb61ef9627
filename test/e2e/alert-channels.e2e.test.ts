/**
 * The first claim, end to end through the public API only: a route is activated, a position far
 * off the path is posted, and within one check interval an alert of type ROUTE_DEVIATION reaches an SSE
 * client, a Socket.IO client and a webhook receiver (signature verified) and is listed by
 * GET /api/v1/alerts; the truck comes back on the path and the alert resolves itself, with
 * alert_resolved / alert:resolved / alert.resolved delivered on the three channels.
 *
 * The service's background work runs here one pass at a time (monitoring, outbox dispatch, webhook
 * delivery) on a fake clock, so that "within one interval" is exact and nothing waits on real time.
 * test/e2e/processes.e2e.test.ts runs the same story across separate api and worker processes.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { createApiKey, createTenant, type TenantFixture } from '../helpers/factories.js';
import { connected, json, listen, nextOn, recordSocket, socketClient, SseClient } from '../helpers/realtime.js';
import { signedBy, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

describe.each(DB_KINDS)('an alert on every channel, end to end (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let base: string;
  let hook: Receiver;
  let socket: Socket | undefined;
  let sse: SseClient | undefined;

  beforeAll(async () => {
    hook = await startReceiver();
    t = await buildTestApp(kind, { env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    acme = await createTenant(t.app, { name: 'End To End Freight' });
    base = await listen(t.app);
  });
  afterAll(async () => {
    socket?.close();
    sse?.close();
    await t?.close();
    await hook?.close();
  });

  it('ROUTE_DEVIATION reaches SSE, Socket.IO and a signed webhook within one interval, and resolves itself on all three', async () => {
    // An API key (the fake clock runs past an access token's 15 minutes).
    const key = (await createApiKey(t.app, acme)).key;
    const auth = { 'x-api-key': key };
    const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.json();
    };
    const interval = (await api('GET', '/api/v1/tenant/settings')).monitoring.monitoringIntervalSeconds as number;
    expect(interval).toBe(60);

    // The three channels a dispatcher and an integration listen on.
    const webhook = await api('POST', '/api/v1/webhooks', { url: hook.url, events: ['alert.created', 'alert.resolved'], description: 'dispatch board' });
    const secret = webhook.secret as string;
    sse = await SseClient.open(base, `/api/v1/sse/alerts?apiKey=${key}`);
    expect(sse.status).toBe(200);
    socket = await connected(socketClient(base, key));
    const socketNew = nextOn<Record<string, unknown>>(socket, 'alert:new', 30_000);
    const seen = recordSocket(socket);
    const routeActive = new Promise<void>((resolve) => socket!.on('route:updated', (p: { status: string }) => p.status === 'ACTIVE' && resolve()));

    // A driver and a plan, Dallas → Oklahoma City, activated.
    const driver = await api('POST', '/api/v1/drivers', { firstName: 'Rosa', lastName: 'Quintero', licenseNumber: 'E2E-0001', licenseState: 'TX' });
    const plan = await api('POST', '/api/v1/routes/plan', {
      driverId: driver.id,
      departureTime: t.clock.now().toISOString(),
      stops: [
        { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
        { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    });
    expect((await api('POST', `/api/v1/routes/${plan.id}/activate`)).status).toBe('ACTIVE');

    const monitoring = t.app.workers.get('monitoring').worker;
    const outbox = t.app.workers.get('outbox').worker;
    const deliveries = t.app.workers.get('webhooks').worker;
    const runAll = async () => {
      await monitoring.runOnce(t.clock.now());
      while ((await outbox.runOnce(t.clock.now())) > 0);
      while ((await deliveries.runOnce(t.clock.now())) > 0);
    };
    const post = (latitude: number, longitude: number) => api('POST', `/api/v1/routes/${plan.id}/positions`, { latitude, longitude, speedMph: 55 });

    // Checked at activation; on the road north of Dallas, on the path: nothing.
    await runAll();
    await routeActive;
    expect(seen.filter((e) => e.event === 'route:updated').map((e) => e.payload)).toEqual([
      expect.objectContaining({ planId: plan.id, status: 'PLANNED' }),
      expect.objectContaining({ planId: plan.id, status: 'ACTIVE' }),
    ]);
    t.clock.advance(10 * 60_000);
    await post(32.87, -96.83);
    await runAll();
    expect((await api('GET', `/api/v1/alerts?routePlanId=${plan.id}`)).total).toBe(0);

    // 30 miles east of the path; one interval later the next check has raised the alert everywhere.
    t.clock.advance(60_000);
    await post(32.95, -96.3);
    t.clock.advance(interval * 1000);
    await runAll();

    const frame = await sse.nextNamed('alert');
    expect(frame.id).toMatch(/^\d+$/);
    const viaSse = json(frame);
    expect(viaSse).toMatchObject({ type: 'ROUTE_DEVIATION', category: 'ROUTE_DEVIATION', status: 'ACTIVE', routePlanId: plan.id, driverId: driver.id, driverName: 'Rosa Quintero' });
    const alertId = viaSse.id as string;
    expect(await socketNew).toMatchObject({ id: alertId, type: 'ROUTE_DEVIATION', status: 'ACTIVE' });
    const created = await hook.next('alert.created');
    expect(signedBy(secret, created, t.clock.now().getTime() / 1000)).toBe(true);
    expect(JSON.parse(created.body)).toMatchObject({ event: 'alert.created', webhookId: webhook.id, id: expect.stringMatching(/^evt_/), data: { id: alertId, type: 'ROUTE_DEVIATION' } });
    expect(created.headers['x-service-delivery']).toBeTruthy();
    const listed = await api('GET', '/api/v1/alerts?status=ACTIVE');
    expect(listed.data).toEqual([expect.objectContaining({ id: alertId, type: 'ROUTE_DEVIATION', priority: expect.any(String), metadata: expect.any(Object) })]);

    // Back on the path: after autoResolveDeviationAfterMinutes (15) of positions within the threshold, it resolves itself.
    const socketResolved = nextOn<Record<string, unknown>>(socket, 'alert:resolved', 30_000);
    for (let minute = 1; minute <= 16; minute++) {
      t.clock.advance(60_000);
      await post(32.9 + minute * 0.01, -96.84);
      await runAll();
    }
    const resolvedFrame = await sse.nextNamed('alert_resolved');
    expect(Number(resolvedFrame.id)).toBeGreaterThan(Number(frame.id));
    expect(json(resolvedFrame)).toMatchObject({ id: alertId, status: 'RESOLVED', resolvedBy: 'system' });
    expect(await socketResolved).toMatchObject({ id: alertId, status: 'RESOLVED' });
    const resolved = await hook.next('alert.resolved');
    expect(signedBy(secret, resolved, t.clock.now().getTime() / 1000)).toBe(true);
    expect(JSON.parse(resolved.body)).toMatchObject({ event: 'alert.resolved', data: { id: alertId, status: 'RESOLVED', resolvedBy: 'system' } });
    expect((await api('GET', `/api/v1/alerts/${alertId}`)).status).toBe('RESOLVED');
    expect((await api('GET', '/api/v1/alerts?status=ACTIVE')).total).toBe(0);
    // Exactly once per channel: one alert.created and one alert.resolved at the receiver.
    expect(hook.received.map((r) => r.headers['x-service-event'])).toEqual(['alert.created', 'alert.resolved']);
  });
});
