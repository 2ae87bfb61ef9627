import type { FastifyInstance } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import { migrationStatus } from '../../db/migrate.js';
import type { Deps } from '../../deps.js';
import { SERVICE_VERSION } from '../../lib/version.js';

const Check = Type.Object({
  status: Type.String({ description: 'up, down; for migrations: up (none pending) or pending' }),
  latencyMs: Type.Optional(Type.Number()),
  kind: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  pending: Type.Optional(Type.Array(Type.String(), { description: 'Migrations this version has that the database lacks' })),
});
const Health = Type.Object({ status: Type.String(), version: Type.String(), uptimeSeconds: Type.Number(), timestamp: Type.String(), checks: Type.Object({ database: Check }) });
const Readiness = Type.Object({
  status: Type.String({ description: 'ready, or not_ready (503)' }),
  draining: Type.Boolean({ description: 'The process received SIGTERM and is finishing its work' }),
  timestamp: Type.String(),
  checks: Type.Object({ database: Check, redis: Type.Optional(Check), migrations: Check }),
});

type CheckResult = { status: string; latencyMs?: number; kind?: string; error?: string; pending?: string[] };

/** A dependency check bounded in time: a hung database must not hang the probe. */
async function timed(name: string, fn: () => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)))]);
    return { status: 'up', latencyMs: Math.round((performance.now() - t0) * 100) / 100 };
  } catch {
    return { status: 'down', error: `${name} did not answer` };
  } finally {
    clearTimeout(timer);
  }
}

const CHECK_TIMEOUT_MS = 2_000;

/**
 * Liveness (GET /api/v1/health: the process answers and reaches its database) and readiness
 * (GET /api/v1/health/ready: it should be sent traffic — 503 while the database or Redis is unreachable,
 * while the schema is behind this version, or while it drains after SIGTERM).
 */
export function healthRoutes(app: FastifyInstance, deps: Deps): void {
  const started = Date.now();
  app.get(
    '/api/v1/health',
    {
      config: { access: { auth: 'public', rateLimit: false } },
      schema: { operationId: 'getHealth', tags: ['Health'], summary: 'Liveness: the service answers, with a database check', response: { 200: Health, 503: Health } },
    },
    async (_request, reply) => {
      const database = { ...(await timed('database', () => deps.db.ping(), CHECK_TIMEOUT_MS)), kind: deps.db.kind };
      const healthy = database.status === 'up';
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'healthy' : 'unhealthy',
        version: SERVICE_VERSION,
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
        timestamp: new Date().toISOString(),
        checks: { database },
      });
    },
  );

  app.get(
    '/api/v1/health/ready',
    {
      config: { access: { auth: 'public', rateLimit: false } },
      schema: {
        operationId: 'getReadiness',
        tags: ['Health'],
        summary: 'Readiness: whether this instance should receive traffic',
        description:
          '200 when the instance can serve. 503 while its database or Redis (when configured) is unreachable, while migrations of this ' +
          'version are pending, or while it drains after SIGTERM (load balancers stop sending it work; it finishes what it has).',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const redis = deps.redis;
      const [database, redisCheck, migrations] = await Promise.all([
        timed('database', () => deps.db.ping(), CHECK_TIMEOUT_MS).then((c) => ({ ...c, kind: deps.db.kind })),
        redis
          ? redis.status === 'ready'
            ? timed('redis', async () => void (await redis.ping()), CHECK_TIMEOUT_MS)
            : Promise.resolve<CheckResult>({ status: 'down', error: `redis is ${redis.status}` })
          : Promise.resolve(undefined),
        migrationStatus(deps.db).then(
          ({ pending }): CheckResult => (pending.length === 0 ? { status: 'up' } : { status: 'pending', pending }),
          (): CheckResult => ({ status: 'down', error: 'the migration table could not be read' }),
        ),
      ]);
      const draining = deps.lifecycle.draining;
      const ready = !draining && database.status === 'up' && (redisCheck === undefined || redisCheck.status === 'up') && migrations.status === 'up';
      return reply.status(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not_ready',
        draining,
        timestamp: new Date().toISOString(),
        checks: { database, ...(redisCheck ? { redis: redisCheck } : {}), migrations },
      });
    },
  );
}
