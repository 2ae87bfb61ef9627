import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../lib/ids.js';
import { LocalConnectionRegistry, RedisConnectionRegistry, type ConnectionRegistry } from './connection-registry.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const kinds: Array<'local' | 'redis'> = REDIS_URL ? ['local', 'redis'] : ['local'];

describe.each(kinds)('connection registry (%s)', (kind) => {
  let redis: Redis | undefined;
  let registry: ConnectionRegistry;
  const prefix = `fleet:rt-test:${randomBase62(8)}:`;

  beforeAll(() => {
    if (kind === 'redis') {
      redis = new Redis(REDIS_URL!);
      registry = new RedisConnectionRegistry(redis, { leaseMs: 60_000, prefix });
    } else registry = new LocalConnectionRegistry();
  });
  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  const tenant = () => `tnt_${randomBase62(10)}`;

  it('answers the oldest connections beyond the cap, in opening order, per tenant and kind', async () => {
    const t1 = tenant();
    const t2 = tenant();
    for (let i = 1; i <= 3; i++) expect(await registry.open({ kind: 'sse', tenantId: t1, id: `a${i}` }, 3)).toEqual([]);
    // Another tenant, and the other kind of the same tenant, have caps of their own.
    expect(await registry.open({ kind: 'sse', tenantId: t2, id: 'b1' }, 3)).toEqual([]);
    expect(await registry.open({ kind: 'socketio', tenantId: t1, id: 's1' }, 3)).toEqual([]);
    expect(await registry.open({ kind: 'sse', tenantId: t1, id: 'a4' }, 3)).toEqual(['a1']);
    expect(await registry.open({ kind: 'sse', tenantId: t1, id: 'a5' }, 3)).toEqual(['a2']);
    // A closed connection frees its place.
    await registry.close({ kind: 'sse', tenantId: t1, id: 'a4' });
    expect(await registry.open({ kind: 'sse', tenantId: t1, id: 'a6' }, 3)).toEqual([]);
    expect(await registry.open({ kind: 'sse', tenantId: t1, id: 'a7' }, 3)).toEqual(['a3']);
    // A lower cap evicts several at once.
    expect(await registry.open({ kind: 'sse', tenantId: t1, id: 'a8' }, 1)).toEqual(['a5', 'a6', 'a7']);
  });

  it.runIf(kind === 'redis')('forgets connections whose instance stopped renewing them; renewing does not bring back an evicted one', async () => {
    const t = tenant();
    const ref = (id: string) => ({ kind: 'sse' as const, tenantId: t, id });
    await registry.open(ref('dead'), 2);
    await registry.open(ref('alive'), 2);
    // The instance holding "dead" stopped renewing it: its lease ran out (in Redis's clock) long ago.
    await redis!.hset(`${prefix}sse:${t}:lease`, 'dead', '0');
    await registry.refresh([ref('alive')]);
    // "dead" no longer counts: a third connection fits; a fourth evicts the oldest live one.
    expect(await registry.open(ref('new1'), 2)).toEqual([]);
    expect(await registry.open(ref('new2'), 2)).toEqual(['alive']);
    await registry.refresh([ref('alive'), ref('new1')]);
    expect(await redis!.zrange(`${prefix}sse:${t}:order`, '0', '-1')).toEqual(['new1', 'new2']);
    expect(await redis!.hexists(`${prefix}sse:${t}:lease`, 'alive')).toBe(0);
    // Keys expire with the leases, so an idle tenant leaves nothing behind.
    expect(await redis!.pttl(`${prefix}sse:${t}:order`)).toBeGreaterThan(0);
  });
});
