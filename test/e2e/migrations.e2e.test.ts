/**
 * Migrations as operations run them: the migrate role (`node src/main.ts migrate`, PROCESS_ROLES=migrate)
 * applies them once, even when two runs start together; an api process in production does not migrate,
 * and refuses to serve a schema that is behind, saying what to run — or, given MIGRATION_WAIT_SECONDS,
 * waits for it, answering its health checks (ready: 503) meanwhile.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/db/migrate.js';
import { freePort, ServiceProcess, type Child } from '../../soak/lib/infra.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const SECRETS = { JWT_SECRET: 'migration-test-jwt-secret-0123456789abcdef', ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64') };
const ALL = MIGRATIONS.map((m) => m.id);
const PRODUCTION = { ...SECRETS, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', SHUTDOWN_DELAY_SECONDS: '0' };

/** What the migrate role logged it applied. */
function applied(p: Child): string[] | undefined {
  for (const line of p.output().split('\n')) {
    try {
      const entry = JSON.parse(line) as { applied?: unknown };
      if (Array.isArray(entry.applied)) return entry.applied as string[];
    } catch {
      // not a log line
    }
  }
  return undefined;
}

const run = (name: string, env: Record<string, string>) => new ServiceProcess(name, { ...PRODUCTION, PORT: '0', ...env }).start();

const schemas: string[] = [];
const freshSchema = () => {
  const s = `test_mig_${randomBytes(5).toString('hex')}`;
  schemas.push(s);
  return { DATABASE_URL: PG_URL!, DATABASE_SCHEMA: s };
};
afterAll(async () => {
  if (!PG_URL || schemas.length === 0) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await client.end();
});

const refusal = (p: Child) => {
  expect(p.output()).toContain('the database schema is behind this version');
  expect(p.output()).toContain(`pending migrations: ${ALL.join(', ')}`);
  expect(p.output()).toContain('npm run migrate');
  expect(p.output()).toContain('PROCESS_ROLES=migrate');
};

describe('migrations in production (pglite)', () => {
  it('an api process against an embedded database that is behind refuses to start, saying what to run', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-migrate-'));
    try {
      const refused = run('api', { DATA_DIR: dataDir, PROCESS_ROLES: 'api' });
      expect((await refused.exited).code).toBe(1);
      refusal(refused);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!PG_URL)('migrations in production (postgres)', () => {
  it('an api process refuses a schema that is behind; two migrate runs at once apply it once (one waits, then finds nothing); then the api starts', async () => {
    const db = freshSchema();
    const refused = run('api', { ...db, PROCESS_ROLES: 'api' });
    expect((await refused.exited).code).toBe(1);
    refusal(refused);

    // Started together: one as `main.ts migrate` (npm run migrate), one as PROCESS_ROLES=migrate.
    const runs = [new ServiceProcess('migrate-1', { ...PRODUCTION, ...db, PORT: '0' }, { args: ['migrate'] }).start(), run('migrate-2', { ...db, PROCESS_ROLES: 'migrate' })];
    const exits = await Promise.all(runs.map((r) => r.exited));
    expect(exits.map((e) => e.code), runs.map((r) => r.output()).join('\n')).toEqual([0, 0]);
    const results = runs.map(applied);
    expect(results.map((a) => a?.length).sort()).toEqual([0, ALL.length]);
    expect(results.find((a) => a && a.length > 0)).toEqual(ALL);
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    expect((await client.query<{ id: string }>(`SELECT id FROM "${db.DATABASE_SCHEMA}".schema_migrations ORDER BY id`)).rows.map((r) => r.id)).toEqual([...ALL].sort());
    await client.end();

    const api = new ServiceProcess('api', { ...PRODUCTION, ...db, PROCESS_ROLES: 'api', PORT: String(await freePort()) });
    await api.startReady();
    expect(await (await fetch(`${api.url}/api/v1/health/ready`)).json()).toMatchObject({ status: 'ready', checks: { migrations: { status: 'up' } } });
    expect((await api.child.stop()).code).toBe(0);
  }, 120_000);

  it('with MIGRATION_WAIT_SECONDS an api process waits for the migrations: alive, not ready (503, naming them), then serving', async () => {
    const db = freshSchema();
    const api = new ServiceProcess('api', { ...PRODUCTION, ...db, PROCESS_ROLES: 'api', PORT: String(await freePort()), MIGRATION_WAIT_SECONDS: '120' });
    api.start();
    try {
      let notReady: Response | undefined;
      for (let i = 0; i < 600 && notReady?.status !== 503; i++) {
        notReady = await fetch(`${api.url}/api/v1/health/ready`).catch(() => undefined);
        if (notReady?.status !== 503) await new Promise((r) => setTimeout(r, 100));
      }
      expect(notReady?.status).toBe(503);
      expect(await notReady!.json()).toMatchObject({ status: 'not_ready', checks: { migrations: { status: 'pending', pending: ALL } } });
      expect((await fetch(`${api.url}/api/v1/health`)).status).toBe(200);
      const refused = await fetch(`${api.url}/api/v1/drivers`);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });

      const migrated = run('migrate', { ...db, PROCESS_ROLES: 'migrate' });
      expect((await migrated.exited).code, migrated.output()).toBe(0);
      await api.ready();
      expect((await fetch(`${api.url}/api/v1/drivers`)).status).toBe(401);
    } finally {
      expect((await api.child.stop()).code).toBe(0);
    }
  }, 120_000);
});
