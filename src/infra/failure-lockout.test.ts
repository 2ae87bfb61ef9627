import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../lib/ids.js';
import { LOGIN_LOCKOUT, lockoutAttempt, lockoutDelayMs, type LockoutPolicy, type LockoutState } from './failure-lockout.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './rate-limit-store.js';

const T0 = Date.UTC(2026, 2, 2, 14, 0, 0);
const S = 1000;
const MIN = 60_000;
const P = LOGIN_LOCKOUT;

describe('lockout policy and pure step', () => {
  it('the login policy: 5 free attempts in 15 minutes, then 30 s doubling per attempt, capped at 15 minutes', () => {
    expect(P).toEqual({ maxFailures: 5, windowMs: 15 * MIN, baseDelayMs: 30 * S, maxDelayMs: 15 * MIN });
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 100, 10_000].map((n) => lockoutDelayMs(n, P))).toEqual([
      0, 0, 0, 0, 30 * S, 60 * S, 120 * S, 240 * S, 480 * S, 900 * S, 900 * S, 900 * S, 900 * S,
    ]);
  });

  it('a refused attempt leaves the state unchanged', () => {
    const locked: LockoutState = { failures: 5, windowStart: T0, lockedUntil: T0 + 30 * S };
    expect(lockoutAttempt(locked, P, T0 + 10 * S)).toEqual({ decision: { allowed: false, retryAfterMs: 20 * S, failures: 5 }, state: undefined });
  });

  it('the window runs from the first failure: 4 failures then a quiet 15 minutes start afresh', () => {
    const s: LockoutState = { failures: 4, windowStart: T0, lockedUntil: 0 };
    expect(lockoutAttempt(s, P, T0 + 15 * MIN - 1).decision.failures).toBe(5);
    expect(lockoutAttempt(s, P, T0 + 15 * MIN)).toEqual({ decision: { allowed: true, retryAfterMs: 0, failures: 1 }, state: { failures: 1, windowStart: T0 + 15 * MIN, lockedUntil: 0 } });
  });

  it('after a lock, the count is forgotten only a whole window after the lock ended', () => {
    const s: LockoutState = { failures: 7, windowStart: T0, lockedUntil: T0 + 20 * MIN };
    expect(lockoutAttempt(s, P, T0 + 35 * MIN - 1).state).toEqual({ failures: 8, windowStart: T0, lockedUntil: T0 + 35 * MIN - 1 + 240 * S });
    expect(lockoutAttempt(s, P, T0 + 35 * MIN).decision.failures).toBe(1);
  });

  it('never locks for longer than the cap, and Retry-After is exact (property)', () => {
    const policy = fc.record({
      maxFailures: fc.integer({ min: 1, max: 10 }),
      windowMs: fc.integer({ min: 1, max: 60 * MIN }),
      baseDelayMs: fc.integer({ min: 1, max: 10 * MIN }),
      maxDelayMs: fc.integer({ min: 1, max: 60 * MIN }),
    });
    fc.assert(
      fc.property(policy, fc.array(fc.integer({ min: 0, max: 20 * MIN }), { minLength: 1, maxLength: 60 }), (p: LockoutPolicy, gaps) => {
        let state: LockoutState | undefined;
        let now = T0;
        for (const gap of gaps) {
          now += gap;
          const r = lockoutAttempt(state, p, now);
          if (r.state) state = r.state;
          if (r.state) expect(r.state.lockedUntil - now).toBeLessThanOrEqual(p.maxDelayMs);
          if (!r.decision.allowed) {
            expect(r.decision.retryAfterMs).toBeGreaterThan(0);
            expect(r.decision.retryAfterMs).toBeLessThanOrEqual(p.maxDelayMs);
            expect(lockoutAttempt(state, p, now + r.decision.retryAfterMs - 1).decision.allowed).toBe(false);
            expect(lockoutAttempt(state, p, now + r.decision.retryAfterMs).decision.allowed).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** The same decisions from every store, driven by the caller's (fake) time. */
function lockoutContract(name: string, make: () => { store: RateLimitStore; key: (k: string) => string }) {
  describe(`${name}: failure lockout`, () => {
    it('5 attempts pass, then locks of 30 s, 60 s, 120 s … refusals in between change nothing', async () => {
      const { store, key } = make();
      const k = key('grow');
      for (let i = 1; i <= 5; i++) expect(await store.attempt(k, P, T0)).toEqual({ allowed: true, retryAfterMs: 0, failures: i });
      expect(await store.attempt(k, P, T0)).toEqual({ allowed: false, retryAfterMs: 30 * S, failures: 5 });
      for (let i = 0; i < 10; i++) expect((await store.attempt(k, P, T0 + 10 * S)).retryAfterMs).toBe(20 * S);
      expect((await store.attempt(k, P, T0 + 30 * S - 1)).allowed).toBe(false);
      expect(await store.attempt(k, P, T0 + 30 * S)).toEqual({ allowed: true, retryAfterMs: 0, failures: 6 });
      expect(await store.attempt(k, P, T0 + 30 * S)).toEqual({ allowed: false, retryAfterMs: 60 * S, failures: 6 });
      expect((await store.attempt(k, P, T0 + 90 * S)).allowed).toBe(true);
      expect((await store.attempt(k, P, T0 + 90 * S)).retryAfterMs).toBe(120 * S);
    });

    it('the lock is capped at 15 minutes however long the attack goes on', async () => {
      const { store, key } = make();
      const k = key('cap');
      let now = T0;
      for (let i = 0; i < 5; i++) await store.attempt(k, P, now);
      const delays: number[] = [];
      for (let i = 0; i < 9; i++) {
        const refused = await store.attempt(k, P, now);
        expect(refused.allowed).toBe(false);
        delays.push(refused.retryAfterMs / S);
        now += refused.retryAfterMs;
        expect((await store.attempt(k, P, now)).allowed).toBe(true);
      }
      expect(delays).toEqual([30, 60, 120, 240, 480, 900, 900, 900, 900]);
    });

    it('clear() forgets the key at once; other keys are apart; a quiet window forgets it too', async () => {
      const { store, key } = make();
      const [a, b] = [key('a'), key('b')];
      for (let i = 0; i < 5; i++) await store.attempt(a, P, T0);
      expect((await store.attempt(a, P, T0)).allowed).toBe(false);
      expect(await store.attempt(b, P, T0)).toEqual({ allowed: true, retryAfterMs: 0, failures: 1 });
      await store.clear(a);
      expect(await store.attempt(a, P, T0)).toEqual({ allowed: true, retryAfterMs: 0, failures: 1 });
      for (let i = 0; i < 4; i++) await store.attempt(a, P, T0);
      // Locked until T0 + 30 s; forgotten 15 minutes after that.
      expect((await store.attempt(a, P, T0 + 30 * S + 15 * MIN - 1)).failures).toBe(6);
      await store.clear(a);
      for (let i = 0; i < 5; i++) await store.attempt(a, P, T0);
      expect(await store.attempt(a, P, T0 + 30 * S + 15 * MIN)).toEqual({ allowed: true, retryAfterMs: 0, failures: 1 });
    });

    it('is atomic under concurrent attempts: exactly 5 of 30 simultaneous attempts pass', async () => {
      const { store, key } = make();
      const k = key('concurrent');
      const results = await Promise.all(Array.from({ length: 30 }, () => store.attempt(k, P, T0)));
      expect(results.filter((d) => d.allowed).map((d) => d.failures).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5]);
    });
  });
}

lockoutContract('MemoryRateLimitStore', () => ({ store: new MemoryRateLimitStore(), key: (k) => k }));

describe('MemoryRateLimitStore: lockout keys', () => {
  it('close() forgets them', async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 6; i++) await store.attempt('k', P, T0);
    await store.close();
    expect((await store.attempt('k', P, T0)).allowed).toBe(true);
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('RedisRateLimitStore lockout (TEST_REDIS_URL)', () => {
  const prefix = `fleet-test:lock:${randomBase62(10)}:`;
  let redis: Redis;
  let store: RateLimitStore;

  beforeAll(() => {
    redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
    store = new RedisRateLimitStore(redis, prefix);
  });
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  lockoutContract('RedisRateLimitStore', () => {
    const run = randomBase62(6);
    return { store, key: (k) => `${k}:${run}` };
  });

  it('stores one hash per key that expires a window after the lock ends (here: in real time)', async () => {
    const k = `ttl:${randomBase62(6)}`;
    const now = Date.now();
    for (let i = 0; i < 5; i++) await store.attempt(k, P, now);
    expect(await redis.hgetall(prefix + k)).toEqual({ f: '5', w: String(now), l: String(now + 30 * S) });
    const ttl = await redis.pttl(prefix + k);
    expect(ttl).toBeGreaterThan(15 * MIN);
    expect(ttl).toBeLessThanOrEqual(15 * MIN + 30 * S);
    await store.clear(k);
    expect(await redis.exists(prefix + k)).toBe(0);
  });

  it('shares the lock between store instances (several API processes)', async () => {
    const other = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
    try {
      const second = new RedisRateLimitStore(other, prefix);
      const k = `shared:${randomBase62(6)}`;
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await (i % 2 === 0 ? store : second).attempt(k, P, T0));
      expect(results.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    } finally {
      await other.quit();
    }
  });
});
