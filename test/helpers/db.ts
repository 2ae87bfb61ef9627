import fs from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.js';
import type { Database } from '../../src/db/types.js';
import { randomBase62 } from '../../src/lib/ids.js';

export type DbKind = 'pglite' | 'postgres';

/**
 * The databases every database suite runs on: always the embedded PGlite, and real PostgreSQL
 * when TEST_DATABASE_URL is set. Suites use describe.each(DB_KINDS) so the same assertions run on both.
 */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

let migratedCluster: Uint8Array<ArrayBuffer> | undefined;

/**
 * The migrated PGlite cluster the global setup made once for the whole run (FLEET_TEST_PGLITE_CLUSTER):
 * every in-memory test database starts from a copy, instead of running initdb and the migrations again
 * (about 6 s per test file). Absent (a suite run without the global setup): a new cluster each time.
 */
function testCluster(): Uint8Array<ArrayBuffer> | undefined {
  const file = process.env.FLEET_TEST_PGLITE_CLUSTER;
  if (!file || !fs.existsSync(file)) return undefined;
  migratedCluster ??= new Uint8Array(fs.readFileSync(file));
  return migratedCluster;
}

/** A fresh, isolated database: in-memory PGlite, or a new schema in the PostgreSQL test database (dropped on close). */
export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ url: 'memory://', cluster: testCluster() });
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBase62(12).toLowerCase()}`;
  const db = await openDatabase({ url, schema, poolSize: 4 });
  const close = db.close.bind(db);
  return Object.assign(Object.create(Object.getPrototypeOf(db) as object) as Database, db, {
    close: async () => {
      await close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  });
}
