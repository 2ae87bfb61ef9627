import type { Redis } from 'ioredis';

/**
 * Messages to every API process of the deployment (the realtime fan-out of dispatched events): within
 * this process by default; through Redis pub/sub when REDIS_URL is set.
 *
 * Pub/sub delivers at most once: a subscriber whose connection drops misses what is published
 * meanwhile. Nothing here retries; instead `onGap` tells the subscriber when its subscription came back
 * after a loss, and the realtime hub reads what its clients missed back from the outbox.
 */
export interface Broadcast {
  /** `process`: reaches this process only. `cluster`: every process on the same Redis. */
  readonly reach: 'process' | 'cluster';
  publish(channel: string, payload: string): Promise<void>;
  /** Resolves once messages on the channel are being received (or, Redis being unreachable, will be once it is back). */
  subscribe(channel: string, handler: (payload: string) => void): Promise<void>;
  /** Calls `listener` each time the subscriptions are back after an interruption (messages may have been missed). */
  onGap(listener: () => void): void;
  close(): Promise<void>;
}

type Handlers = Map<string, Set<(payload: string) => void>>;

function deliver(handlers: Handlers, channel: string, payload: string): void {
  for (const handler of handlers.get(channel) ?? []) {
    try {
      handler(payload);
    } catch {
      // One subscriber's failure must not keep the message from the others.
    }
  }
}

/** Returns true for the channel's first handler. */
function addHandler(handlers: Handlers, channel: string, handler: (payload: string) => void): boolean {
  const set = handlers.get(channel);
  if (set) {
    set.add(handler);
    return false;
  }
  handlers.set(channel, new Set([handler]));
  return true;
}

/** Closes a Redis connection: politely when connected, at once when not (a QUIT would wait for a connection). */
export async function closeRedis(redis: Pick<Redis, 'status' | 'quit' | 'disconnect'>): Promise<void> {
  if (redis.status !== 'ready') return redis.disconnect();
  await redis.quit().catch(() => redis.disconnect());
}

/** Within one process: delivered synchronously on publish. */
export class LocalBroadcast implements Broadcast {
  readonly reach = 'process' as const;
  private readonly handlers: Handlers = new Map();

  async publish(channel: string, payload: string): Promise<void> {
    deliver(this.handlers, channel, payload);
  }

  async subscribe(channel: string, handler: (payload: string) => void): Promise<void> {
    addHandler(this.handlers, channel, handler);
  }

  onGap(): void {
    // Nothing is ever missed within one process.
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}

/**
 * Redis pub/sub. Publishing uses the app's connection; receiving needs one of its own (a subscribed
 * connection can do nothing else), which ioredis re-subscribes after a reconnection. Channels are
 * prefixed so that deployments sharing a Redis do not hear each other.
 */
export class RedisBroadcast implements Broadcast {
  readonly reach = 'cluster' as const;
  private readonly handlers: Handlers = new Map();
  private readonly subscriber: Redis;
  private readonly gapListeners = new Set<() => void>();
  private subscribedOnce = false;

  constructor(
    private readonly publisher: Redis,
    private readonly prefix = 'fleet:bus:',
  ) {
    // Its commands wait for Redis rather than fail: a subscription made while Redis is away takes effect
    // when it is back (and `onGap` then says that messages may have been missed).
    this.subscriber = publisher.duplicate({ maxRetriesPerRequest: null, commandTimeout: undefined });
    // A subscribed connection reports its errors here; reconnecting is ioredis's own work.
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel.startsWith(this.prefix)) deliver(this.handlers, channel.slice(this.prefix.length), payload);
    });
    // Reconnected: ioredis subscribes again on its own (autoResubscribe) right after 'ready'; subscribing once
    // more, in order behind it, tells when the subscriptions are live, and from then nothing is missed.
    this.subscriber.on('ready', () => {
      if (!this.subscribedOnce) return;
      const channels = [...this.handlers.keys()].map((c) => this.prefix + c);
      void (channels.length ? this.subscriber.subscribe(...channels) : Promise.resolve()).then(
        () => this.gapListeners.forEach((listener) => listener()),
        () => undefined, // lost again: the next 'ready' tries again
      );
    });
  }

  async publish(channel: string, payload: string): Promise<void> {
    await this.publisher.publish(this.prefix + channel, payload);
  }

  async subscribe(channel: string, handler: (payload: string) => void): Promise<void> {
    if (!addHandler(this.handlers, channel, handler)) return;
    const subscribed = this.subscriber.subscribe(this.prefix + channel);
    this.subscribedOnce = true;
    // Connected: resolve once messages flow. Not connected (Redis away while this process starts): do not
    // hold the start-up for it; the subscription is made on connection, and the gap listeners are told then.
    if (this.subscriber.status === 'ready') await subscribed;
    else subscribed.catch(() => undefined);
  }

  onGap(listener: () => void): void {
    this.gapListeners.add(listener);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.gapListeners.clear();
    this.subscriber.disconnect();
  }
}
