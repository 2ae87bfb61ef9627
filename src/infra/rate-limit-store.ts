import type { Redis } from 'ioredis';
import { CREDENTIALS_EPOCH_KEY } from './credentials-epoch.js';
import { LOCKOUT_LUA, lockoutAttempt, lockoutExpiresAt, type LockoutDecision, type LockoutPolicy, type LockoutState } from './failure-lockout.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the allowance is whole again (ms since epoch). */
  resetAtMs: number;
  /** When denied: how long until the next request is allowed. */
  retryAfterMs: number;
  /**
   * The credentials epoch (see credentials-epoch.ts), read in the same round trip by a shared store;
   * undefined for the in-process store, '' while no change has been announced, null when the shared
   * store could not be reached and this process decided alone (ResilientRateLimitStore).
   */
  epoch?: string | null;
}

/**
 * Rate limiting by GCRA (generic cell rate algorithm): a request is allowed while the theoretical
 * arrival time stays within one period of now. It is a smooth sliding limit: no fixed window whose
 * boundary lets twice the limit through. Only one number per key is stored.
 */
export interface RateLimitStore {
  hit(key: string, limit: number, periodMs: number, nowMs: number): Promise<RateDecision>;
  /** Counts an attempt against a failure lockout (failure-lockout.ts), or refuses it while locked. */
  attempt(key: string, policy: LockoutPolicy, nowMs: number): Promise<LockoutDecision>;
  /** Forgets a lockout key (the attempt succeeded). */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The pure GCRA step shared by the in-process store and (in Lua) the Redis one. */
export function gcra(storedTat: number | undefined, limit: number, periodMs: number, nowMs: number): { decision: RateDecision; tat: number | undefined } {
  const interval = periodMs / limit;
  const tat = Math.max(storedTat ?? nowMs, nowMs);
  const newTat = tat + interval;
  const allowAt = newTat - periodMs;
  if (nowMs < allowAt) {
    return {
      decision: { allowed: false, limit, remaining: 0, resetAtMs: Math.ceil(tat), retryAfterMs: Math.ceil(allowAt - nowMs) },
      tat: undefined,
    };
  }
  const remaining = Math.max(0, Math.floor((periodMs - (newTat - nowMs)) / interval + 1e-9));
  return { decision: { allowed: true, limit, remaining, resetAtMs: Math.ceil(newTat), retryAfterMs: 0 }, tat: newTat };
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>();
  private readonly lockouts = new Map<string, { state: LockoutState; expiresAt: number }>();
  private sweeps = 0;

  async hit(key: string, limit: number, periodMs: number, nowMs: number): Promise<RateDecision> {
    const { decision, tat } = gcra(this.tats.get(key), limit, periodMs, nowMs);
    if (tat !== undefined) this.tats.set(key, tat);
    if (++this.sweeps % 10_000 === 0) this.sweep(nowMs);
    return decision;
  }

  async attempt(key: string, policy: LockoutPolicy, nowMs: number): Promise<LockoutDecision> {
    const { decision, state } = lockoutAttempt(this.lockouts.get(key)?.state, policy, nowMs);
    if (state) this.lockouts.set(key, { state, expiresAt: lockoutExpiresAt(state, policy) });
    if (++this.sweeps % 10_000 === 0) this.sweep(nowMs);
    return decision;
  }

  async clear(key: string): Promise<void> {
    this.lockouts.delete(key);
  }

  /** Forget keys whose allowance is whole again (or whose lockout expired): they behave exactly like unseen keys. */
  private sweep(nowMs: number): void {
    for (const [k, tat] of this.tats) if (tat <= nowMs) this.tats.delete(k);
    for (const [k, l] of this.lockouts) if (l.expiresAt <= nowMs) this.lockouts.delete(k);
  }

  async close(): Promise<void> {
    this.tats.clear();
    this.lockouts.clear();
  }
}

// KEYS[1] = key, KEYS[2] = the credentials epoch; ARGV = limit, periodMs. Time comes from Redis
// itself so every instance agrees. The epoch rides along: the request's one round trip to Redis
// tells it both whether it may proceed and whether cached credentials are still current.
const GCRA_LUA = `
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = period / limit
local epoch = redis.call('GET', KEYS[2]) or ''
local stored = tonumber(redis.call('GET', KEYS[1]))
local tat = now
if stored and stored > now then tat = stored end
local newTat = tat + interval
local allowAt = newTat - period
if now < allowAt then
  return {0, 0, math.ceil(tat), math.ceil(allowAt - now), epoch}
end
redis.call('SET', KEYS[1], tostring(newTat), 'PX', math.ceil(newTat - now) + 1000)
local remaining = math.floor((period - (newTat - now)) / interval + 1e-9)
if remaining < 0 then remaining = 0 end
return {1, remaining, math.ceil(newTat), 0, epoch}
`;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'fleet:rl:',
    private readonly epochKey = CREDENTIALS_EPOCH_KEY,
  ) {
    redis.defineCommand('fleetGcra', { numberOfKeys: 2, lua: GCRA_LUA });
    redis.defineCommand('fleetLockout', { numberOfKeys: 1, lua: LOCKOUT_LUA });
  }

  async hit(key: string, limit: number, periodMs: number): Promise<RateDecision> {
    const r = (await (this.redis as unknown as { fleetGcra(k: string, e: string, l: number, p: number): Promise<unknown[]> }).fleetGcra(
      this.prefix + key,
      this.epochKey,
      limit,
      periodMs,
    )) as [number, number, number, number, string];
    return { allowed: r[0] === 1, limit, remaining: r[1], resetAtMs: r[2], retryAfterMs: r[3], epoch: r[4] };
  }

  async attempt(key: string, policy: LockoutPolicy, nowMs: number): Promise<LockoutDecision> {
    const r = (await (this.redis as unknown as { fleetLockout(k: string, ...args: number[]): Promise<unknown[]> }).fleetLockout(
      this.prefix + key,
      policy.maxFailures,
      policy.windowMs,
      policy.baseDelayMs,
      policy.maxDelayMs,
      Math.floor(nowMs),
    )) as [number, number, number];
    return { allowed: r[0] === 1, retryAfterMs: r[1], failures: r[2] };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    // The Redis connection is owned by the app and closed there.
  }
}

