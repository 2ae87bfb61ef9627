import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createTenant } from '../../../test/helpers/factories.js';
import { MIGRATIONS } from '../../db/migrate.js';

describe.each(DB_KINDS)('health and readiness (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(async () => t?.close());

  const ready = () => t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });

  it('is ready when the database answers and the schema is this version\'s, with each check named', async () => {
    const res = await ready();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', draining: false, checks: { database: { status: 'up', kind }, migrations: { status: 'up' } } });
    // No Redis configured: no Redis check.
    expect(res.json().checks.redis).toBeUndefined();
  });

  it('answers 503 naming the pending migrations while the schema is behind, and 200 again once it is not', async () => {
    const last = MIGRATIONS.at(-1)!.id;
    await t.db.system((tx) => tx.query('DELETE FROM schema_migrations WHERE id = $1', [last]));
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { migrations: { status: 'pending', pending: [last] } } });
      // Liveness is not readiness: the process is alive.
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    } finally {
      await t.db.system((tx) => tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [last]));
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('answers 503 from the moment it drains (SIGTERM), while the API keeps serving', async () => {
    const other = await buildTestApp(kind);
    try {
      other.app.deps.lifecycle.drain();
      const res = await other.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', draining: true });
      expect((await other.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
      expect((await other.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('readiness with Redis configured', () => {
  it('answers 503 while Redis is unreachable, naming it', async () => {
    // A port nobody listens on: the connection is refused, and ioredis keeps retrying.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const t = await buildTestApp('pglite', { env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: { status: 'up' }, redis: { status: 'down' }, migrations: { status: 'up' } } });
      // The API itself does not fail for it (rate limits are counted in the process meanwhile).
      const tenant = await createTenant(t.app);
      const drivers = await t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers: tenant.auth });
      expect(drivers.statusCode).toBe(200);
      expect(drivers.headers['x-ratelimit-remaining']).toBeDefined();
    } finally {
      await t.close();
    }
  });
});

describe('a process without the api role', () => {
  it('answers its health, readiness and metrics only', async () => {
    const t = await buildTestApp('pglite', { env: { PROCESS_ROLES: 'worker' } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
      const api = await t.app.inject({ method: 'GET', url: '/api/v1/drivers' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    } finally {
      await t.close();
    }
  });
});
