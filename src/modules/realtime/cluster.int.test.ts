/**
 * Two instances of the service on one PostgreSQL database and one Redis (what a scaled-out deployment
 * is): events dispatched by one reach the other's clients once, and the per-tenant caps hold across
 * both. Runs only when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/types.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { openTestDatabase } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { connected, dispatch, json, listen, nextOn, raiseTestAlert, recordSocket, socketClient, SseClient } from '../../../test/helpers/realtime.js';

const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const PATH = '/api/v1/sse/alerts';

describe.runIf(enabled)('realtime across two instances (postgres + redis)', () => {
  let db: Database;
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  const streams: SseClient[] = [];
  const sockets: Socket[] = [];

  const sse = async (base: string, key: string) => {
    const s = await SseClient.open(base, PATH, { 'x-api-key': key });
    streams.push(s);
    expect(s.status).toBe(200);
    return s;
  };
  const socket = async (base: string, token: string) => {
    const s = socketClient(base, token);
    sockets.push(s);
    return connected(s);
  };

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    const env = { REDIS_URL: process.env.TEST_REDIS_URL! };
    a = await buildTestApp('postgres', { db, env });
    b = await buildTestApp('postgres', { db, env, clock: a.clock });
    baseA = await listen(a.app);
    baseB = await listen(b.app);
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.close();
  });

  it('an event dispatched on instance A reaches SSE and Socket.IO clients of instance B, each once', async () => {
    const tenant = await createTenant(a.app, { name: 'Two Instance Freight' });
    const key = (await createApiKey(a.app, tenant)).key;
    const stream = await sse(baseB, key);
    const onB = await socket(baseB, key);
    const onA = await socket(baseA, tenant.token);
    const seenB = recordSocket(onB);
    const seenA = recordSocket(onA);

    const alert = await raiseTestAlert(a.app, tenant.tenantId);
    const gotB = nextOn(onB, 'alert:new');
    const gotA = nextOn(onA, 'alert:new');
    await dispatch(a.app);
    expect((await gotB).id).toBe(alert.id);
    expect((await gotA).id).toBe(alert.id);
    const frame = await stream.nextEvent();
    expect(frame).toMatchObject({ event: 'alert', id: expect.stringMatching(/^\d+$/) });
    expect(json(frame).id).toBe(alert.id);

    // A second event, dispatched by B this time, marks the end of the first one's deliveries: no repeats.
    const second = await raiseTestAlert(b.app, tenant.tenantId, { type: 'VEHICLE_FAULT' });
    const nextB = nextOn(onB, 'alert:new');
    const nextA = nextOn(onA, 'alert:new');
    await dispatch(b.app);
    expect((await nextB).id).toBe(second.id);
    expect((await nextA).id).toBe(second.id);
    expect(json(await stream.nextEvent()).id).toBe(second.id);
    for (const seen of [seenA, seenB]) expect(seen.map((e) => e.payload.id)).toEqual([alert.id, second.id]);
  });

  it('Last-Event-ID on instance B replays what was dispatched while the client was away', async () => {
    const tenant = await createTenant(a.app, { name: 'Reconnecting Freight' });
    const key = (await createApiKey(a.app, tenant)).key;
    const first = await sse(baseA, key);
    const a1 = await raiseTestAlert(a.app, tenant.tenantId);
    await dispatch(a.app);
    const seen = await first.nextEvent();
    expect(json(seen).id).toBe(a1.id);
    first.close();
    const a2 = await raiseTestAlert(a.app, tenant.tenantId, { type: 'DOCK_DELAY' });
    await dispatch(a.app);
    const again = await SseClient.open(baseB, PATH, { 'x-api-key': key, 'last-event-id': seen.id! });
    streams.push(again);
    expect(json(await again.nextEvent()).id).toBe(a2.id);
  });

  it('the SSE cap holds across instances: 6 streams on A and 5 on B close the oldest (on A)', async () => {
    const tenant = await createTenant(a.app, { name: 'Crowded SSE' });
    const key = (await createApiKey(a.app, tenant)).key;
    const onA: SseClient[] = [];
    for (let i = 0; i < 6; i++) onA.push(await sse(baseA, key));
    const onB: SseClient[] = [];
    for (let i = 0; i < 4; i++) onB.push(await sse(baseB, key));
    expect(onA.every((s) => !s.isEnded)).toBe(true);
    onB.push(await sse(baseB, key));
    const notice = await onA[0]!.nextEvent();
    expect(notice.event).toBe('connection_closed');
    expect(json(notice)).toMatchObject({ reason: 'CONNECTION_LIMIT' });
    await onA[0]!.closed;

    const alert = await raiseTestAlert(a.app, tenant.tenantId);
    await dispatch(a.app);
    for (const s of [...onA.slice(1), ...onB]) expect(json(await s.nextEvent()).id).toBe(alert.id);
    expect([...onA.slice(1), ...onB].every((s) => !s.isEnded)).toBe(true);
  });

  it('the Socket.IO cap holds across instances: 6 sockets on A and 5 on B disconnect the oldest (on A)', async () => {
    const tenant = await createTenant(a.app, { name: 'Crowded Sockets' });
    const key = (await createApiKey(a.app, tenant)).key;
    const onA: Socket[] = [];
    for (let i = 0; i < 6; i++) onA.push(await socket(baseA, key));
    const onB: Socket[] = [];
    for (let i = 0; i < 4; i++) onB.push(await socket(baseB, key));
    const oldest = onA[0]!;
    const gone = nextOn<string>(oldest, 'disconnect');
    onB.push(await socket(baseB, key));
    expect(await gone).toBe('io server disconnect');
    expect([...onA.slice(1), ...onB].every((s) => s.connected)).toBe(true);
    // SSE and Socket.IO have separate caps: a stream now does not close a socket.
    await sse(baseA, key);
    const alert = await raiseTestAlert(b.app, tenant.tenantId);
    const all = [...onA.slice(1), ...onB].map((s) => nextOn(s, 'alert:new'));
    await dispatch(b.app);
    for (const got of await Promise.all(all)) expect(got.id).toBe(alert.id);
  });
});
