import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createActiveRoute, createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { dispatch, json, listen, raiseTestAlert, resolveTestAlert, SseClient } from '../../../test/helpers/realtime.js';
import { alertsService } from '../alerts/alerts.service.js';
import type { TenantContext } from '../../plugins/context.js';
import { streamPosition } from './realtime.repository.js';

const PATH = '/api/v1/sse/alerts';

describe.each(DB_KINDS)('SSE alert stream (%s)', (kind) => {
  let t: TestApp;
  let base: string;
  let acme: TenantFixture;
  let acmeKey: string;
  const open: SseClient[] = [];

  const sse = async (path: string, headers: Record<string, string> = {}) => {
    const c = await SseClient.open(base, path, headers);
    open.push(c);
    return c;
  };
  const ownerCtx = (tenant: TenantFixture): TenantContext => ({ kind: 'tenant', requestId: 'test', tenantId: tenant.tenantId, tenantStatus: 'ACTIVE', userId: tenant.ownerId, role: 'OWNER', via: 'token' });

  const tenantPosition = (tenantId: string) => t.db.tenant(tenantId, (tx) => streamPosition(tx, tenantId));

  beforeAll(async () => {
    t = await buildTestApp(kind);
    base = await listen(t.app);
    acme = await createTenant(t.app, { name: 'Streaming Freight' });
    acmeKey = (await createApiKey(t.app, acme, 'sse')).key;
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    // Every test starts with no stream open on the server.
    await vi.waitFor(() => expect(t.app.realtime!.hub.sseCount).toBe(0));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('streams alert, alert_updated and alert_resolved with ids, for an alert raised, acknowledged and resolved', async () => {
    const stream = await sse(PATH, { 'x-api-key': acmeKey });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toContain('no-cache');
    // The hooks' headers still go out with a hijacked reply.
    expect(stream.headers['x-ratelimit-limit']).toBeDefined();
    expect(stream.headers['x-request-id']).toBeDefined();
    const driver = await createDriver(t.app, acme.auth);

    const alert = await raiseTestAlert(t.app, acme.tenantId, { driverId: driver.id });
    await dispatch(t.app);
    const created = await stream.nextEvent();
    expect(created.event).toBe('alert');
    expect(created.id).toMatch(/^\d+$/);
    expect(json(created)).toMatchObject({ id: alert.id, type: 'LOW_FUEL', category: 'MECHANICAL', priority: 'MEDIUM', status: 'ACTIVE', driverId: driver.id, driverName: 'Dana Driver' });
    expect(Object.keys(json(created)).sort()).toEqual(
      ['category', 'createdAt', 'driverId', 'driverName', 'id', 'message', 'metadata', 'priority', 'routePlanId', 'status', 'title', 'type', 'vehicleId', 'vehicleUnit'].sort(),
    );

    await alertsService(t.app.deps).acknowledge(ownerCtx(acme), alert.id, 'on it');
    await dispatch(t.app);
    const updated = await stream.nextEvent();
    expect(updated.event).toBe('alert_updated');
    expect(json(updated)).toMatchObject({ id: alert.id, status: 'ACKNOWLEDGED', acknowledgedBy: acme.ownerId, acknowledgedAt: expect.any(String) });
    expect(Number(updated.id)).toBeGreaterThan(Number(created.id));

    await resolveTestAlert(t.app, acme.tenantId, alert.id);
    await dispatch(t.app);
    const resolved = await stream.nextEvent();
    expect(resolved.event).toBe('alert_resolved');
    expect(json(resolved)).toMatchObject({ id: alert.id, status: 'RESOLVED', resolvedBy: 'system', resolution: 'cleared in a test', resolvedAt: expect.any(String) });
    expect(Number(resolved.id)).toBeGreaterThan(Number(updated.id));
  });

  it('carries an alert that monitoring raises for a truck off its path', async () => {
    const stream = await sse(`${PATH}?apiKey=${acmeKey}`);
    expect(stream.status).toBe(200);
    const { routeId } = await createActiveRoute(t.app, acme.auth, { departureTime: t.clock.now().toISOString() });
    t.clock.advance(10 * 60_000);
    const pos = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/positions`, headers: { 'x-api-key': acmeKey }, payload: { latitude: 32.95, longitude: -96.3, speedMph: 55 } });
    expect(pos.statusCode).toBe(201);
    await t.app.workers.get('monitoring').worker.runOnce(t.clock.now());
    await dispatch(t.app);
    const frame = await stream.nextEvent();
    expect(frame.event).toBe('alert');
    expect(json(frame)).toMatchObject({ type: 'ROUTE_DEVIATION', routePlanId: routeId, status: 'ACTIVE' });
    const cancel = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/cancel`, headers: { 'x-api-key': acmeKey }, payload: { reason: 'test over' } });
    expect(cancel.statusCode).toBe(200);
    await dispatch(t.app);
    expect(json((await stream.nextEvent()))).toMatchObject({ type: 'ROUTE_DEVIATION', status: 'RESOLVED', resolution: 'Route cancelled' });
  });

  it('authenticates by X-API-Key, apiKey query, Bearer API key and Bearer access token; 401 without or with a revoked key', async () => {
    for (const headers of [{ 'x-api-key': acmeKey }, { authorization: `Bearer ${acmeKey}` }, acme.auth]) {
      const s = await sse(PATH, headers);
      expect(s.status).toBe(200);
    }
    expect((await sse(`${PATH}?apiKey=${acmeKey}`)).status).toBe(200);

    const none = await sse(PATH);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
    const revoked = await createApiKey(t.app, acme, 'to revoke');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${revoked.id}`, headers: acme.auth });
    expect(del.statusCode).toBe(200);
    expect((await sse(PATH, { 'x-api-key': revoked.key })).status).toBe(401);
    expect((await sse(`${PATH}?apiKey=${revoked.key}`)).status).toBe(401);
    expect((await sse(`${PATH}?apiKey=not-a-key`)).status).toBe(401);
    // The query parameter is for this stream only.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/drivers?apiKey=${acmeKey}` })).statusCode).toBe(401);
    const bad = await sse(`${PATH}?lastEventId=abc`, { 'x-api-key': acmeKey });
    expect(bad.status).toBe(400);
    expect((await sse(PATH, { 'x-api-key': acmeKey, 'last-event-id': 'x1' })).status).toBe(400);
  });

  it('ends a stream whose key is revoked at its next heartbeat', async () => {
    const key = await createApiKey(t.app, acme, 'short-lived');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stream = await sse(PATH, { 'x-api-key': key.key });
      expect(stream.status).toBe(200);
      // Opening finishes after the response starts (registry, replay): wait for the heartbeat timer.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
      const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${key.id}`, headers: acme.auth });
      expect(del.statusCode).toBe(200);
      vi.advanceTimersByTime(30_000);
      // The opening heartbeat, then the one that found the key revoked.
      expect((await stream.next()).event).toBe('heartbeat');
      expect((await stream.next()).event).toBe('heartbeat');
      const last = await stream.next();
      expect(last.event).toBe('connection_closed');
      expect(json(last)).toMatchObject({ reason: 'UNAUTHORIZED' });
      await stream.closed;
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a heartbeat when it opens, with the stream position as its id, then one with the time every 30 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      await raiseTestAlert(t.app, acme.tenantId);
      await dispatch(t.app);
      const position = await tenantPosition(acme.tenantId);
      expect(position).toBeGreaterThan(0);
      const stream = await sse(PATH, { 'x-api-key': acmeKey });
      const opening = await stream.next();
      expect(opening).toMatchObject({ event: 'heartbeat', id: String(position) });
      expect(json(opening)).toEqual({ timestamp: t.clock.now().toISOString() });
      await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
      vi.advanceTimersByTime(29_999);
      vi.advanceTimersByTime(1);
      const first = await stream.next();
      expect(first).toMatchObject({ event: 'heartbeat' });
      expect(first.id).toBeUndefined();
      expect(json(first)).toEqual({ timestamp: t.clock.now().toISOString() });
      t.clock.advance(30_000);
      vi.advanceTimersByTime(30_000);
      expect(json(await stream.next())).toEqual({ timestamp: t.clock.now().toISOString() });
      // Exactly one per interval, after the opening one.
      expect(stream.frames.filter((f) => f.event === 'heartbeat')).toHaveLength(3);
      stream.close();
      await stream.closed;
    } finally {
      vi.useRealTimers();
    }
  });

  it('replays exactly the missed events after Last-Event-ID (header or query), then goes live without repeats', async () => {
    const tenant = await createTenant(t.app, { name: 'Replay Lines' });
    const key = (await createApiKey(t.app, tenant)).key;
    const first = await sse(PATH, { 'x-api-key': key });
    const a1 = await raiseTestAlert(t.app, tenant.tenantId);
    await dispatch(t.app);
    const seen = await first.nextEvent();
    expect(json(seen).id).toBe(a1.id);
    first.close();

    // Missed while disconnected: two alerts and an update, plus another tenant's alert.
    const a2 = await raiseTestAlert(t.app, tenant.tenantId, { type: 'VEHICLE_FAULT' });
    const a3 = await raiseTestAlert(t.app, tenant.tenantId, { type: 'WEATHER_ADVISORY' });
    await alertsService(t.app.deps).acknowledge(ownerCtx(tenant), a2.id);
    await raiseTestAlert(t.app, acme.tenantId);
    await dispatch(t.app);

    const again = await sse(PATH, { 'x-api-key': key, 'last-event-id': seen.id! });
    const replayed = [await again.nextEvent(), await again.nextEvent(), await again.nextEvent()];
    expect(replayed.map((f) => [f.event, json(f).id])).toEqual([
      ['alert', a2.id],
      ['alert', a3.id],
      ['alert_updated', a2.id],
    ]);
    const ids = replayed.map((f) => Number(f.id));
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(ids[0]).toBeGreaterThan(Number(seen.id));

    // Live after the replay; nothing replayed twice.
    const a4 = await raiseTestAlert(t.app, tenant.tenantId, { type: 'DOCK_DELAY' });
    await dispatch(t.app);
    expect(json(await again.nextEvent()).id).toBe(a4.id);
    expect(again.frames.filter((f) => f.event && f.event !== 'heartbeat')).toHaveLength(4);

    // The same through the query parameter, from the second replayed event.
    const byQuery = await sse(`${PATH}?lastEventId=${replayed[1]!.id}`, { 'x-api-key': key });
    expect(json(await byQuery.nextEvent())).toMatchObject({ id: a2.id, status: 'ACKNOWLEDGED' });
    expect(json(await byQuery.nextEvent()).id).toBe(a4.id);
  });

  it('never sends another tenant its events', async () => {
    const other = await createTenant(t.app, { name: 'Other Haulers' });
    const mine = await sse(PATH, acme.auth);
    const theirs = await sse(PATH, other.auth);
    const foreign = await raiseTestAlert(t.app, other.tenantId);
    await dispatch(t.app);
    const own = await raiseTestAlert(t.app, acme.tenantId);
    await dispatch(t.app);
    // Acme's next event is its own: the other tenant's, dispatched before it, never came.
    expect(json(await mine.nextEvent()).id).toBe(own.id);
    expect(json(await theirs.nextEvent()).id).toBe(foreign.id);
    const ownAgain = await raiseTestAlert(t.app, acme.tenantId, { type: 'TELEMETRY_STALE' });
    await dispatch(t.app);
    expect(json(await mine.nextEvent()).id).toBe(ownAgain.id);
    expect(mine.frames.some((f) => f.data?.includes(foreign.id))).toBe(false);
    expect(theirs.frames.some((f) => f.data?.includes(own.id) || f.data?.includes(ownAgain.id))).toBe(false);
  });

  it('gives a DRIVER user only the alerts of their own driver profile, live and replayed', async () => {
    const tenant = await createTenant(t.app, { name: 'Driver View Co' });
    const mineDriver = await createDriver(t.app, tenant.auth);
    const otherDriver = await createDriver(t.app, tenant.auth);
    const user = await createUser(t.app, t.mailer, tenant, 'DRIVER', { driverId: mineDriver.id });
    const stream = await sse(PATH, user.auth);
    expect(stream.status).toBe(200);
    const dispatcherView = await sse(PATH, tenant.auth);

    const notMine = await raiseTestAlert(t.app, tenant.tenantId, { driverId: otherDriver.id });
    const noDriver = await raiseTestAlert(t.app, tenant.tenantId, { type: 'INTEGRATION_SYNC_FAILED' });
    const mine = await raiseTestAlert(t.app, tenant.tenantId, { driverId: mineDriver.id });
    await dispatch(t.app);
    const got = await stream.nextEvent();
    expect(json(got).id).toBe(mine.id);
    expect([json(await dispatcherView.nextEvent()).id, json(await dispatcherView.nextEvent()).id, json(await dispatcherView.nextEvent()).id]).toEqual([notMine.id, noDriver.id, mine.id]);

    const replay = await sse(PATH, { ...user.auth, 'last-event-id': '0' });
    expect(json(await replay.nextEvent()).id).toBe(mine.id);
    const mine2 = await raiseTestAlert(t.app, tenant.tenantId, { driverId: mineDriver.id, type: 'VEHICLE_FAULT' });
    await dispatch(t.app);
    expect(json(await replay.nextEvent()).id).toBe(mine2.id);
    expect(json(await stream.nextEvent()).id).toBe(mine2.id);
    expect([...stream.frames, ...replay.frames].some((f) => f.data?.includes(notMine.id) || f.data?.includes(noDriver.id))).toBe(false);
  });

  it('a client that received no event before it was disconnected resumes from the opening heartbeat: nothing missed in between', async () => {
    const tenant = await createTenant(t.app, { name: 'Quiet Screens' });
    const first = await sse(PATH, tenant.auth);
    const opening = await first.next();
    expect(opening).toMatchObject({ event: 'heartbeat', id: String(await tenantPosition(tenant.tenantId)) });
    first.close();
    await vi.waitFor(() => expect(t.app.realtime!.hub.sseCount).toBe(0));
    // Raised while no stream was open.
    const alert = await raiseTestAlert(t.app, tenant.tenantId);
    await dispatch(t.app);
    const again = await sse(PATH, { ...tenant.auth, 'last-event-id': opening.id! });
    const missed = await again.nextEvent();
    expect(missed.event).toBe('alert');
    expect(json(missed).id).toBe(alert.id);
  });

  it('keeps 10 streams per tenant: an 11th closes the oldest, which is told why', async () => {
    const tenant = await createTenant(t.app, { name: 'Many Screens' });
    const key = (await createApiKey(t.app, tenant)).key;
    const streams: SseClient[] = [];
    // Each stream is counted against the cap before its first bytes (and so its headers) arrive.
    for (let i = 0; i < 10; i++) streams.push(await sse(PATH, { 'x-api-key': key }));
    // Another tenant's streams do not count against it.
    const other = await createTenant(t.app, { name: 'Few Screens' });
    const otherStream = await sse(PATH, other.auth);

    const eleventh = await sse(PATH, { 'x-api-key': key });
    expect(eleventh.status).toBe(200);
    const notice = await streams[0]!.nextEvent();
    expect(notice.event).toBe('connection_closed');
    expect(json(notice)).toMatchObject({ reason: 'CONNECTION_LIMIT' });
    await streams[0]!.closed;

    const alert = await raiseTestAlert(t.app, tenant.tenantId);
    await dispatch(t.app);
    for (const s of [...streams.slice(1), eleventh]) expect(json(await s.nextEvent()).id).toBe(alert.id);
    expect(streams.slice(1).every((s) => !s.isEnded)).toBe(true);
    expect(otherStream.isEnded).toBe(false);

    // A twelfth closes the next oldest.
    await sse(PATH, { 'x-api-key': key });
    expect((await streams[1]!.nextNamed('connection_closed')).event).toBe('connection_closed');
    await streams[1]!.closed;
  });

  it('counts open streams in the metrics, and forgets a stream its client closed', async () => {
    const tenant = await createTenant(t.app, { name: 'Metered' });
    const before = t.app.realtime!.hub.sseCount;
    const s = await sse(PATH, tenant.auth);
    expect(t.app.realtime!.hub.sseCount).toBe(before + 1);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(new RegExp(`realtime_connections\\{kind="sse"\\} ${before + 1}`));
    expect(metrics.body).toMatch(/realtime_connections\{kind="socketio"\} \d+/);
    s.close();
    await vi.waitFor(() => expect(t.app.realtime!.hub.sseCount).toBe(before));
  });

  it('answers app.inject with the stream preamble and replay, then ends (HEAD: headers only)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${PATH}?lastEventId=0`, headers: { 'x-api-key': acmeKey } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.body).toMatch(/^retry: \d+\n/);
    expect(res.body).toMatch(/\nid: \d+\nevent: alert\ndata: \{/);
    const head = await t.app.inject({ method: 'HEAD', url: PATH, headers: { 'x-api-key': acmeKey } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
