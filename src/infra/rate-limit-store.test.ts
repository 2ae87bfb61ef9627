import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../lib/ids.js';
import { RedisCredentialsEpoch } from './credentials-epoch.js';
import { MemoryRateLimitStore, RedisRateLimitStore, gcra, type RateDecision, type RateLimitStore } from './rate-limit-store.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 2, 14, 0, 0); // on a whole hour: a fixed window would reset here

describe('gcra (pure step)', () => {
  it('a fresh key is allowed with limit - 1 remaining and the allowance whole again one interval later', () => {
    const { decision, tat } = gcra(undefined, 4, 1000, T0);
    expect(decision).toEqual({ allowed: true, limit: 4, remaining: 3, resetAtMs: T0 + 250, retryAfterMs: 0 });
    expect(tat).toBe(T0 + 250);
  });

  it('a stored arrival time in the past counts as a fresh key', () => {
    expect(gcra(T0 - 10_000, 4, 1000, T0)).toEqual(gcra(undefined, 4, 1000, T0));
  });

  it('uses the last interval of the allowance, then denies without changing the state', () => {
    const last = gcra(T0 + 750, 4, 1000, T0);
    expect(last.decision).toEqual({ allowed: true, limit: 4, remaining: 0, resetAtMs: T0 + 1000, retryAfterMs: 0 });
    const denied = gcra(T0 + 1000, 4, 1000, T0);
    expect(denied.decision).toEqual({ allowed: false, limit: 4, remaining: 0, resetAtMs: T0 + 1000, retryAfterMs: 250 });
    expect(denied.tat).toBeUndefined();
  });

  it('handles intervals that are not whole milliseconds (1000 ms / 3)', () => {
    let tat: number | undefined;
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = gcra(tat, 3, 1000, T0);
      expect(r.decision.allowed).toBe(true);
      remaining.push(r.decision.remaining);
      tat = r.tat;
    }
    expect(remaining).toEqual([2, 1, 0]);
    const denied = gcra(tat, 3, 1000, T0);
    expect(denied.decision).toMatchObject({ allowed: false, retryAfterMs: 334, resetAtMs: T0 + 1000 });
    expect(gcra(tat, 3, 1000, T0 + 333).decision.allowed).toBe(false);
    expect(gcra(tat, 3, 1000, T0 + 334).decision.allowed).toBe(true);
  });

  it('Retry-After is exact: a request retryAfterMs later is allowed, one millisecond earlier is not (property)', () => {
    fc.assert(
      fc.property(
        // Any limit whose interval is at least a millisecond (periods up to 10 hours) …
        fc.integer({ min: 1, max: 100_000 }).chain((limit) => fc.tuple(fc.constant(limit), fc.integer({ min: limit, max: 10 * HOUR }))),
        // … and any stored theoretical arrival time: never more than one period ahead of now.
        fc.double({ min: -1, max: 1, noNaN: true }),
        ([limit, periodMs], ahead) => {
          const stored = T0 + ahead * periodMs;
          const r = gcra(stored, limit, periodMs, T0);
          if (r.decision.allowed) {
            expect(r.decision.remaining).toBeGreaterThanOrEqual(0);
            expect(r.decision.remaining).toBeLessThan(limit);
            expect(r.decision.resetAtMs - T0).toBeLessThanOrEqual(periodMs + 1);
            return;
          }
          expect(r.decision.retryAfterMs).toBeGreaterThan(0);
          expect(r.decision.retryAfterMs).toBeLessThanOrEqual(Math.ceil(periodMs / limit));
          expect(gcra(stored, limit, periodMs, T0 + r.decision.retryAfterMs).decision.allowed).toBe(true);
          expect(gcra(stored, limit, periodMs, T0 + r.decision.retryAfterMs - 1).decision.allowed).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('MemoryRateLimitStore', () => {
  it('allows the limit, then denies with retryAfter until one interval has passed', async () => {
    const store = new MemoryRateLimitStore();
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 6; i++) decisions.push(await store.hit('k', 5, 1000, T0));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]).toEqual({ allowed: false, limit: 5, remaining: 0, resetAtMs: T0 + 1000, retryAfterMs: 200 });
  });

  it('refills smoothly: after period/limit exactly one more request is allowed', async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 5; i++) expect((await store.hit('k', 5, 1000, T0)).allowed).toBe(true);
    expect(await store.hit('k', 5, 1000, T0 + 199)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    expect(await store.hit('k', 5, 1000, T0 + 200)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await store.hit('k', 5, 1000, T0 + 200)).toMatchObject({ allowed: false, retryAfterMs: 200 });
    // Two intervals later, exactly two more.
    const later = [await store.hit('k', 5, 1000, T0 + 600), await store.hit('k', 5, 1000, T0 + 600), await store.hit('k', 5, 1000, T0 + 600)];
    expect(later.map((d) => d.allowed)).toEqual([true, true, false]);
  });

  it('lets no burst of twice the limit through at an hour boundary (unlike a fixed window)', async () => {
    const store = new MemoryRateLimitStore();
    const limit = 1000;
    let before = 0;
    let after = 0;
    // The whole allowance just before the hour turns …
    for (let i = 0; i < limit; i++) if ((await store.hit('k', limit, HOUR, T0 - 1)).allowed) before++;
    // … and a second burst just after it.
    for (let i = 0; i < limit; i++) if ((await store.hit('k', limit, HOUR, T0 + 1)).allowed) after++;
    expect(before).toBe(limit);
    expect(after).toBe(0);
    // One request per 3.6 s after that.
    expect((await store.hit('k', limit, HOUR, T0 - 1 + 3600)).allowed).toBe(true);
    expect((await store.hit('k', limit, HOUR, T0 - 1 + 3600)).allowed).toBe(false);
  });

  it('denied requests do not consume: hammering does not push the retry time back', async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 3; i++) await store.hit('k', 3, 3000, T0);
    for (let i = 0; i < 100; i++) expect((await store.hit('k', 3, 3000, T0 + 500)).retryAfterMs).toBe(500);
    expect((await store.hit('k', 3, 3000, T0 + 1000)).allowed).toBe(true);
  });

  it('the allowance is whole again at resetAtMs', async () => {
    const store = new MemoryRateLimitStore();
    let last: RateDecision | undefined;
    for (let i = 0; i < 3; i++) last = await store.hit('k', 10, 1000, T0);
    expect(last!.resetAtMs).toBe(T0 + 300);
    const burst: boolean[] = [];
    for (let i = 0; i < 11; i++) burst.push((await store.hit('k', 10, 1000, last!.resetAtMs)).allowed);
    expect(burst.filter(Boolean)).toHaveLength(10);
  });

  it('keeps keys apart, and each call states its own limit', async () => {
    const store = new MemoryRateLimitStore();
    expect((await store.hit('a', 1, 1000, T0)).allowed).toBe(true);
    expect((await store.hit('a', 1, 1000, T0)).allowed).toBe(false);
    expect((await store.hit('b', 1, 1000, T0)).allowed).toBe(true);
    expect(await store.hit('c', 100, 1000, T0)).toMatchObject({ allowed: true, limit: 100, remaining: 99 });
  });

  it('forgetting idle keys (the periodic sweep) does not change any decision', async () => {
    const store = new MemoryRateLimitStore();
    expect((await store.hit('idle', 2, 1000, T0)).allowed).toBe(true);
    expect((await store.hit('busy-and-limited', 2, 10_000_000, T0)).allowed).toBe(true);
    expect((await store.hit('busy-and-limited', 2, 10_000_000, T0)).allowed).toBe(true);
    // 10,000 hits trigger a sweep at T0 + 5000: 'idle' is whole again and may be forgotten.
    for (let i = 0; i < 9_997; i++) await store.hit(`other-${i % 7}`, 1_000_000_000, HOUR, T0 + 5000);
    expect(await store.hit('idle', 2, 1000, T0 + 5000)).toMatchObject({ allowed: true, remaining: 1 });
    // A key still limited is not forgotten.
    expect((await store.hit('busy-and-limited', 2, 10_000_000, T0 + 5000)).allowed).toBe(false);
  });

  it('close() forgets every key', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('k', 1, 1000, T0);
    await store.close();
    expect((await store.hit('k', 1, 1000, T0)).allowed).toBe(true);
  });

  describe('properties over any sequence of request times', () => {
    /** limit 1..8, an interval of 1..50 ms (so period = limit × interval), and request gaps from 0 to 2 periods. */
    const scenario = fc
      .record({ limit: fc.integer({ min: 1, max: 8 }), interval: fc.integer({ min: 1, max: 50 }) })
      .chain(({ limit, interval }) =>
        fc.record({
          limit: fc.constant(limit),
          interval: fc.constant(interval),
          gaps: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: interval * 2 }), fc.integer({ min: 0, max: limit * interval * 2 })), {
            minLength: 1,
            maxLength: 150,
          }),
        }),
      );

    async function replay(limit: number, interval: number, gaps: number[]) {
      const store = new MemoryRateLimitStore();
      const period = limit * interval;
      let now = T0;
      const log: Array<{ at: number; d: RateDecision }> = [];
      for (const gap of gaps) {
        now += gap;
        log.push({ at: now, d: await store.hit('k', limit, period, now) });
      }
      return { period, log, allowed: log.filter((e) => e.d.allowed).map((e) => e.at) };
    }

    it('matches an exact token bucket (capacity = limit, one token per period/limit): decisions, remaining, retry and reset times', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ limit, interval, gaps }) => {
          const { period, log } = await replay(limit, interval, gaps);
          // Credit in milliseconds of allowance; a request costs one interval.
          let credit = period;
          let last = T0;
          for (const { at, d } of log) {
            credit = Math.min(period, credit + (at - last));
            last = at;
            if (credit >= interval) {
              credit -= interval;
              expect(d).toEqual({ allowed: true, limit, remaining: Math.floor(credit / interval), resetAtMs: at + (period - credit), retryAfterMs: 0 });
            } else {
              expect(d).toEqual({ allowed: false, limit, remaining: 0, resetAtMs: at + (period - credit), retryAfterMs: interval - credit });
            }
          }
        }),
        { numRuns: 300 },
      );
    });

    it('never admits more than limit + elapsed/interval requests in any stretch of time: no burst beyond the limit, no 2x window', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ limit, interval, gaps }) => {
          const { period, allowed } = await replay(limit, interval, gaps);
          for (let i = 0; i < allowed.length; i++) {
            for (let j = i; j < allowed.length; j++) {
              const admitted = j - i + 1;
              const elapsed = allowed[j]! - allowed[i]!;
              expect(admitted).toBeLessThanOrEqual(limit + Math.floor(elapsed / interval));
              // Within less than one interval: at most the limit (the burst allowance).
              if (elapsed < interval) expect(admitted).toBeLessThanOrEqual(limit);
              // Within any window shorter than one period: always fewer than twice the limit.
              if (elapsed < period) expect(admitted).toBeLessThan(2 * limit);
            }
          }
        }),
        { numRuns: 300 },
      );
    });

    it('over a long run, admits no more than the limit per period plus one burst', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ limit, interval, gaps }) => {
          const { period, allowed } = await replay(limit, interval, gaps);
          if (allowed.length === 0) return;
          const span = allowed[allowed.length - 1]! - allowed[0]!;
          expect(allowed.length).toBeLessThanOrEqual(limit + Math.floor((span * limit) / period));
        }),
        { numRuns: 300 },
      );
    });
  });

  it('documents the GCRA bound: a full burst then sustained use at the refill rate admits 2 x limit - 1 within one period', async () => {
    // limit 4 per 1000 ms: 4 at once, then one every 250 ms. A sliding-log limiter would admit 4 here;
    // GCRA (a token bucket) admits 7, never 8 (the fixed-window worst case), and averages 4 per period.
    const store = new MemoryRateLimitStore();
    const times = [0, 0, 0, 0, 0, 250, 500, 750, 750, 999];
    const allowed: number[] = [];
    for (const dt of times) if ((await store.hit('k', 4, 1000, T0 + dt)).allowed) allowed.push(dt);
    expect(allowed).toEqual([0, 0, 0, 0, 250, 500, 750]);
  });
});

