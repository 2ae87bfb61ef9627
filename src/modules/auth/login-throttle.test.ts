import { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../lib/ids.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../infra/rate-limit-store.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS, type DbKind } from '../../../test/helpers/db.js';
import { createTenant, type TenantFixture } from '../../../test/helpers/factories.js';

const LOGIN = '/api/v1/auth/login';
const S = 1000;
const MIN = 60_000;
const REDIS_URL = process.env.TEST_REDIS_URL;

type StoreKind = 'memory' | 'redis';
// Every database kind with the in-process store; the Redis store (what REDIS_URL selects) on the last one.
const CASES: Array<[DbKind, StoreKind]> = [...DB_KINDS.map((k): [DbKind, StoreKind] => [k, 'memory']), ...(REDIS_URL ? [[DB_KINDS.at(-1)!, 'redis'] as [DbKind, StoreKind]] : [])];

const lockedBody = (seconds: number) => ({
  statusCode: 429,
  error: 'Too Many Requests',
  message: `Too many failed sign-in attempts for this e-mail address. Retry in ${seconds} seconds.`,
});
const INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Invalid email or password' };

describe.each(CASES)('login throttled per account (%s database, %s store)', (kind, storeKind) => {
  let t: TestApp;
  let redis: Redis | undefined;
  const prefix = `fleet-test:login:${randomBase62(10)}:`;

  beforeAll(async () => {
    let rateLimits: RateLimitStore = new MemoryRateLimitStore();
    if (storeKind === 'redis') {
      redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
      rateLimits = new RedisRateLimitStore(redis, prefix);
    }
    t = await buildTestApp(kind, { rateLimits });
  });
  afterAll(async () => {
    await t?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  const attempt = (email: string, password: string) => t.app.inject({ method: 'POST', url: LOGIN, payload: { email, password } });
  const fresh = async (): Promise<TenantFixture> => createTenant(t.app);
  const expectLocked = (res: LightMyRequestResponse, seconds: number) => {
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(lockedBody(seconds));
    expect(res.headers['retry-after']).toBe(String(seconds));
    expect(res.headers['set-cookie']).toBeUndefined();
  };
  const expectInvalid = (res: LightMyRequestResponse) => {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  };

  it('after 5 failures the account is locked for 30 s, even for the right password and any letter case; other accounts are not', async () => {
    const victim = await fresh();
    const bystander = await fresh();
    for (let i = 0; i < 5; i++) expectInvalid(await attempt(victim.email, `wrong-${i}`));
    expectLocked(await attempt(victim.email, victim.password), 30);
    expectLocked(await attempt(victim.email.toUpperCase(), victim.password), 30);
    expect((await attempt(bystander.email, bystander.password)).statusCode).toBe(200);

    // Refused attempts do not extend the lock; Retry-After counts down to the millisecond's second.
    t.clock.advance(10 * S);
    for (let i = 0; i < 10; i++) expectLocked(await attempt(victim.email, 'wrong-again'), 20);
    t.clock.advance(20 * S - 1);
    expectLocked(await attempt(victim.email, victim.password), 1);
    t.clock.advance(1);
    expect((await attempt(victim.email, victim.password)).statusCode).toBe(200);
  });

  it('the delay grows with each further failure (30 s, 1 min, 2 min, …) and is capped at 15 minutes', async () => {
    const victim = await fresh();
    for (let i = 0; i < 5; i++) expectInvalid(await attempt(victim.email, 'wrong'));
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const refused = await attempt(victim.email, 'wrong');
      expect(refused.statusCode).toBe(429);
      const seconds = Number(refused.headers['retry-after']);
      delays.push(seconds);
      t.clock.advance(seconds * S);
      expectInvalid(await attempt(victim.email, 'wrong'));
    }
    expect(delays).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
    // The owner still gets in once the (at most 15-minute) lock ends, and that resets the count.
    expectLocked(await attempt(victim.email, victim.password), 900);
    t.clock.advance(15 * MIN);
    expect((await attempt(victim.email, victim.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expectInvalid(await attempt(victim.email, 'wrong'));
    expectLocked(await attempt(victim.email, 'wrong'), 30);
  });

  it('a successful sign-in resets the count: 4 failures, success, then 5 more failures before the lock', async () => {
    const user = await fresh();
    for (let i = 0; i < 4; i++) expectInvalid(await attempt(user.email, 'wrong'));
    expect((await attempt(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expectInvalid(await attempt(user.email, 'wrong'));
    expectLocked(await attempt(user.email, user.password), 30);
  });

  it('failures are forgotten 15 minutes after the first one', async () => {
    const user = await fresh();
    for (let i = 0; i < 4; i++) expectInvalid(await attempt(user.email, 'wrong'));
    t.clock.advance(15 * MIN);
    for (let i = 0; i < 4; i++) expectInvalid(await attempt(user.email, 'wrong'));
    // 4 + 4 failures, but never 5 within one window: not locked.
    expect((await attempt(user.email, user.password)).statusCode).toBe(200);
  });

  it('does not tell which e-mail addresses have accounts: an unknown address is throttled exactly the same way', async () => {
    const user = await fresh();
    const unknown = `nobody-${randomBase62(8).toLowerCase()}@example.test`;
    const run = async (email: string) => {
      const out: Array<{ status: number; body: string; retryAfter: unknown }> = [];
      for (let i = 0; i < 7; i++) {
        const res = await attempt(email, 'wrong');
        out.push({ status: res.statusCode, body: res.body, retryAfter: res.headers['retry-after'] });
      }
      return out;
    };
    const known = await run(user.email);
    expect(known.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(await run(unknown)).toEqual(known);
  });

  it('concurrent guesses cannot pass the limit: of 20 simultaneous wrong passwords, 5 are checked', async () => {
    const user = await fresh();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(user.email, `guess-${i}`)));
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(15);
  });
});
