import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshCluster, openDatabase } from './client.js';
import { migrate } from './migrate.js';
import type { Database } from './types.js';

const settings = async (db: Database, names: string[]) =>
  Object.fromEntries(
    (await db.system((tx) => tx.query<{ name: string; value: string }>('SELECT name, current_setting(name) AS value FROM pg_settings WHERE name = ANY($1)', [names]))).rows.map(
      (r) => [r.name, r.value],
    ),
  );

describe('embedded PGlite (memory settings)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes the in-memory cluster in a child process, once per process', async () => {
    const cluster = await freshCluster();
    // A gzipped tarball of a PostgreSQL data directory.
    expect(cluster.byteLength).toBeGreaterThan(100_000);
    expect([cluster[0], cluster[1]]).toEqual([0x1f, 0x8b]);
    expect(await freshCluster()).toBe(cluster);
  });

  it('opens an in-memory database from it with small buffers and a bounded WAL, and it works', async () => {
    const db = await openDatabase({ url: 'memory://' });
    try {
      expect(await settings(db, ['shared_buffers', 'max_wal_size', 'min_wal_size', 'wal_segment_size'])).toEqual({
        shared_buffers: '16MB',
        max_wal_size: '8MB',
        min_wal_size: '2MB',
        wal_segment_size: '1MB',
      });
      // Made without the template databases, which an instance serving one database never uses.
      const databases = await db.system((tx) => tx.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY datname'));
      expect(databases.rows.map((r) => r.datname)).toEqual(['postgres']);
      await migrate(db);
      await db.exec('CREATE TABLE memory_probe (n int); INSERT INTO memory_probe SELECT generate_series(1, 1000)');
      const { rows } = await db.system((tx) => tx.query<{ total: number }>('SELECT sum(n)::int AS total FROM memory_probe'));
      expect(rows[0]!.total).toBe(500_500);
    } finally {
      await db.close();
    }
  });

  it('checkpoints as the WAL grows, so an in-memory database does not keep every byte ever written', async () => {
    const db = await openDatabase({ url: 'memory://' });
    try {
      await db.exec('CREATE TABLE wal_probe (payload text)');
      // 1,600 transactions of 32 kB of incompressible text: 50 MB of WAL, six times the threshold.
      for (let i = 0; i < 1600; i++) {
        await db.system((tx) => tx.query("INSERT INTO wal_probe SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 1000)"));
      }
      const { rows } = await db.system((tx) => tx.query<{ mb: number }>('SELECT (sum(size) / 1048576)::int AS mb FROM pg_ls_waldir()'));
      // Without checkpoints pg_wal would hold all 50 MB; with them, about the threshold plus the segments kept for reuse.
      expect(rows[0]!.mb).toBeLessThanOrEqual(24);
    } finally {
      await db.close();
    }
  });

  it('each in-memory database is its own', async () => {
    const a = await openDatabase({ url: 'memory://' });
    const b = await openDatabase({ url: 'memory://' });
    try {
      await a.exec('CREATE TABLE only_in_a (n int)');
      const inB = await b.system((tx) => tx.query("SELECT 1 FROM pg_tables WHERE tablename = 'only_in_a'"));
      expect(inB.rows).toHaveLength(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('creates an on-disk cluster out of process and reopens it with its data', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-pglite-'));
    dirs.push(dir);
    const dataDir = path.join(dir, 'pgdata');
    const first = await openDatabase({ url: undefined, dataDir });
    try {
      expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(await settings(first, ['shared_buffers', 'max_wal_size', 'wal_segment_size'])).toEqual({
        shared_buffers: '16MB',
        max_wal_size: '1GB',
        wal_segment_size: '16MB',
      });
      await first.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
    } finally {
      await first.close();
    }
    const again = await openDatabase({ url: undefined, dataDir });
    try {
      const { rows } = await again.system((tx) => tx.query<{ n: number }>('SELECT n FROM kept'));
      expect(rows).toEqual([{ n: 42 }]);
    } finally {
      await again.close();
    }
  });
});
