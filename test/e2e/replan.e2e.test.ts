/**
 * Issue 19's first claim, through the public API: an ACTIVE route whose truck is far behind plan is
 * re-planned. The preview changes nothing; the applied re-plan keeps the completed stops, starts from the
 * last position with the driver's current clocks (the duty-status log), audits to zero violations (checked
 * here by the HOS engine on the driver's log plus the new plan, not by the planner's bookkeeping), is
 * listed as revision 2 with revision 1 intact, and the LATE_TO_APPOINTMENT alert resolves itself at the
 * next monitoring pass. `route.replanned` reaches a webhook receiver, an SSE client and a Socket.IO client.
 *
 * The story: the route was planned with the driver's state typed in by hand (9.5 h driven: a 10-hour
 * rest right after the pickup, arriving ~7 h after the delivery window closes). The driver had in fact
 * rested; the log says so. Stuck in traffic after the pickup, the truck is far behind even that plan. The
 * re-plan from where it is, with the clocks the log gives, keeps the window.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, ruleSet } from '../../src/domain/hos/index.js';
import type { DutyPeriod } from '../../src/domain/hos/types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { DB_KINDS } from '../helpers/db.js';
import { createApiKey, createTenant, type TenantFixture } from '../helpers/factories.js';
import { connected, json, listen, nextOn, socketClient, SseClient } from '../helpers/realtime.js';
import { signedBy, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const HOUR = 3_600_000;
const T0 = '2026-06-08T12:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString();
const DALLAS = { name: 'Dallas yard', latitude: 32.7767, longitude: -96.797 };
const DENTON = { name: 'Denton pickup', latitude: 33.2148, longitude: -97.1331 };
const WICHITA = { name: 'Wichita DC', latitude: 37.6872, longitude: -97.3301 };

interface Seg {
  sequence: number;
  type: string;
  start_time: string;
  end_time: string;
  duty_status?: string;
  duration_hours: number;
}
interface Route {
  id: string;
  status: string;
  revision: number;
  revisionReason: string | null;
  arrivalTime: string;
  stops: { name: string; arrivalTime: string; departureTime: string; withinWindow: boolean | null }[];
  segments: Seg[];
  summary: { hosViolations: number; appointmentsMissed: number; totalDistanceMiles: number };
}

/** A plan's segments as the duty periods they log (how the HOS engine reads a plan). */
function periodsOf(segments: Seg[]): DutyPeriod[] {
  return segments.map((s) => ({
    status: (s.type === 'drive' ? 'ON_DUTY_DRIVING' : s.type === 'dock' || s.type === 'fuel' ? 'ON_DUTY_NOT_DRIVING' : s.type === 'rest' ? s.duty_status : 'OFF_DUTY') as DutyPeriod['status'],
    start: Date.parse(s.start_time),
    end: Date.parse(s.end_time),
  }));
}