/**
 * The Redis store, degrading instead of failing: while Redis is unreachable (not connected, or a command
 * fails or times out) each process counts on its own, in memory, with the same limits, and its decisions
 * say so (`epoch: null`: the credentials cache then trusts its entries for seconds, not a minute). Once
 * Redis answers again the shared counts apply again. A request is never refused because Redis is away;
 * at worst, during an outage, a credential gets its allowance once per process.
 */
export class ResilientRateLimitStore implements RateLimitStore {
  private readonly local = new MemoryRateLimitStore();
  private degradedSince: number | undefined;

  constructor(
    private readonly shared: RedisRateLimitStore,
    private readonly redis: Pick<Redis, 'status'>,
    /** Told when the store starts and stops deciding alone. */
    private readonly onDegraded: (degraded: boolean, err?: unknown) => void = () => undefined,
  ) {}

  /** Whether decisions are being made in this process alone (Redis unreachable). */
  get degraded(): boolean {
    return this.degradedSince !== undefined;
  }

  async hit(key: string, limit: number, periodMs: number, nowMs: number): Promise<RateDecision> {
    const d = await this.either(
      () => this.shared.hit(key, limit, periodMs),
      () => this.local.hit(key, limit, periodMs, nowMs),
      nowMs,
    );
    return this.degraded ? { ...d, epoch: null } : d;
  }

  attempt(key: string, policy: LockoutPolicy, nowMs: number): Promise<LockoutDecision> {
    return this.either(
      () => this.shared.attempt(key, policy, nowMs),
      () => this.local.attempt(key, policy, nowMs),
      nowMs,
    );
  }

  async clear(key: string): Promise<void> {
    await this.local.clear(key);
    await this.either(
      () => this.shared.clear(key),
      async () => undefined,
      Date.now(),
    );
  }

  async close(): Promise<void> {
    await this.local.close();
  }

  private async either<T>(shared: () => Promise<T>, local: () => Promise<T>, nowMs: number): Promise<T> {
    // Not connected: do not queue behind the reconnection, decide now.
    if (this.redis.status !== 'ready') {
      this.degrade(nowMs);
      return local();
    }
    try {
      const result = await shared();
      if (this.degradedSince !== undefined) {
        this.degradedSince = undefined;
        this.onDegraded(false);
      }
      return result;
    } catch (err) {
      this.degrade(nowMs, err);
      return local();
    }
  }

  private degrade(nowMs: number, err?: unknown): void {
    if (this.degradedSince !== undefined) return;
    this.degradedSince = nowMs;
    this.onDegraded(true, err);
  }
}
