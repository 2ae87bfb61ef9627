import type { Redis } from 'ioredis';

/** The two kinds of realtime connection; each has its own per-tenant cap. */
export type ConnectionKind = 'sse' | 'socketio';

export interface ConnectionRef {
  kind: ConnectionKind;
  tenantId: string;
  id: string;
}

/**
 * The open realtime connections of each tenant, in the order they were opened, for the spec's cap
 * ("10 per tenant; beyond that the oldest is closed"). `open` registers a connection and answers
 * which connections (the oldest) must be closed to stay within the cap; the caller closes them,
 * wherever they live.
 */
export interface ConnectionRegistry {
  /** Where the cap holds: this process only, or every process on the same Redis. */
  readonly reach: 'process' | 'cluster';
  open(ref: ConnectionRef, cap: number): Promise<string[]>;
  close(ref: ConnectionRef): Promise<void>;
  /**
   * Tells the registry these connections are still open (Redis: renews their leases) and answers those it
   * no longer knows (evicted meanwhile, or lost with the registry's state), for the caller to register again.
   */
  refresh(refs: ConnectionRef[]): Promise<ConnectionRef[]>;
  /** Calls `listener` when the registry may have lost its state (its Redis connection came back). */
  onReset?(listener: () => void): void;
}

const keyOf = (ref: Pick<ConnectionRef, 'kind' | 'tenantId'>) => `${ref.kind}:${ref.tenantId}`;

/** One process: an insertion-ordered set per tenant and kind. */
export class LocalConnectionRegistry implements ConnectionRegistry {
  readonly reach = 'process' as const;
  private readonly open_ = new Map<string, Set<string>>();

  async open(ref: ConnectionRef, cap: number): Promise<string[]> {
    const key = keyOf(ref);
    const set = this.open_.get(key) ?? new Set<string>();
    this.open_.set(key, set);
    set.add(ref.id);
    const evicted: string[] = [];
    for (const id of set) {
      if (set.size <= cap) break;
      set.delete(id);
      evicted.push(id);
    }
    return evicted;
  }

  async close(ref: ConnectionRef): Promise<void> {
    const key = keyOf(ref);
    const set = this.open_.get(key);
    set?.delete(ref.id);
    if (set?.size === 0) this.open_.delete(key);
  }

  async refresh(): Promise<ConnectionRef[]> {
    return [];
  }
}

/**
 * Every API process on one Redis. Per tenant and kind, a sorted set orders the connections by a
 * global counter taken when each opened, and a hash holds each one's lease (expiry in Redis's own
 * time, so instances' clocks do not matter). Its instance renews the leases of its open connections;
 * a connection whose instance died stops being renewed and is dropped by the next `open`, so a crash
 * never leaves a tenant with phantom connections that count against its cap. Scripts keep each step atomic.
 */
export class RedisConnectionRegistry implements ConnectionRegistry {
  readonly reach = 'cluster' as const;

  constructor(
    private readonly redis: Redis,
    private readonly opts: { leaseMs: number; prefix?: string },
  ) {}

  onReset(listener: () => void): void {
    let connectedBefore = this.redis.status === 'ready';
    this.redis.on('ready', () => {
      if (connectedBefore) listener();
      connectedBefore = true;
    });
  }

  private keys(ref: Pick<ConnectionRef, 'kind' | 'tenantId'>): [string, string] {
    const base = `${this.opts.prefix ?? 'fleet:rt:'}${keyOf(ref)}`;
    return [`${base}:order`, `${base}:lease`];
  }

  async open(ref: ConnectionRef, cap: number): Promise<string[]> {
    const [order, lease] = this.keys(ref);
    const counter = `${this.opts.prefix ?? 'fleet:rt:'}counter`;
    const evicted = (await this.redis.eval(OPEN_SCRIPT, 3, order, lease, counter, ref.id, String(cap), String(this.opts.leaseMs))) as string[];
    return evicted;
  }

  async close(ref: ConnectionRef): Promise<void> {
    const [order, lease] = this.keys(ref);
    await this.redis.multi().zrem(order, ref.id).hdel(lease, ref.id).exec();
  }

  async refresh(refs: ConnectionRef[]): Promise<ConnectionRef[]> {
    const byKey = new Map<string, ConnectionRef[]>();
    for (const ref of refs) byKey.set(keyOf(ref), [...(byKey.get(keyOf(ref)) ?? []), ref]);
    if (byKey.size === 0) return [];
    const groups = [...byKey.values()];
    const pipeline = this.redis.pipeline();
    for (const group of groups) {
      const [order, lease] = this.keys(group[0]!);
      pipeline.eval(REFRESH_SCRIPT, 2, order, lease, String(this.opts.leaseMs), ...group.map((r) => r.id));
    }
    const results = (await pipeline.exec()) ?? [];
    const missing: ConnectionRef[] = [];
    results.forEach(([err, unknown], i) => {
      if (err) throw err;
      const ids = new Set(unknown as string[]);
      for (const ref of groups[i]!) if (ids.has(ref.id)) missing.push(ref);
    });
    return missing;
  }
}

/** Milliseconds of Redis's clock (TIME), shared by the scripts. */
const NOW = `
pcall(redis.replicate_commands)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS: order zset, lease hash, global counter. ARGV: connection id, cap, lease ms.
 * Registers the connection as the newest, forgets connections whose lease ran out, and removes and
 * returns the oldest ones beyond the cap.
 */
const OPEN_SCRIPT = `${NOW}
local lease = tonumber(ARGV[3])
local position = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], position, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], now + lease)
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local expires = tonumber(redis.call('HGET', KEYS[2], id) or '0')
  if expires < now then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
  end
end
local evicted = {}
local n = redis.call('ZCARD', KEYS[1])
local cap = tonumber(ARGV[2])
if n > cap then
  evicted = redis.call('ZRANGE', KEYS[1], 0, n - cap - 1)
  for _, id in ipairs(evicted) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
  end
end
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('PEXPIRE', KEYS[2], lease)
return evicted
`;

/**
 * KEYS: order zset, lease hash. ARGV: lease ms, ids. Renews the leases of ids still registered and returns
 * the ids it does not know.
 */
const REFRESH_SCRIPT = `${NOW}
local lease = tonumber(ARGV[1])
local unknown = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('HSET', KEYS[2], ARGV[i], now + lease)
  else
    table.insert(unknown, ARGV[i])
  end
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], lease)
  redis.call('PEXPIRE', KEYS[2], lease)
end
return unknown
`;
