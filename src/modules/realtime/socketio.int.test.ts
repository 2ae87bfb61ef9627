import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { adminAction, createActiveRoute, createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { connected, dispatch, listen, nextOn, raiseTestAlert, recordSocket, resolveTestAlert, socketClient } from '../../../test/helpers/realtime.js';

type ConnectError = Error & { data?: { statusCode: number; error: string; message: string } };

describe.each(DB_KINDS)('Socket.IO (%s)', (kind) => {
  let t: TestApp;
  let base: string;
  let acme: TenantFixture;
  let acmeKey: string;
  const sockets: Socket[] = [];

  const connect = async (token: string | undefined) => {
    const s = socketClient(base, token);
    sockets.push(s);
    return connected(s);
  };
  const rejected = async (token: string | undefined): Promise<ConnectError> => {
    const s = socketClient(base, token);
    sockets.push(s);
    return connected(s).then(
      () => {
        throw new Error('connected, expected a connect_error');
      },
      (err: ConnectError) => err,
    );
  };
  const localSockets = () => t.app.realtime!.io.of('/').sockets.size;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    base = await listen(t.app);
    acme = await createTenant(t.app, { name: 'Socket Freight' });
    acmeKey = (await createApiKey(t.app, acme, 'sockets')).key;
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await vi.waitFor(() => expect(localSockets()).toBe(0));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('connects with an API key or an access token; a missing, invalid or revoked one, or a suspended tenant, is refused', async () => {
    expect((await connect(acmeKey)).connected).toBe(true);
    expect((await connect(acme.token)).connected).toBe(true);

    const missing = await rejected(undefined);
    expect(missing.data).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect((await rejected('not-a-token')).data).toMatchObject({ statusCode: 401 });
    expect((await rejected(`sk_staging_${'x'.repeat(32)}`)).data).toMatchObject({ statusCode: 401 });
    const revoked = await createApiKey(t.app, acme, 'revoked');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${revoked.id}`, headers: acme.auth })).statusCode).toBe(200);
    const err = await rejected(revoked.key);
    expect(err.message).toMatch(/revoked/i);
    expect(err.data).toMatchObject({ statusCode: 401 });

    const suspended = await createTenant(t.app, { name: 'Suspended Socket Co' });
    const suspendedKey = (await createApiKey(t.app, suspended)).key;
    await adminAction(t.app, suspended.tenantId, 'suspend', 'test');
    const s = await rejected(suspendedKey);
    expect(s.data).toMatchObject({ statusCode: 403 });
    expect(s.message).toContain('Suspended Socket Co');
  });

  it('emits alert:new, alert:updated and alert:resolved to the tenant, and nothing of another tenant', async () => {
    const socket = await connect(acmeKey);
    const other = await createTenant(t.app, { name: 'Other Sockets' });
    const otherSocket = await connect(other.token);
    const seen = recordSocket(socket);
    const otherSeen = recordSocket(otherSocket);
    const driver = await createDriver(t.app, acme.auth);

    const foreign = await raiseTestAlert(t.app, other.tenantId);
    const alert = await raiseTestAlert(t.app, acme.tenantId, { driverId: driver.id });
    const created = nextOn(socket, 'alert:new');
    await dispatch(t.app);
    expect(await created).toMatchObject({ id: alert.id, type: 'LOW_FUEL', status: 'ACTIVE', driverId: driver.id, driverName: 'Dana Driver' });

    const updated = nextOn(socket, 'alert:updated');
    socket.emit('alert:acknowledge', { alertId: alert.id, message: 'looking' });
    await nextOn(socket, 'alert:acknowledge:success');
    await dispatch(t.app);
    expect(await updated).toMatchObject({ id: alert.id, status: 'ACKNOWLEDGED', acknowledgedBy: acme.ownerId });

    const resolved = nextOn(socket, 'alert:resolved');
    await resolveTestAlert(t.app, acme.tenantId, alert.id);
    await dispatch(t.app);
    expect(await resolved).toMatchObject({ id: alert.id, status: 'RESOLVED', resolution: 'cleared in a test' });

    expect(seen.map((e) => e.event)).toEqual(['alert:new', 'alert:acknowledge:success', 'alert:updated', 'alert:resolved']);
    expect(seen.some((e) => JSON.stringify(e.payload).includes(foreign.id))).toBe(false);
    expect(otherSeen.map((e) => [e.event, e.payload.id])).toEqual([['alert:new', foreign.id]]);
  });

  it('emits route:updated on activation, cancellation and completion', async () => {
    const socket = await connect(acme.token);
    const seen = recordSocket(socket);
    const { routeId } = await createActiveRoute(t.app, acme.auth, { activate: false });
    const planned = nextOn(socket, 'route:updated');
    await dispatch(t.app);
    expect(await planned).toMatchObject({ planId: routeId, status: 'PLANNED', event: 'route.planned' });
    const activated = nextOn(socket, 'route:updated');
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/activate`, headers: acme.auth })).statusCode).toBe(200);
    await dispatch(t.app);
    expect(await activated).toMatchObject({ planId: routeId, status: 'ACTIVE', event: 'route.activated' });
    const cancelled = nextOn(socket, 'route:updated');
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/cancel`, headers: acme.auth, payload: { reason: 'weather' } })).statusCode).toBe(200);
    await dispatch(t.app);
    expect(await cancelled).toMatchObject({ planId: routeId, status: 'CANCELLED', reason: 'weather', event: 'route.cancelled' });

    const second = await createActiveRoute(t.app, acme.auth);
    const secondActive = new Promise<void>((resolve) => socket.on('route:updated', (p: { planId: string; status: string }) => p.planId === second.routeId && p.status === 'ACTIVE' && resolve()));
    await dispatch(t.app);
    await secondActive;
    const completed = nextOn(socket, 'route:updated');
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/routes/${second.routeId}/complete`, headers: acme.auth })).statusCode).toBe(200);
    await dispatch(t.app);
    expect(await completed).toMatchObject({ planId: second.routeId, status: 'COMPLETED' });
    expect(seen.filter((e) => e.event === 'route:updated').map((e) => [e.payload.planId, e.payload.status])).toEqual([
      [routeId, 'PLANNED'],
      [routeId, 'ACTIVE'],
      [routeId, 'CANCELLED'],
      [second.routeId, 'PLANNED'],
      [second.routeId, 'ACTIVE'],
      [second.routeId, 'COMPLETED'],
    ]);
  });

  it('alert:acknowledge answers success with the alert, or an error for an unknown, already acknowledged or malformed id (events and ack callback)', async () => {
    const socket = await connect(acmeKey);
    const alert = await raiseTestAlert(t.app, acme.tenantId);

    const ok = await socket.emitWithAck('alert:acknowledge', { alertId: alert.id, message: 'driver called' });
    expect(ok).toMatchObject({ ok: true, alertId: alert.id, alert: { id: alert.id, status: 'ACKNOWLEDGED', acknowledgedAt: expect.any(String) } });
    const notes = await t.app.deps.db.tenant(acme.tenantId, (tx) => tx.query<{ text: string }>('SELECT text FROM alert_notes WHERE tenant_id = $1 AND alert_id = $2', [acme.tenantId, alert.id]));
    expect(notes.rows.map((r) => r.text)).toEqual(['driver called']);

    const again = nextOn(socket, 'alert:acknowledge:error');
    socket.emit('alert:acknowledge', { alertId: alert.id });
    expect(await again).toMatchObject({ alertId: alert.id, statusCode: 400, message: 'Alert is already acknowledged' });

    const unknown = await socket.emitWithAck('alert:acknowledge', { alertId: 'alt_doesnotexist', message: 'x' });
    expect(unknown).toMatchObject({ ok: false, alertId: 'alt_doesnotexist', statusCode: 404, message: 'Alert not found' });

    // Another tenant's alert is not found either, and stays untouched.
    const other = await createTenant(t.app, { name: 'Ack Elsewhere' });
    const foreign = await raiseTestAlert(t.app, other.tenantId);
    expect(await socket.emitWithAck('alert:acknowledge', { alertId: foreign.id })).toMatchObject({ ok: false, statusCode: 404 });
    const row = await t.app.deps.db.system((tx) => tx.query<{ status: string }>('SELECT status FROM alerts WHERE id = $1', [foreign.id]));
    expect(row.rows[0]!.status).toBe('ACTIVE');

    for (const bad of [{}, { alertId: 42 }, { alertId: 'drv_abc' }, 'alt_x', null, { alertId: alert.id, message: 'x'.repeat(2001) }]) {
      expect(await socket.emitWithAck('alert:acknowledge', bad), JSON.stringify(bad)).toMatchObject({ ok: false, statusCode: 400, message: expect.stringMatching(/^Validation failed/) });
    }
  });

  it('a VIEWER may listen but not acknowledge; a DRIVER hears and acknowledges only their own alerts', async () => {
    const tenant = await createTenant(t.app, { name: 'Roles On Sockets' });
    const viewer = await createUser(t.app, t.mailer, tenant, 'VIEWER');
    const mineDriver = await createDriver(t.app, tenant.auth);
    const otherDriver = await createDriver(t.app, tenant.auth);
    const driverUser = await createUser(t.app, t.mailer, tenant, 'DRIVER', { driverId: mineDriver.id });
    const viewerSocket = await connect(viewer.token);
    const driverSocket = await connect(driverUser.token);
    const driverSeen = recordSocket(driverSocket);

    const notMine = await raiseTestAlert(t.app, tenant.tenantId, { driverId: otherDriver.id });
    const noDriver = await raiseTestAlert(t.app, tenant.tenantId, { type: 'TELEMETRY_STALE' });
    const mine = await raiseTestAlert(t.app, tenant.tenantId, { driverId: mineDriver.id });
    const viewerGot = nextOn(viewerSocket, 'alert:new');
    const driverGot = nextOn(driverSocket, 'alert:new');
    await dispatch(t.app);
    expect((await viewerGot).id).toBe(notMine.id);
    expect((await driverGot).id).toBe(mine.id);

    expect(await viewerSocket.emitWithAck('alert:acknowledge', { alertId: notMine.id })).toMatchObject({ ok: false, statusCode: 403 });
    expect(await driverSocket.emitWithAck('alert:acknowledge', { alertId: notMine.id })).toMatchObject({ ok: false, statusCode: 404 });
    expect(await driverSocket.emitWithAck('alert:acknowledge', { alertId: mine.id })).toMatchObject({ ok: true, alert: { status: 'ACKNOWLEDGED' } });

    // A route of another driver: not for this DRIVER user.
    const foreignRoute = await createActiveRoute(t.app, tenant.auth);
    const mineAgain = await raiseTestAlert(t.app, tenant.tenantId, { driverId: mineDriver.id, type: 'VEHICLE_FAULT' });
    const next = nextOn(driverSocket, 'alert:new');
    await dispatch(t.app);
    expect((await next).id).toBe(mineAgain.id);
    // What the server pushed (its answers to this user's own acknowledgements aside).
    const text = JSON.stringify(driverSeen.filter((e) => !e.event.startsWith('alert:acknowledge')));
    for (const id of [notMine.id, noDriver.id, foreignRoute.routeId]) expect(text).not.toContain(id);
  });

  it('disconnects a socket whose key is revoked, or whose tenant is suspended, at the next credential check', async () => {
    const tenant = await createTenant(t.app, { name: 'Revocable Sockets' });
    const key = await createApiKey(t.app, tenant);
    const byKey = await connect(key.key);
    const byToken = await connect(tenant.token);
    const bystander = await connect(acmeKey);
    await t.app.realtime!.hub.recheckSockets();
    expect([byKey, byToken, bystander].every((s) => s.connected)).toBe(true);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${key.id}`, headers: tenant.auth })).statusCode).toBe(200);
    const told = nextOn(byKey, 'connection:closed');
    const gone = nextOn<string>(byKey, 'disconnect');
    await t.app.realtime!.hub.recheckSockets();
    expect(await told).toMatchObject({ reason: 'UNAUTHORIZED' });
    expect(await gone).toBe('io server disconnect');
    expect(byToken.connected).toBe(true);

    await adminAction(t.app, tenant.tenantId, 'suspend', 'test');
    const tokenGone = nextOn<string>(byToken, 'disconnect');
    await t.app.realtime!.hub.recheckSockets();
    expect(await tokenGone).toBe('io server disconnect');
    expect(bystander.connected).toBe(true);
  });

  it('keeps 10 sockets per tenant: an 11th disconnects the oldest, which is told why', async () => {
    const tenant = await createTenant(t.app, { name: 'Socket Crowd' });
    const key = (await createApiKey(t.app, tenant)).key;
    const first: Socket[] = [];
    // Each socket is counted against the cap before it hears it is connected.
    for (let i = 0; i < 10; i++) first.push(await connect(key));
    const oldest = first[0]!;
    const notice = nextOn(oldest, 'connection:closed');
    const gone = nextOn<string>(oldest, 'disconnect');
    await connect(key);
    expect(await notice).toMatchObject({ reason: 'CONNECTION_LIMIT' });
    expect(await gone).toBe('io server disconnect');
    expect(first.slice(1).every((s) => s.connected)).toBe(true);

    const alert = await raiseTestAlert(t.app, tenant.tenantId);
    const all = first.slice(1).map((s) => nextOn(s, 'alert:new'));
    await dispatch(t.app);
    for (const got of await Promise.all(all)) expect(got.id).toBe(alert.id);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/realtime_connections\{kind="socketio"\} 10/);
    expect(metrics.body).toMatch(/realtime_connections_closed_total\{kind="socketio",reason="evicted"\} 1/);
  });
});
