import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { finishOpenApiDocument } from './lib/openapi-document.js';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import type { Database } from './db/types.js';
import type { Deps } from './deps.js';
import { closeRedis, LocalBroadcast, RedisBroadcast } from './infra/broadcast.js';
import { RedisCredentialsEpoch } from './infra/credentials-epoch.js';
import { createMailer, type Mailer } from './infra/mailer.js';
import { Lifecycle } from './infra/lifecycle.js';
import { MemoryRateLimitStore, RedisRateLimitStore, ResilientRateLimitStore, type RateLimitStore } from './infra/rate-limit-store.js';
import { loadSecrets } from './infra/secrets.js';
import { systemResolver, WebhookHttp, type HostResolver } from './infra/webhook-http.js';
import { systemClock, type Clock } from './lib/time.js';
import { SERVICE_VERSION } from './lib/version.js';
import { ApiKeyUsage } from './modules/api-keys/api-key-usage.js';
import { AccessTokens } from './modules/auth/auth.tokens.js';
import { PrincipalDirectory } from './modules/auth/principals.js';
import { registerWeb } from './plugins/web.js';
import { registerAuth } from './plugins/auth.js';
import { errorBody, registerErrorHandling } from './plugins/errors.js';
import { createMetricsRegistry, metricsAccess, registerMetrics } from './plugins/metrics.js';
import { registerModules } from './modules/index.js';
import type { PlanningPorts } from './modules/routes/planning-ports.js';
import { livePlanningPorts } from './modules/routes/planning-ports.live.js';
import { bootstrapPlatformAdmin } from './modules/admin/admin.service.js';
import { buildWorkers, type Workers } from './workers/index.js';
import { dbMonitoringSources } from './modules/monitoring/monitoring.sources.db.js';
import type { MonitoringSources } from './modules/monitoring/monitoring.sources.js';
import type { IntegrationAdapter } from './adapters/integrations/port.js';
import { builtInAdapters, IntegrationRegistry } from './modules/integrations/integrations.registry.js';
import { integrationFuelPrices } from './modules/integrations/fuel-prices.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** How often API keys' last use is written (in the background, batched). */
const API_KEY_USAGE_FLUSH_MS = 10_000;

export interface AppOptions {
  config: Config;
  /** Supplied by tests and benchmarks; otherwise opened from config and closed with the app. */
  db?: Database;
  clock?: Clock;
  mailer?: Mailer;
  rateLimits?: RateLimitStore;
  /** Geocoding, distances and fuel prices for planning (tests pass local fakes); default: the live wiring. */
  planning?: PlanningPorts;
  /** Integration data for monitoring (tests pass fakes); default: none until integrations supply it. */
  monitoringSources?: MonitoringSources;
  /** Name resolution of webhook targets (tests pass a fake); default: the system resolver. */
  webhookResolver?: HostResolver;
  /** The integration vendor adapters (tests pass fakes); default: the built-in adapters. */
  integrationAdapters?: IntegrationAdapter[];
  /** Where logs go (default stdout); tests capture them to check redaction. */
  logStream?: NodeJS.WritableStream;
  /**
   * What to do with the database schema: apply this version's migrations (default), or only check it is
   * up to date (production api and worker processes: main.ts has checked, the readiness check keeps checking).
   */
  migrations?: 'apply' | 'verify';
}

/** The app with its dependencies and its background workers (started by main.ts for PROCESS_ROLES=worker). */
export type App = FastifyInstance & { deps: Deps; workers: Workers };

const REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.idpToken',
  '*.accessToken',
  '*.refreshToken',
  '*.secret',
  '*.apiKey',
  '*.key',
];

/**
 * RFC 3339 admits a leap second (23:59:60) that Date cannot represent (Date.parse gives NaN): such a
 * timestamp is refused by the schema (400) instead of reaching a service as an invalid date (500).
 */
function representableDates(ajv: Ajv): Ajv {
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  return ajv.addFormat('date-time', { type: 'string', validate: (s: string) => rfc3339.validate(s) && !Number.isNaN(Date.parse(s)), compare: rfc3339.compare });
}

function validators() {
  const base = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false } as const;
  const body = representableDates(addFormats(new Ajv({ ...base, coerceTypes: false })));
  // Query strings and path parameters arrive as text: coerce them to the declared types.
  const text = representableDates(addFormats(new Ajv({ ...base, coerceTypes: 'array' })));
  return { body, text };
}

