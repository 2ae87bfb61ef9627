import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { buildDriver, createApiKey, createTenant, type TenantFixture } from '../helpers/factories.js';

type InjectResponse = LightMyRequestResponse;

const INTERVAL_S = 1200; // 3 requests per hour: one every 20 minutes

function expectRateHeaders(res: InjectResponse, limit: number, remaining: number, resetInSeconds: number, nowMs: number) {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  // A Unix timestamp in seconds: when the allowance is whole again.
  expect(res.headers['x-ratelimit-reset']).toBe(String(Math.ceil((nowMs + resetInSeconds * 1000) / 1000)));
  expect(res.headers['ratelimit-policy']).toBe(`"hourly";q=${limit};w=3600`);
  expect(res.headers.ratelimit).toBe(`"hourly";r=${remaining};t=${resetInSeconds}`);
}

describe.each(DB_KINDS)('rate limits over HTTP (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind, { env: { RATE_LIMIT_STAGING_PER_HOUR: '3', RATE_LIMIT_USER_PER_HOUR: '20' } });
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const now = () => t.clock.now().getTime();
  let tenant: TenantFixture;
  const freshTenant = async () => {
    tenant = await createTenant(t.app);
    return tenant;
  };

  it('an API key gets X-RateLimit-* (reset in Unix seconds) and RateLimit / RateLimit-Policy headers; the 4th request in the hour is 429', async () => {
    await freshTenant();
    const { key } = await createApiKey(t.app, tenant);
    const headers = { 'x-api-key': key };
    for (let i = 1; i <= 3; i++) {
      const res = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
      expect(res.statusCode).toBe(200);
      expectRateHeaders(res, 3, 3 - i, i * INTERVAL_S, now());
    }
    const limited = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: `Rate limit exceeded. Retry in ${INTERVAL_S} seconds.` });
    expect(limited.headers['retry-after']).toBe(String(INTERVAL_S));
    expectRateHeaders(limited, 3, 0, 3 * INTERVAL_S, now());
    const reset = Number(limited.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now() / 1000) + 3600);
  });

  it('a refused request does nothing; after Retry-After exactly one more request passes', async () => {
    await freshTenant();
    const { key } = await createApiKey(t.app, tenant);
    const headers = { 'x-api-key': key };
    for (let i = 0; i < 3; i++) expect((await inject({ method: 'POST', url: '/api/v1/drivers', headers, payload: buildDriver() })).statusCode).toBe(201);
    const refused = await inject({ method: 'POST', url: '/api/v1/drivers', headers, payload: buildDriver() });
    expect(refused.statusCode).toBe(429);
    // Retrying early does not push the time back.
    t.clock.advance((INTERVAL_S - 1) * 1000);
    const early = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.json().message).toBe('Rate limit exceeded. Retry in 1 seconds.');

    t.clock.advance(1000);
    const allowed = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['x-ratelimit-remaining']).toBe('0');
    // Only the three accepted creations happened.
    expect(allowed.json().total).toBe(3);
    const next = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe(String(INTERVAL_S));
  });

  it('counts per key: X-API-Key and Bearer share one allowance, another key and the user token have their own', async () => {
    await freshTenant();
    const first = await createApiKey(t.app, tenant, 'first');
    const second = await createApiKey(t.app, tenant, 'second');
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': first.key } })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { authorization: `Bearer ${first.key}` } })).statusCode).toBe(200);
    // Errors count too: an unknown driver is 404 but consumes the allowance.
    expect((await inject({ method: 'GET', url: '/api/v1/drivers/drv_0000000000000000000000', headers: { 'x-api-key': first.key } })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { authorization: `Bearer ${first.key}` } })).statusCode).toBe(429);

    const other = await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': second.key } });
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('2');
    const user = await inject({ method: 'GET', url: '/api/v1/drivers', headers: tenant.auth });
    expect(user.statusCode).toBe(200);
    expect(user.headers['x-ratelimit-limit']).toBe('20');
  });

  it('a revoked or unknown key is 401, not 429', async () => {
    await freshTenant();
    const created = await createApiKey(t.app, tenant);
    for (let i = 0; i < 4; i++) await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': created.key } });
    expect((await inject({ method: 'DELETE', url: `/api/v1/api-keys/${created.id}`, headers: tenant.auth })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': created.key } })).statusCode).toBe(401);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': `sk_staging_${'Z'.repeat(32)}` } })).statusCode).toBe(401);
  });

  it('limits user access tokens per user (RATE_LIMIT_USER_PER_HOUR)', async () => {
    await freshTenant();
    const statuses: number[] = [];
    let lastAllowed: InjectResponse | undefined;
    for (let i = 0; i < 21; i++) {
      const res = await inject({ method: 'GET', url: '/api/v1/auth/me', headers: tenant.auth });
      statuses.push(res.statusCode);
      if (res.statusCode === 200) lastAllowed = res;
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(lastAllowed!.headers['x-ratelimit-remaining']).toBe('0');
    expect(lastAllowed!.headers['x-ratelimit-limit']).toBe('20');
  });

  it('public endpoints carry the per-address headers; health and docs are not limited', async () => {
    const res = await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'nobody@example.test', password: 'whatever-it-is' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-ratelimit-limit']).toBe('1000000');
    const docs = await inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(docs.headers['x-ratelimit-limit']).toBeUndefined();
    const health = await inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('rate limits in Redis when REDIS_URL is set (TEST_REDIS_URL)', () => {
  let t: TestApp;
  let redis: Redis;
  let second: Awaited<ReturnType<typeof buildApp>> | undefined;
  const redisKeys: string[] = [];

  beforeAll(async () => {
    redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
    t = await buildTestApp('pglite', { env: { REDIS_URL: REDIS_URL!, RATE_LIMIT_STAGING_PER_HOUR: '3' } });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    if (redis) {
      if (redisKeys.length > 0) await redis.del(...redisKeys);
      await redis.quit();
    }
  });

  it('keeps the counters in Redis', async () => {
    const tenant = await createTenant(t.app);
    const created = await createApiKey(t.app, tenant);
    const redisKey = `fleet:rl:key:${created.id}`;
    redisKeys.push(redisKey);
    expect(await redis.exists(redisKey)).toBe(0);

    const headers = { 'x-api-key': created.key };
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers });
      expect(res.statusCode).toBe(200);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expect(await redis.exists(redisKey)).toBe(1);
    expect(await redis.pttl(redisKey)).toBeGreaterThan(0);

    const limited = await t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers });
    expect(limited.statusCode).toBe(429);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThan(INTERVAL_S - 60);
    expect(retry).toBeLessThanOrEqual(INTERVAL_S);
    expect(limited.json().message).toBe(`Rate limit exceeded. Retry in ${retry} seconds.`);

    // Forgetting the counter in Redis restores the allowance: the app holds no state of its own.
    await redis.del(redisKey);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers })).statusCode).toBe(200);
  });

  it('shares one allowance between two API instances', async () => {
    second = await buildApp({ config: t.app.deps.config, db: t.db, mailer: t.mailer, clock: t.clock });
    await second.ready();
    const tenant = await createTenant(t.app);
    const created = await createApiKey(t.app, tenant);
    redisKeys.push(`fleet:rl:key:${created.id}`);
    const headers = { 'x-api-key': created.key };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await (i % 2 === 0 ? t.app : second).inject({ method: 'GET', url: '/api/v1/drivers', headers })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
