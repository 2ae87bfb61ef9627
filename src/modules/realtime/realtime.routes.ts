import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';
import type { Server as SocketServer } from 'socket.io';
import type { Deps } from '../../deps.js';
import { closeRedis } from '../../infra/broadcast.js';
import { DomainError, invalid } from '../../lib/errors.js';
import { databaseUnavailable, handleError } from '../../plugins/errors.js';
import { errorResponses, SSE_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { driverScope } from '../alerts/alerts.service.js';
import { LocalConnectionRegistry, RedisConnectionRegistry, type ConnectionRegistry } from './connection-registry.js';
import { DEFAULT_REALTIME_OPTIONS, RealtimeHub, type RealtimeOptions } from './realtime.hub.js';
import { attachSocketServer } from './socketio.js';
import { sseFrame } from './sse-stream.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's realtime side (SSE streams, Socket.IO), once the app is ready; undefined without the api role. */
    realtime: { hub: RealtimeHub; io: SocketServer } | undefined;
  }
}

const SseQuery = Type.Object({
  apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'API key, for clients that cannot set headers (EventSource)' })),
  lastEventId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Resume after this event id (like the Last-Event-ID header)' })),
});

const LAST_EVENT_ID = /^[0-9]{1,15}$/;

/** The Last-Event-ID header (what EventSource sends on reconnection) or the lastEventId query parameter. */
function lastEventIdOf(request: Pick<FastifyRequest, 'headers'>, query: { lastEventId?: string }): number | undefined {
  const header = request.headers['last-event-id'];
  if (header !== undefined) {
    const value = Array.isArray(header) ? header[0]! : header;
    if (value.trim() === '') return undefined;
    if (!LAST_EVENT_ID.test(value.trim())) throw invalid('Validation failed', [{ field: 'headers.last-event-id', message: 'must be an event id (a non-negative integer)' }]);
    return Number(value.trim());
  }
  return query.lastEventId === undefined ? undefined : Number(query.lastEventId);
}

/** The API key the request authenticated with, if it did with one (the stream re-checks it at each heartbeat). */
function apiKeyOf(request: Pick<FastifyRequest, 'headers'>, query: { apiKey?: string }): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const bearer = /^Bearer\s+(sk_\S+)$/i.exec(request.headers.authorization ?? '');
  if (bearer) return bearer[1];
  return request.headers.authorization === undefined ? query.apiKey : undefined;
}

/**
 * Realtime delivery (SSE at GET /api/v1/sse/alerts, Socket.IO at /socket.io), started when the app is
 * ready in processes with the api role, and closed before the HTTP server stops (open streams would
 * otherwise hold it open).
 */
export function realtimeRoutes(fastify: FastifyInstance, deps: Deps, opts: RealtimeOptions = DEFAULT_REALTIME_OPTIONS): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('realtime', undefined);
  const connections: Redis[] = [];

  app.addHook('onReady', async () => {
    if (!deps.config.processRoles.includes('api')) return;
    let registry: ConnectionRegistry = new LocalConnectionRegistry();
    let adapter: Parameters<SocketServer['adapter']>[0] | undefined;
    if (deps.config.redisUrl) {
      const { Redis } = await import('ioredis');
      const { createAdapter } = await import('@socket.io/redis-adapter');
      // Registry commands fail fast while Redis is away (connections are then admitted without the cap).
      const commands = new Redis(deps.config.redisUrl, { maxRetriesPerRequest: 2, commandTimeout: 2_000 });
      // The adapter publishes without waiting for an answer: its commands wait for Redis to come back
      // rather than fail (a failure there would be nobody's to handle).
      const pub = commands.duplicate({ maxRetriesPerRequest: null, commandTimeout: undefined });
      const sub = commands.duplicate({ maxRetriesPerRequest: null, commandTimeout: undefined });
      for (const c of [commands, pub, sub]) {
        c.on('error', (err: Error) => deps.log.warn({ err: err.message }, 'realtime redis connection error'));
        connections.push(c);
      }
      registry = new RedisConnectionRegistry(commands, { leaseMs: opts.leaseMs });
      adapter = createAdapter(pub, sub, { key: 'fleet:socket.io' });
    }
    const hub = new RealtimeHub(deps, registry, opts, deps.metrics);
    await hub.start();
    const io = attachSocketServer(app.server, deps, hub, adapter);
    app.realtime = { hub, io };
  });

  app.addHook('preClose', async () => {
    const rt = app.realtime;
    if (!rt) return;
    await rt.hub.stop();
    // Not io.close(): that would close the HTTP server, which is Fastify's to close.
    rt.io.engine.close();
    await rt.io.of('/').adapter.close?.();
  });

  app.addHook('onClose', async () => {
    await Promise.all(connections.splice(0).map((c) => closeRedis(c)));
  });

  app.get(
    '/api/v1/sse/alerts',
    {
      config: { access: { auth: 'tenant', permission: 'alerts:read', queryApiKey: true } },
      // EventSource gives up for good on any answer but 200: a failure of ours (the database away during a
      // restart) is answered with a stream that says to come back shortly, so that it reconnects (with its
      // Last-Event-ID) instead. Refusals (401, 403, 429, 400) stay what they are.
      errorHandler: (err, request, reply) => {
        if (!databaseUnavailable(err)) return handleError(err, request, reply);
        request.log.warn({ err: { code: err.code, message: err.message } }, 'SSE stream not opened: the database is unavailable; the client is told to retry');
        return reply
          .status(200)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          .send(`retry: ${opts.unavailableRetryMs}\n${sseFrame('connection_closed', { reason: 'UNAVAILABLE', message: 'The service is briefly unavailable: reconnect' })}`);
      },
      schema: {
        operationId: 'streamAlertEvents',
        tags: ['Streams'],
        security: SSE_SECURITY,
        summary: 'Alert events as Server-Sent Events',
        description:
          'A text/event-stream of the tenant\'s alert events: `alert` (created), `alert_updated`, `alert_resolved`, each with an `id:`; ' +
          '`heartbeat` every 30 s. Send Last-Event-ID (or lastEventId) to receive the events missed since that id first (last 24 h). ' +
          'At most 10 streams per tenant: an 11th closes the oldest. DRIVER users receive their own alerts only.',
        querystring: SseQuery,
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          ...errorResponses(400, 401, 403, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const ctx = tenantCtx(request);
      const lastEventId = lastEventIdOf(request, request.query);
      const hub = app.realtime?.hub;
      if (!hub) throw new DomainError('NOT_CONFIGURED', 'Realtime streams are served by API processes only');
      const scope = await deps.db.tenant(ctx.tenantId, (tx) => driverScope(tx, ctx));

      // From here the response is ours: the headers the hooks set so far (rate limit) go with it.
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      Object.assign(headers, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'x-request-id': String(request.id),
      });
      reply.hijack();
      reply.raw.writeHead(200, headers);
      if (request.method === 'HEAD') return void reply.raw.end();
      request.raw.socket?.setNoDelay?.(true);
      request.raw.socket?.setKeepAlive?.(true);
      await hub.openSse({
        ctx,
        driverScope: scope,
        apiKey: apiKeyOf(request, request.query),
        lastEventId,
        sink: reply.raw,
        // Under app.inject the response is read only once it ends.
        oneShot: '_lightMyRequest' in request.raw,
      });
    },
  );
}
