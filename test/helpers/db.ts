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

/** A fresh, isolated database: in-memory PGlite, or a new schema in the PostgreSQL test database (dropped on close). */
export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ url: 'memory://' });
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