describe.each(DB_KINDS)('re-plan an active route, end to end (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let key: string;
  let base: string;
  let hook: Receiver;
  let socket: Socket | undefined;
  let sse: SseClient | undefined;

  beforeAll(async () => {
    hook = await startReceiver();
    t = await buildTestApp(kind, { clock: new FakeClock(at(-1)), env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    acme = await createTenant(t.app, { name: 'Replan Freight' });
    // An API key: the fake clock runs past an access token's 15 minutes.
    key = (await createApiKey(t.app, acme)).key;
    base = await listen(t.app);
  });
  afterAll(async () => {
    socket?.close();
    sse?.close();
    await t?.close();
    await hook?.close();
  });

  it('preview changes nothing; the re-plan keeps the completed stops, starts from the position with the log’s clocks, is revision 2, and the LATE alert resolves', async () => {
    const auth = { 'x-api-key': key };
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: res.json() };
    };
    const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await call(method, url, payload);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body).slice(0, 500)}`).toBeLessThan(300);
      return res.body;
    };
    const webhook = await api('POST', '/api/v1/webhooks', { url: hook.url, events: ['route.replanned'], description: 'dispatch board' });
    sse = await SseClient.open(base, `/api/v1/sse/alerts?apiKey=${key}`);
    socket = await connected(socketClient(base, key));
    const replannedOnSocket = new Promise<Record<string, unknown>>((resolve) => socket!.on('route:updated', (p: Record<string, unknown>) => p.event === 'route.replanned' && resolve(p)));

    const driver = await api('POST', '/api/v1/drivers', { firstName: 'Rosa', lastName: 'Quintero', licenseNumber: 'REPLAN-1', licenseState: 'TX' });
    const planned: Route = await api('POST', '/api/v1/routes/plan', {
      driverId: driver.id,
      departureTime: T0,
      stops: [
        { ...DALLAS, type: 'ORIGIN' },
        { ...DENTON, type: 'PICKUP', dockDurationHours: 0.5 },
        { ...WICHITA, type: 'DELIVERY', dockDurationHours: 1, appointment: { latest: at(10) } },
      ],
      driverState: { hoursDriven: 9.5, onDutyHours: 10, hoursSinceBreak: 2, cycleHoursUsed: 40 },
    });
    expect(planned.summary.appointmentsMissed).toBe(1);
    t.clock.set(T0);
    await api('POST', `/api/v1/routes/${planned.id}/activate`);
    // What the driver logged: rested, then driving from T0.
    await api('POST', `/api/v1/drivers/${driver.id}/duty-status`, { status: 'ON_DUTY_DRIVING' });

    const monitoring = t.app.workers.get('monitoring').worker;
    const outbox = t.app.workers.get('outbox').worker;
    const deliveries = t.app.workers.get('webhooks').worker;
    const runAll = async () => {
      await monitoring.runOnce(t.clock.now());
      while ((await outbox.runOnce(t.clock.now())) > 0);
      while ((await deliveries.runOnce(t.clock.now())) > 0);
    };
    const position = async (hours: number, latitude: number, longitude: number) => {
      t.clock.set(at(hours));
      await api('POST', `/api/v1/routes/${planned.id}/positions`, { latitude, longitude, speedMph: 20, fuelLevelPercent: 80 });
      await runAll();
    };
    await position(0.7, DENTON.latitude, DENTON.longitude);
    await position(1.2, DENTON.latitude + 0.01, DENTON.longitude);
    await position(3, 33.5, -97.15);
    const late = (await api('GET', `/api/v1/alerts?routePlanId=${planned.id}&status=ACTIVE`)).data.find((a: { type: string }) => a.type === 'LATE_TO_APPOINTMENT');
    expect(late, 'LATE_TO_APPOINTMENT raised').toBeTruthy();

    // Preview: the new plan and what changed; nothing stored.
    const preview = await api('POST', `/api/v1/routes/${planned.id}/replan?preview=true`, { reason: 'Stuck in traffic' });
    expect(preview.preview).toBe(true);
    expect(preview.route.revision).toBe(2);
    expect(preview.changes.stops).toEqual([
      expect.objectContaining({ index: 2, name: WICHITA.name, oldArrivalTime: planned.stops[2]!.arrivalTime, oldWithinWindow: false, newWithinWindow: true, outcome: 'KEPT' }),
    ]);
    expect(preview.changes.removed).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'rest' })]));
    expect(Date.parse(preview.changes.after.arrivalTime)).toBeLessThan(Date.parse(preview.changes.before.arrivalTime));
    const unchanged: Route = await api('GET', `/api/v1/routes/${planned.id}`);
    expect(unchanged).toMatchObject({ revision: 1, arrivalTime: planned.arrivalTime, segments: planned.segments, stops: planned.stops });
    expect((await api('GET', `/api/v1/routes/${planned.id}/revisions`)).data).toHaveLength(1);

    // Applied.
    const applied = await api('POST', `/api/v1/routes/${planned.id}/replan`, { reason: 'Stuck in traffic; the driver had rested' });
    expect(applied.preview).toBe(false);
    const route: Route = applied.route;
    expect(route).toMatchObject({ id: planned.id, status: 'ACTIVE', revision: 2, revisionReason: 'Stuck in traffic; the driver had rested' });
    expect(route.segments).toEqual(preview.route.segments);
    // Completed stops (the origin and the pickup) as they were; the delivery kept.
    expect(applied.start).toMatchObject({ latitude: 33.5, longitude: -97.15, source: 'POSITION', completedStops: 2, clocks: { source: 'LOG', hoursDriven: 3, onDutyHours: 3 } });
    expect(route.stops.slice(0, 2)).toEqual(planned.stops.slice(0, 2));
    expect(route.stops[2]!.withinWindow).toBe(true);
    expect(route.summary).toMatchObject({ hosViolations: 0, appointmentsMissed: 0 });
    // The new part starts at the re-plan, from the position.
    const fresh = route.segments.filter((s) => Date.parse(s.start_time) >= Date.parse(at(3)));
    expect(fresh[0]).toMatchObject({ start_time: at(3), type: 'drive', from: { latitude: 33.5, longitude: -97.15 } });
    // Audited by the HOS engine: the driver's log up to the re-plan (rested, then driving from T0), then the new plan.
    const history: DutyPeriod[] = [
      { status: 'OFF_DUTY', start: Date.parse(at(-48)), end: Date.parse(T0) },
      { status: 'ON_DUTY_DRIVING', start: Date.parse(T0), end: Date.parse(at(3)) },
    ];
    expect(audit([...history, ...periodsOf(fresh)], ruleSet()).filter((v) => v.at >= Date.parse(at(3)))).toEqual([]);
    expect(await api('GET', `/api/v1/routes/${planned.id}`)).toMatchObject({ revision: 2, arrivalTime: route.arrivalTime });

    // Revisions: 1 (as planned, intact) then 2 (current).
    const revisions = (await api('GET', `/api/v1/routes/${planned.id}/revisions`)).data;
    expect(revisions.map((r: { revision: number; current: boolean }) => [r.revision, r.current])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(revisions[0]).toMatchObject({ reason: null, arrivalTime: planned.arrivalTime, summary: planned.summary, stops: planned.stops, supersededAt: at(3) });
    expect(revisions[1]).toMatchObject({ reason: 'Stuck in traffic; the driver had rested', arrivalTime: route.arrivalTime, createdAt: at(3) });
    const first: Route = await api('GET', `/api/v1/routes/${planned.id}/revisions/1`);
    expect(first).toMatchObject({ revision: 1, segments: planned.segments, stops: planned.stops, arrivalTime: planned.arrivalTime });
    expect((await call('GET', `/api/v1/routes/${planned.id}/revisions/3`)).status).toBe(404);

    // The next monitoring pass measures against the new plan: the LATE alert resolves itself.
    t.clock.advance(60_000);
    await runAll();
    const after = await api('GET', `/api/v1/alerts/${late.id}`);
    expect(after).toMatchObject({ status: 'RESOLVED', resolvedBy: 'system' });

    // route.replanned on the three channels.
    const delivered = await hook.next('route.replanned');
    expect(signedBy(webhook.secret, delivered, t.clock.now().getTime() / 1000)).toBe(true);
    expect(JSON.parse(delivered.body)).toMatchObject({ event: 'route.replanned', data: { planId: planned.id, revision: 2, driverId: driver.id, previousArrivalTime: planned.arrivalTime, arrivalTime: route.arrivalTime } });
    expect(json(await sse.nextNamed('route_replanned'))).toMatchObject({ planId: planned.id, revision: 2 });
    expect(await replannedOnSocket).toMatchObject({ planId: planned.id, status: 'ACTIVE', revision: 2, event: 'route.replanned' });
  });

  it('an off-route truck re-planned from where it is: the deviation clears once it has kept to the new path for the confirmation time', async () => {
    const auth = { 'x-api-key': key };
    const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 400)}`).toBeLessThan(300);
      return res.json();
    };
    const confirmMinutes = (await api('GET', '/api/v1/tenant/settings')).monitoring.autoResolveDeviationAfterMinutes as number;
    const driver = await api('POST', '/api/v1/drivers', { firstName: 'Omar', lastName: 'Haddad', licenseNumber: 'REPLAN-3', licenseState: 'TX' });
    const okc = { name: 'Oklahoma City DC', latitude: 35.4676, longitude: -97.5164 };
    const plan = await api('POST', '/api/v1/routes/plan', {
      driverId: driver.id,
      stops: [
        { ...DALLAS, type: 'ORIGIN' },
        { ...okc, type: 'DELIVERY', dockDurationHours: 1 },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 10 },
    });
    await api('POST', `/api/v1/routes/${plan.id}/activate`);
    const monitoring = t.app.workers.get('monitoring').worker;
    const report = async (latitude: number, longitude: number) => {
      t.clock.advance(60_000);
      await api('POST', `/api/v1/routes/${plan.id}/positions`, { latitude, longitude, speedMph: 50 });
      await monitoring.runOnce(t.clock.now());
    };
    // 40 miles east of the path, an hour out of Dallas.
    const off = { latitude: 33.35, longitude: -96.3 };
    await report(off.latitude, off.longitude);
    const deviation = (await api('GET', `/api/v1/alerts?routePlanId=${plan.id}&type=ROUTE_DEVIATION&status=ACTIVE`)).data[0];
    expect(deviation, 'ROUTE_DEVIATION raised').toBeTruthy();

    const applied = await api('POST', `/api/v1/routes/${plan.id}/replan`, { reason: 'Detour: I-35 closed' });
    expect(applied.start).toMatchObject({ latitude: off.latitude, longitude: off.longitude, completedStops: 1 });
    expect(applied.start.offPlanMiles).toBeGreaterThan(30);
    // Along the new path from where it is towards Oklahoma City, a minute apart.
    for (let minute = 1; minute <= confirmMinutes + 1; minute++) {
      const f = minute / 200;
      await report(off.latitude + (okc.latitude - off.latitude) * f, off.longitude + (okc.longitude - off.longitude) * f);
    }
    expect(await api('GET', `/api/v1/alerts/${deviation.id}`)).toMatchObject({ status: 'RESOLVED', resolvedBy: 'system' });
  });

  it('refuses what cannot be re-planned: a PLANNED or completed route, no position, another tenant’s route', async () => {
    const auth = { 'x-api-key': key };
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: res.json() as { message: string } & Record<string, unknown> };
    };
    const driver = (await call('POST', '/api/v1/drivers', { firstName: 'Ana', lastName: 'Lopez', licenseNumber: 'REPLAN-2', licenseState: 'TX' })).body;
    const plan = (
      await call('POST', '/api/v1/routes/plan', {
        driverId: driver.id,
        stops: [
          { ...DALLAS, type: 'ORIGIN' },
          { ...DENTON, type: 'DELIVERY' },
        ],
        driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
      })
    ).body;
    const planned = await call('POST', `/api/v1/routes/${plan.id}/replan`);
    expect(planned.status).toBe(400);
    expect(planned.body.message).toMatch(/Only ACTIVE routes are re-planned; a PLANNED route is simply planned again/);
    expect((await call('POST', `/api/v1/routes/${plan.id}/activate`)).status).toBe(200);
    const noPosition = await call('POST', `/api/v1/routes/${plan.id}/replan`, { preview: true });
    expect(noPosition.status).toBe(400);
    expect(noPosition.body.message).toMatch(/No position has been reported/);
    const given = await call('POST', `/api/v1/routes/${plan.id}/replan`, { preview: true, position: { latitude: 32.9, longitude: -96.9 } });
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({ preview: true, start: { source: 'REQUEST', completedStops: 1 } });
    expect((await call('POST', `/api/v1/routes/${plan.id}/replan`, { nextStop: 5, position: { latitude: 32.9, longitude: -96.9 } })).status).toBe(400);
    expect((await call('POST', `/api/v1/routes/${plan.id}/replan`, { position: { latitude: 95, longitude: 0 } })).status).toBe(400);
    const other = await createTenant(t.app, { name: 'Someone Else' });
    const theirs = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${plan.id}/replan`, headers: other.auth, payload: { position: { latitude: 32.9, longitude: -96.9 } } });
    expect(theirs.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/routes/${plan.id}/revisions`, headers: other.auth })).statusCode).toBe(404);
    expect((await call('POST', `/api/v1/routes/${plan.id}/complete`)).status).toBe(200);
    const done = await call('POST', `/api/v1/routes/${plan.id}/replan`, { position: { latitude: 32.9, longitude: -96.9 } });
    expect(done.status).toBe(400);
    expect(done.body.message).toMatch(/this route is COMPLETED/);
  });
});
