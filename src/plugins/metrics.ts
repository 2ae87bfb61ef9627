import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { safeEqual, sha256Hex } from '../lib/crypto.js';
import { unauthenticated } from '../lib/errors.js';

/**
 * Who may read /metrics: with METRICS_TOKEN, only a bearer of it; without one, everyone in development
 * and tests, and nobody in production (the route is not served: 404), so that a production deployment
 * never publishes its metrics by omission.
 */
export type MetricsAccess = { kind: 'open' } | { kind: 'token'; token: string } | { kind: 'disabled' };

export function metricsAccess(config: { isProduction: boolean; metricsToken: string | undefined }): MetricsAccess {
  if (config.metricsToken !== undefined) return { kind: 'token', token: config.metricsToken };
  return config.isProduction ? { kind: 'disabled' } : { kind: 'open' };
}

/** Constant time, whatever the lengths: the digests are compared, not the strings. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m !== null && safeEqual(sha256Hex(m[1]!), sha256Hex(token));
}

/** Prometheus metrics at /metrics: request rate and latency by route, error counts, process metrics. */
/** The app's metrics registry (process metrics included); background workers add theirs to it. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export function registerMetrics(app: FastifyInstance, registry: Registry, access: MetricsAccess = { kind: 'open' }): Registry {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_request_errors_total',
    help: 'HTTP responses with status 5xx by route',
    labelNames: ['method', 'route'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids would explode the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    requests.inc({ method: request.method, route, status_code: reply.statusCode });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc({ method: request.method, route });
  });

  if (access.kind === 'disabled') return registry;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (access.kind === 'token' && !bearerMatches(request.headers.authorization, access.token)) {
      void reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw unauthenticated('Metrics require Authorization: Bearer <METRICS_TOKEN>');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}
