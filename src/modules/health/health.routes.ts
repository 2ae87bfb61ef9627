import type { FastifyInstance } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { SERVICE_VERSION } from '../../lib/version.js';

const Check = Type.Object({ status: Type.String(), latencyMs: Type.Optional(Type.Number()), kind: Type.Optional(Type.String()), error: Type.Optional(Type.String()) });
const Health = Type.Object({ status: Type.String(), version: Type.String(), uptimeSeconds: Type.Number(), timestamp: Type.String(), checks: Type.Object({ database: Check }) });

export function healthRoutes(app: FastifyInstance, deps: Deps): void {
  const started = Date.now();
  app.get(
    '/api/v1/health',
    {
      config: { access: { auth: 'public', rateLimit: false } },
      schema: { operationId: 'getHealth', tags: ['Health'], summary: 'Service health with a database check', response: { 200: Health, 503: Health } },
    },
    async (_request, reply) => {
      const t0 = performance.now();
      let database: { status: string; latencyMs?: number; kind?: string; error?: string };
      try {
        await deps.db.ping();
        database = { status: 'up', latencyMs: Math.round((performance.now() - t0) * 100) / 100, kind: deps.db.kind };
      } catch {
        database = { status: 'down', kind: deps.db.kind, error: 'database did not answer' };
      }
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
}
