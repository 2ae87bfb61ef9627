import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { isTenantId } from '../lib/ids.js';
import { APP_ROLE, type Database, type QueryResult, type Tx } from './types.js';

/**
 * The statements that open a tenant-scoped transaction, sent as one round trip. The tenant id is
 * interpolated only after it has matched the strict identifier pattern (prefix + base62).
 */
function tenantPreamble(tenantId: string): string {
  if (!isTenantId(tenantId)) throw new Error('invalid tenant id for tenant transaction');
  return `SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.tenant_id', '${tenantId}', true)`;
}

export interface DatabaseOptions {
  /** undefined or 'memory://' for PGlite, postgres:// for PostgreSQL. */
  url: string | undefined;
  /** PGlite data directory when url is undefined. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); default public. */
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url !== undefined && /^postgres(ql)?:\/\//.test(opts.url)) return openPostgres(opts.url, opts);
  const onDisk = opts.url !== 'memory://' && opts.dataDir !== undefined;
  if (onDisk) fs.mkdirSync(opts.dataDir!, { recursive: true });
  const pglite = onDisk ? new PGlite(opts.dataDir) : new PGlite();
  await pglite.waitReady;
  return new PgliteDatabase(pglite);
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  constructor(private readonly pg: PGlite) {}

  private wrap(tx: { query: PGlite['query'] }): Tx {
    return {
      async query<R>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
        const res = await tx.query<R>(sql, params as unknown[]);
        return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
      },
    };
  }

  tenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const preamble = tenantPreamble(tenantId);
    return this.pg.transaction(async (tx) => {
      await tx.exec(preamble);
      return fn(this.wrap(tx));
    });
  }

  system<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.pg.transaction((tx) => fn(this.wrap(tx)));
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  async ping(): Promise<void> {
    await this.pg.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    // Set once per connection rather than per transaction: a statement never runs longer than 15 s.
    options: `-c statement_timeout=15s${opts.schema ? ` -c search_path=${opts.schema}` : ''}`,
    idleTimeoutMillis: 30_000,
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  if (opts.schema) {
    const c = await pool.connect();
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema.replace(/"/g, '')}"`);
    } finally {
      c.release();
    }
  }
  return new PostgresDatabase(pool);
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  constructor(private readonly pool: pg.Pool) {}

  private async run<T>(preamble: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx: Tx = {
      async query<R>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
        const res = await client.query(sql, params as unknown[]);
        return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
      },
    };
    let broken = false;
    try {
      await client.query(`BEGIN; ${preamble}`);
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  tenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.run(tenantPreamble(tenantId), fn);
  }

  system<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.run('', fn);
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
