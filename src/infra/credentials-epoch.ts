import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The credentials epoch: a value in Redis replaced whenever the standing of a credential changes
 * anywhere in the deployment (a key revoked, a user demoted or deactivated, a tenant suspended or
 * approved). Every process caches credentials; every request's rate-limit round trip to Redis also
 * reads this value (rate-limit-store.ts), and a process that sees it differ from the one it knew
 * forgets its cache before it decides the request. The change is committed before the epoch moves,
 * and the epoch moves before the change's response is sent, so the next request anywhere sees it.
 *
 * A random value rather than a counter: after a Redis restart (nothing is kept on disk) a counter
 * could climb back to a value a process last saw and a change would go unnoticed.
 */
export const CREDENTIALS_EPOCH_KEY = 'fleet:credentials:epoch';

export interface CredentialsEpoch {
  /** Announces a committed change to every process. */
  advance(): Promise<void>;
}

export class RedisCredentialsEpoch implements CredentialsEpoch {
  constructor(
    private readonly redis: Redis,
    private readonly key = CREDENTIALS_EPOCH_KEY,
  ) {}

  async advance(): Promise<void> {
    await this.redis.set(this.key, randomUUID());
  }
}
