import { io as connectSocket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { connected, dispatch, json, listen, nextOn, raiseTestAlert, SseClient } from '../../../test/helpers/realtime.js';

describe('realtime on shutdown', () => {
  it('closing the app ends open SSE streams (reconnect soon, with a final event) and closes socket transports (the client reconnects by itself)', async () => {
    const t = await buildTestApp('pglite');
    const base = await listen(t.app);
    const tenant = await createTenant(t.app);
    const key = (await createApiKey(t.app, tenant)).key;
    const stream = await SseClient.open(base, '/api/v1/sse/alerts', { 'x-api-key': key });
    expect(stream.status).toBe(200);
    // Default options: Socket.IO's own reconnection is on.
    const socket = connectSocket(base, { path: '/socket.io', auth: { token: key }, forceNew: true });
    await connected(socket);
    const notice = nextOn<{ reason: string }>(socket, 'connection:closed');
    const disconnected = nextOn<string>(socket, 'disconnect');
    const reconnecting = new Promise<number>((resolve) => socket.io.once('reconnect_attempt', resolve));
    await t.close();
    await stream.closed;
    const last = stream.frames.at(-1)!;
    expect(last).toMatchObject({ event: 'connection_closed', retry: 1000 });
    expect(json(last)).toMatchObject({ reason: 'SHUTDOWN' });
    expect(await notice).toMatchObject({ reason: 'SHUTDOWN' });
    // Not "io server disconnect", after which a client stays away.
    expect(await disconnected).toBe('transport close');
    expect(await reconnecting).toBe(1);
    socket.close();
    expect(t.app.realtime!.hub.sseCount).toBe(0);
  });

  it('a socket that reconnects to another instance is sent what it missed after its offset (no alert lost across a restart)', async () => {
    const a = await buildTestApp('pglite');
    const b = await buildTestApp('pglite', { db: a.db });
    try {
      const baseA = await listen(a.app);
      const baseB = await listen(b.app);
      const tenant = await createTenant(a.app);
      const key = (await createApiKey(a.app, tenant)).key;
      const socket = connectSocket(baseA, { path: '/socket.io', transports: ['websocket'], auth: { token: key }, forceNew: true, reconnection: false });
      const opened = nextOn<{ position: number; resumedAfter: number | null }>(socket, 'connection:ready');
      await connected(socket);
      const ready = await opened;
      expect(ready.resumedAfter).toBeNull();
      const seen: string[] = [];
      socket.on('alert:new', (alert: { id: string }) => seen.push(alert.id));
      const firstArrives = nextOn(socket, 'alert:new');
      const first = await raiseTestAlert(a.app, tenant.tenantId);
      await dispatch(a.app);
      await firstArrives;
      // Instance A goes away; meanwhile two alerts are raised and dispatched (by B's worker).
      socket.disconnect();
      const missed = [await raiseTestAlert(b.app, tenant.tenantId), await raiseTestAlert(b.app, tenant.tenantId)];
      await dispatch(b.app);
      // The client reconnects elsewhere, offering its session id and offset as Socket.IO clients do.
      (socket.io as unknown as { uri: string }).uri = baseB;
      const resumed = nextOn<{ position: number; resumedAfter: number | null; replayed: number }>(socket, 'connection:ready');
      socket.connect();
      const after = await resumed;
      expect(after.resumedAfter).toBeGreaterThan(0);
      expect(after.replayed).toBe(2);
      expect(seen).toEqual([first.id, ...missed.map((m) => m.id)]);
      socket.close();
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('realtime while the database is briefly away', () => {
  it('a handshake that fails for a failure of ours is dropped, not refused: Socket.IO retries by itself; SSE is told to come back', async () => {
    const t = await buildTestApp('pglite');
    try {
      const base = await listen(t.app);
      const tenant = await createTenant(t.app);
      const key = (await createApiKey(t.app, tenant)).key;
      // The next two credential lookups find the database gone (a restart), as pg reports it.
      const principals = t.app.deps.principals;
      const lookup = principals.apiKey.bind(principals);
      let failures = 2;
      principals.apiKey = async (...args) => {
        if (failures-- > 0) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return lookup(...args);
      };

      const stream = await SseClient.open(base, '/api/v1/sse/alerts', { 'x-api-key': key });
      expect(stream.status).toBe(200);
      await stream.closed;
      expect(stream.frames.find((f) => f.retry !== undefined)?.retry).toBe(2000);
      expect(json(stream.frames.find((f) => f.event === 'connection_closed')!)).toMatchObject({ reason: 'UNAVAILABLE' });

      // Default options: the first handshake fails on our side; the client is not told to stay away.
      const socket = connectSocket(base, { path: '/socket.io', auth: { token: key }, forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 200 });
      const refusals: unknown[] = [];
      socket.on('connect_error', (err: Error & { data?: unknown }) => err.data && refusals.push(err.data));
      await connected(socket);
      expect(failures).toBeLessThan(0);
      expect(refusals).toEqual([]);
      socket.close();
    } finally {
      await t.close();
    }
  });
});
