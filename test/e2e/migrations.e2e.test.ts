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
import { freePort, logLines, startService, stop, until } from '../helpers/processes.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const SECRETS = { JWT_SECRET: 'migration-test-jwt-secret-0123456789abcdef', ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64') };
const ALL = MIGRATIONS.map((m) => m.id);

async function appliedIn(schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return (await client.query<{ id: string }>(`SELECT id FROM "${schema}".schema_migrations ORDER BY id`)).rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** The database each test case runs on: a fresh PostgreSQL schema, or a fresh embedded database (PGlite on disk). */
function databases(): Array<{ kind: string; env: () => Record<string, string> }> {
  const list: Array<{ kind: string; env: () => Record<string, string> }> = [
    {
      kind: 'pglite',
      env: () => ({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-migrate-')) }),
    },
  ];
  if (PG_URL) list.push({ kind: 'postgres', env: () => ({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: `test_mig_${randomBytes(5).toString('hex')}` }) });
  return list;
}

const schemas: string[] = [];
afterAll(async () => {
  if (!PG_URL || schemas.length === 0) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await client.end();
});

describe.each(databases())('migrations in production ($kind)', ({ env }) => {
  it('an api process against a schema that is behind refuses to start, saying what to run; after `migrate` it starts', async () => {
    const db = env();
    if (db.DATABASE_SCHEMA) schemas.push(db.DATABASE_SCHEMA);
    const port = await freePort();
    const base = { ...SECRETS, ...db, NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_DELAY_SECONDS: '0' };
    const refused = startService({ ...base, PROCESS_ROLES: 'api' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('the database schema is behind this version');
    expect(refused.output()).toContain(`pending migrations: ${ALL.join(', ')}`);
    expect(refused.output()).toContain('npm run migrate');
    expect(refused.output()).toContain('PROCESS_ROLES=migrate');

    const migrated = startService({ ...base, PROCESS_ROLES: 'migrate' });
    expect(await migrated.exited, migrated.output()).toBe(0);
    expect(logLines(migrated).find((l) => Array.isArray(l.applied))?.applied).toEqual(ALL);

    const api = startService({ ...base, PROCESS_ROLES: 'api' });
    try {
      const ready = await until(`http://127.0.0.1:${port}/api/v1/health/ready`, 200, api);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { migrations: { status: 'up' } } });
    } finally {
      expect(await stop(api)).toBe(0);
    }
  });
});

describe.skipIf(!PG_URL)('migrations on a shared PostgreSQL', () => {
  it('two migrate runs at once: one applies every migration, the other waits for it and finds nothing to do', async () => {
    const schema = `test_mig_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    const env = { ...SECRETS, DATABASE_URL: PG_URL!, DATABASE_SCHEMA: schema, NODE_ENV: 'production', LOG_LEVEL: 'info' };
    const runs = [startService(env, ['migrate']), startService({ ...env, PROCESS_ROLES: 'migrate' })];
    const codes = await Promise.all(runs.map((r) => r.exited));
    expect(codes, runs.map((r) => r.output()).join('\n')).toEqual([0, 0]);
    const applied = runs.map((r) => logLines(r).find((l) => Array.isArray(l.applied))?.applied as string[]);
    expect(applied.map((a) => a.length).sort()).toEqual([0, ALL.length]);
    expect(applied.find((a) => a.length > 0)).toEqual(ALL);
    expect(await appliedIn(schema)).toEqual([...ALL].sort());
  }, 120_000);

  it('with MIGRATION_WAIT_SECONDS an api process waits for the migrations: alive, not ready (503, naming them), then serving', async () => {
    const schema = `test_mig_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    const port = await freePort();
    const env = { ...SECRETS, DATABASE_URL: PG_URL!, DATABASE_SCHEMA: schema, NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_DELAY_SECONDS: '0' };
    const api = startService({ ...env, PROCESS_ROLES: 'api', MIGRATION_WAIT_SECONDS: '120' });
    try {
      const notReady = await until(`http://127.0.0.1:${port}/api/v1/health/ready`, 503, api);
      expect(await notReady.json()).toMatchObject({ status: 'not_ready', checks: { migrations: { status: 'pending', pending: ALL } } });
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
      const api503 = await fetch(`http://127.0.0.1:${port}/api/v1/drivers`);
      expect(api503.status).toBe(503);
      expect(await api503.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });

      const migrated = startService({ ...env, PROCESS_ROLES: 'migrate' });
      expect(await migrated.exited, migrated.output()).toBe(0);
      await until(`http://127.0.0.1:${port}/api/v1/health/ready`, 200, api);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/drivers`)).status).toBe(401);
    } finally {
      expect(await stop(api)).toBe(0);
    }
  }, 120_000);
});