/** Builds the whole HTTP application without listening: tests inject, main.ts listens. */
export async function buildApp(opts: AppOptions): Promise<App> {
  const { config } = opts;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
          method: req.method,
          url: req.url.replace(/([?&](apiKey|token|access_token)=)[^&]*/gi, '$1[redacted]'),
          remoteAddress: req.ip,
        }),
      },
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // While the server drains (shutdown), requests that still arrive on open connections are served, not
    // refused with 503: the process stops accepting connections, and a load balancer retries elsewhere only
    // what it could not send.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The router's own errors (an undecodable URL, an over-long path parameter) answer with the spec's
    // error body too, not Fastify's default one with its extra `code` and mismatched `error`.
    frameworkErrors: (err, _request, reply) => {
      const messages: Record<string, string> = { FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding)', FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long' };
      const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
      void (reply as FastifyReply).status(status).send(errorBody(status, messages[err.code] ?? 'Internal Server Error'));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ownsDb = opts.db === undefined;
  const db = opts.db ?? (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata'), schema: config.databaseSchema }));
  if ((opts.migrations ?? 'apply') === 'apply') await migrate(db);

  // Imported only when configured: most deployments (and every test but the Redis ones) run without it.
  // Commands fail within seconds while Redis is away (callers fall back), rather than wait for it.
  const redis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2, commandTimeout: 2_000, lazyConnect: false }) : undefined;
  // A connection error is retried by ioredis; without a listener it would also crash the process.
  redis?.on('error', (err: Error) => app.log.warn({ err: err.message }, 'redis connection error'));
  const rateLimits =
    opts.rateLimits ??
    (redis
      ? new ResilientRateLimitStore(new RedisRateLimitStore(redis), redis, (degraded, err) =>
          degraded
            ? app.log.error({ err }, 'Redis is unreachable: rate limits and lockouts are counted in this process until it is back')
            : app.log.info('Redis is back: rate limits are shared again'),
        )
      : new MemoryRateLimitStore());
  // Cached credentials are trusted for a minute when every process sees every change at once (the
  // Redis rate limiter reads the credentials epoch; PGlite is one process by construction), otherwise
  // for five seconds.
  const sharedEpoch = redis !== undefined && (rateLimits instanceof ResilientRateLimitStore || rateLimits instanceof RedisRateLimitStore);
  const principalTtlMs = sharedEpoch || db.kind === 'pglite' ? 60_000 : 5_000;
  const apiKeyUsage = new ApiKeyUsage(db);

  const secrets = loadSecrets(config);
  const deps: Deps = {
    config,
    db,
    redis,
    lifecycle: new Lifecycle(),
    clock: opts.clock ?? systemClock,
    mailer: opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.mailOutboxDir, log: app.log as never }),
    secrets,
    tokens: new AccessTokens(secrets.jwtSecret),
    principals: new PrincipalDirectory(db, {
      ttlMs: principalTtlMs,
      epoch: redis ? new RedisCredentialsEpoch(redis) : undefined,
      onEpochError: (err) => app.log.error({ err }, 'could not announce a credential change to the other instances'),
    }),
    apiKeyUsage,
    broadcast: redis ? new RedisBroadcast(redis) : new LocalBroadcast(),
    rateLimits,
    log: app.log,
    metrics: createMetricsRegistry(),
    webhookHttp: new WebhookHttp({
      allowInsecure: config.webhookAllowInsecureTargets,
      timeoutMs: config.webhookTimeoutMs,
      resolve: opts.webhookResolver ?? systemResolver,
    }),
    integrations: new IntegrationRegistry(opts.integrationAdapters ?? builtInAdapters(config)),
  };
  app.decorate('deps', deps);
  const workers = buildWorkers(deps, { monitoringSources: opts.monitoringSources ?? dbMonitoringSources(deps.db) });
  app.decorate('workers', workers);
  await bootstrapPlatformAdmin(deps);

  const v = validators();
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? v.body : v.text).compile(schema));
  // Response serializers, compiled once per schema object rather than once per route and status: every
  // route answers its errors with the same ErrorBody schema (lib/schemas.ts), and Fastify's own compiler
  // would build ~700 identical functions of it (~3 MiB of heap for the life of the process; Ajv already
  // caches validators by schema object).
  const serializers = new WeakMap<object, (data: unknown) => string>();
  const compileSerializer = SerializerSelector()({}, {});
  app.setSerializerCompiler((route) => {
    let fn = serializers.get(route.schema);
    if (fn === undefined) serializers.set(route.schema, (fn = compileSerializer({ ...route, httpStatus: route.httpStatus ?? '' })));
    return fn;
  });

  // Action endpoints (deactivate, approve, …) take no body; accept an empty JSON body for them.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    defaultJson(req, text, done);
  });

  app.addHook('onSend', async (request, reply) => {
    void reply.header('X-Request-Id', String(request.id));
  });

  // A process without the api role (a worker) listens only for its operations endpoints: liveness,
  // readiness and metrics, for its orchestrator and its Prometheus; the API is the api processes'.
  if (!config.processRoles.includes('api')) {
    app.addHook('onRequest', async (request, reply) => {
      const url = request.url.split('?')[0] ?? '';
      if (url === '/api/v1/health' || url === '/api/v1/health/ready' || url === '/metrics') return;
      return reply.status(404).send(errorBody(404, 'This process serves no API (PROCESS_ROLES has no api): only /api/v1/health, /api/v1/health/ready and /metrics'));
    });
  }

  registerErrorHandling(app);
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fleet Routing and HOS Compliance API',
        version: SERVICE_VERSION,
        description: 'Multi-tenant route planning under US hours-of-service rules, monitoring, alerts and integrations.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'User access token (JWT) or API key' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'API key as a query parameter: GET /api/v1/sse/alerts only (EventSource cannot set headers)' },
        },
      },
    },
    transformObject: (document) => finishOpenApiDocument(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Record<string, unknown>),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  registerAuth(app, deps);
  const metrics = metricsAccess(config);
  if (metrics.kind === 'disabled') app.log.warn('/metrics is not served: set METRICS_TOKEN to publish it in production');
  registerMetrics(app, deps.metrics, metrics);
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerWeb(app, config.webDistDir);
  // Fuel prices come from the tenant's fuel integration, asked at planning time (stored prices as the fallback).
  registerModules(app, deps, opts.planning ?? livePlanningPorts(config, integrationFuelPrices(deps)));

  const usageTimer = setInterval(() => {
    apiKeyUsage.flush().catch((err: unknown) => app.log.warn({ err }, 'could not record API key use'));
  }, API_KEY_USAGE_FLUSH_MS);
  usageTimer.unref();

  app.addHook('onClose', async () => {
    await workers.stop();
    clearInterval(usageTimer);
    await apiKeyUsage.flush().catch((err: unknown) => app.log.warn({ err }, 'could not record API key use'));
    deps.webhookHttp.close();
    await deps.broadcast.close();
    await rateLimits.close();
    if (redis) await closeRedis(redis);
    if (ownsDb) await db.close();
  });
  return app as unknown as App;
}