/** The behaviour every store must have, with assertions that do not depend on elapsed time. */
function storeContract(name: string, make: () => { store: RateLimitStore; now: () => number; key: (k: string) => string }) {
  describe(`${name}: store contract`, () => {
    it('allows exactly limit requests, counting remaining down, then denies with a retry within one interval', async () => {
      const { store, now, key } = make();
      const k = key('basic');
      const period = 60_000;
      const decisions: RateDecision[] = [];
      for (let i = 0; i < 6; i++) decisions.push(await store.hit(k, 5, period, now()));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
      expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
      for (const d of decisions) expect(d.limit).toBe(5);
      const denied = decisions[5]!;
      expect(denied.retryAfterMs).toBeGreaterThan(0);
      expect(denied.retryAfterMs).toBeLessThanOrEqual(period / 5);
      // The allowance is whole again about one period after a full burst.
      expect(Math.abs(denied.resetAtMs - (now() + period))).toBeLessThan(2000);
      expect(Math.abs(decisions[0]!.resetAtMs - (now() + period / 5))).toBeLessThan(2000);
    });

    it('keeps keys apart', async () => {
      const { store, now, key } = make();
      expect((await store.hit(key('a'), 1, 60_000, now())).allowed).toBe(true);
      expect((await store.hit(key('a'), 1, 60_000, now())).allowed).toBe(false);
      expect((await store.hit(key('b'), 1, 60_000, now())).allowed).toBe(true);
    });

    it('denied requests do not consume allowance', async () => {
      const { store, now, key } = make();
      const k = key('denied');
      await store.hit(k, 2, 60_000, now());
      await store.hit(k, 2, 60_000, now());
      const first = await store.hit(k, 2, 60_000, now());
      for (let i = 0; i < 20; i++) await store.hit(k, 2, 60_000, now());
      const later = await store.hit(k, 2, 60_000, now());
      expect(later.allowed).toBe(false);
      expect(later.retryAfterMs).toBeLessThanOrEqual(first.retryAfterMs);
    });

    it('is atomic under concurrent hits: exactly limit of 3 x limit simultaneous requests pass', async () => {
      const { store, now, key } = make();
      const k = key('concurrent');
      const results = await Promise.all(Array.from({ length: 60 }, () => store.hit(k, 20, HOUR, now())));
      expect(results.filter((d) => d.allowed)).toHaveLength(20);
      expect(results.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it('enforces an hourly limit of 1000 and an interval that is not a whole number of milliseconds', async () => {
      const { store, now, key } = make();
      const k = key('hourly');
      let allowed = 0;
      for (let i = 0; i < 1001; i++) if ((await store.hit(k, 1000, HOUR, now())).allowed) allowed++;
      expect(allowed).toBe(1000);
      const odd = key('odd');
      const r = [];
      for (let i = 0; i < 4; i++) r.push(await store.hit(odd, 3, 10_000, now()));
      expect(r.map((d) => d.allowed)).toEqual([true, true, true, false]);
      expect(r[3]!.retryAfterMs).toBeGreaterThan(0);
      expect(r[3]!.retryAfterMs).toBeLessThanOrEqual(3334);
    });
  });
}

storeContract('MemoryRateLimitStore', () => {
  const store = new MemoryRateLimitStore();
  return { store, now: () => T0, key: (k) => k };
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('RedisRateLimitStore (TEST_REDIS_URL)', () => {
  const prefix = `fleet-test:rl:${randomBase62(10)}:`;
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

  // The Redis store takes the time from Redis itself and ignores the nowMs argument.
  storeContract('RedisRateLimitStore', () => {
    const run = randomBase62(6);
    return { store, now: () => Date.now(), key: (k) => `${k}:${run}` };
  });

  it('stores one number per key under its prefix, expiring once the allowance is whole again', async () => {
    const k = `ttl:${randomBase62(6)}`;
    await store.hit(k, 10, 60_000, Date.now());
    const value = await redis.get(prefix + k);
    expect(Number(value)).toBeGreaterThan(Date.now() - 60_000);
    const ttl = await redis.pttl(prefix + k);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(6_000 + 1_000);
  });

  it('reads the credentials epoch in the same round trip: empty until a change is announced, then each new value', async () => {
    const epochKey = `${prefix}epoch`;
    const withEpoch = new RedisRateLimitStore(redis, prefix, epochKey);
    const epoch = new RedisCredentialsEpoch(redis, epochKey);
    const k = `epoch:${randomBase62(6)}`;
    expect((await withEpoch.hit(k, 100, 60_000)).epoch).toBe('');
    await epoch.advance();
    const first = (await withEpoch.hit(k, 100, 60_000)).epoch;
    expect(first).toBe(await redis.get(epochKey));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    await epoch.advance();
    const second = (await withEpoch.hit(k, 100, 60_000)).epoch;
    expect(second).not.toBe(first);
    // Also on a denied request: a refused caller still learns of the change.
    const d = `denied:${randomBase62(6)}`;
    await withEpoch.hit(d, 1, 60_000);
    const denied = await withEpoch.hit(d, 1, 60_000);
    expect(denied.allowed).toBe(false);
    expect(denied.epoch).toBe(second);
  });

  it('shares counters between store instances (several API processes)', async () => {
    const other = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
    try {
      const second: RateLimitStore = new RedisRateLimitStore(other, prefix);
      const k = `shared:${randomBase62(6)}`;
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await (i % 2 === 0 ? store : second).hit(k, 5, 60_000, Date.now()));
      expect(results.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    } finally {
      await other.quit();
    }
  });
});
