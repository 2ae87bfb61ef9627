import type { Redis } from 'ioredis';

/**
 * Messages to every API process of the deployment (the realtime fan-out of dispatched events): within
 * this process by default; through Redis pub/sub when REDIS_URL is set.
 *
 * Pub/sub delivers at most once: a subscriber whose connection drops misses what is published
 * meanwhile. Realtime clients are told to expect that (the spec: recover with GET /alerts after a
 * reconnection; SSE replays from Last-Event-ID out of the database), so nothing here retries.
 */
export interface Broadcast {
  /** `process`: reaches this process only. `cluster`: every process on the same Redis. */
  readonly reach: 'process' | 'cluster';
  publish(channel: string, payload: string): Promise<void>;
  /** Resolves once messages on the channel are being received. */
  subscribe(channel: string, handler: (payload: string) => void): Promise<void>;
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

  constructor(
    private readonly publisher: Redis,
    private readonly prefix = 'fleet:bus:',
  ) {
    this.subscriber = publisher.duplicate({ maxRetriesPerRequest: null });
    // A subscribed connection reports its errors here; reconnecting is ioredis's own work.
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel.startsWith(this.prefix)) deliver(this.handlers, channel.slice(this.prefix.length), payload);
    });
  }

  async publish(channel: string, payload: string): Promise<void> {
    await this.publisher.publish(this.prefix + channel, payload);
  }

  async subscribe(channel: string, handler: (payload: string) => void): Promise<void> {
    if (addHandler(this.handlers, channel, handler)) await this.subscriber.subscribe(this.prefix + channel);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.subscriber.disconnect();
  }
}
