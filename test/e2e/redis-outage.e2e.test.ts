/**
 * Redis goes away for a few seconds under load (a private redis-server, killed and started again on the
 * same port, keeping nothing, as a restart does): no request fails, and once it is back the rate limits
 * and the per-tenant connection caps hold again, across what happened meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisServer } from '../../soak/lib/infra.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createTenant, type TenantFixture } from '../helpers/factories.js';
import { listen, SseClient } from '../helpers/realtime.js';

describe.skipIf(!RedisServer.available())('a Redis outage under load', () => {
  let redis: RedisServer;
  let t: TestApp;
  let base: string;
  let acme: TenantFixture;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    t = await buildTestApp('pglite', { realClock: true, env: { REDIS_URL: redis.url, RATE_LIMIT_STAGING_PER_HOUR: '5' } });
    base = await listen(t.app);
    acme = await createTenant(t.app, { name: 'Outage Freight' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
    await redis?.stop();
  });

  const openStream = async () => {
    const s = await SseClient.open(base, '/api/v1/sse/alerts', acme.auth);
    expect(s.status).toBe(200);
    await s.next(); // the opening heartbeat: registered against the cap by then
    streams.push(s);
    return s;
  };

  it('no request fails while Redis is away; afterwards rate limits count in Redis again and the connection cap closes the oldest streams', async () => {
    const limited = (await createApiKey(t.app, acme, 'five an hour')).key;
    // Six streams before the outage.
    for (let i = 0; i < 6; i++) await openStream();

    const statuses: number[] = [];
    let running = true;
    const loop = async () => {
      while (running) {
        const res = await fetch(`${base}/api/v1/drivers`, { headers: acme.auth });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
    };
    const load = Promise.all([loop(), loop(), loop()]);
    await sleep(300);

    await redis.stop();
    await sleep(500);
    // During the outage: requests go on, logins too; six more streams are let in (the cap cannot be counted).
    const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: acme.email, password: acme.password }) });
    expect(login.status).toBe(200);
    for (let i = 0; i < 6; i++) await openStream();
    const ready = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.redis.status).toBe('down');
    await sleep(2_000);
    await redis.start();

    // Back: the process reconnects, re-registers its twelve streams, and the cap closes the two oldest.
    await vi.waitFor(async () => expect((await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).statusCode).toBe(200), { timeout: 15_000, interval: 100 });
    await vi.waitFor(() => expect(streams.filter((s) => s.isEnded)).toHaveLength(2), { timeout: 15_000, interval: 100 });
    expect(streams.slice(0, 2).every((s) => s.isEnded)).toBe(true);
    expect(streams.filter((s) => s.isEnded).every((s) => s.frames.some((f) => f.event === 'connection_closed' && f.data?.includes('CONNECTION_LIMIT')))).toBe(true);
    await sleep(300);
    running = false;
    await load;

    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // The limit of 5 an hour holds again, counted in Redis (a restart keeps nothing: a fresh allowance).
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await fetch(`${base}/api/v1/drivers`, { headers: { 'x-api-key': limited } })).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    // And a new stream beyond the cap closes the oldest again.
    const before = streams.filter((s) => s.isEnded).length;
    await openStream();
    await vi.waitFor(() => expect(streams.filter((s) => s.isEnded)).toHaveLength(before + 1), { timeout: 5_000, interval: 50 });
  }, 60_000);
});
