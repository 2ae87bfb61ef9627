import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/types.js';
import type { Redis } from 'ioredis';
import type { Broadcast } from './infra/broadcast.js';
import type { Lifecycle } from './infra/lifecycle.js';
import type { Mailer } from './infra/mailer.js';
import type { RateLimitStore } from './infra/rate-limit-store.js';
import type { Secrets } from './infra/secrets.js';
import type { WebhookHttp } from './infra/webhook-http.js';
import type { Registry } from 'prom-client';
import type { Clock } from './lib/time.js';
import type { ApiKeyUsage } from './modules/api-keys/api-key-usage.js';
import type { AccessTokens } from './modules/auth/auth.tokens.js';
import type { PrincipalDirectory } from './modules/auth/principals.js';
import type { IntegrationRegistry } from './modules/integrations/integrations.registry.js';

/** What the shell hands to services: infrastructure, never the HTTP layer. */
export interface Deps {
  config: Config;
  db: Database;
  /** The process's Redis connection (commands), when REDIS_URL is set. */
  redis: Redis | undefined;
  /** Serving or draining (readiness). */
  lifecycle: Lifecycle;
  clock: Clock;
  mailer: Mailer;
  secrets: Secrets;
  tokens: AccessTokens;
  principals: PrincipalDirectory;
  apiKeyUsage: ApiKeyUsage;
  /** Messages to every API process (the realtime fan-out of dispatched events). */
  broadcast: Broadcast;
  rateLimits: RateLimitStore;
  log: FastifyBaseLogger;
  /** Prometheus metrics (served at /metrics); background workers register theirs here. */
  metrics: Registry;
  /** Calls webhook targets under the URL policy (SSRF guard, pinned addresses, timeout). */
  webhookHttp: WebhookHttp;
  /** The integration vendor adapters this process offers, by vendor key. */
  integrations: IntegrationRegistry;
}
